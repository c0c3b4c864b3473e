/**
 * id (GNU coreutils src/id.c) for the users a node has: root, and the cloud image's `ubuntu`
 * with its groups (adm, cdrom, sudo, dip, lxd). `-u`/`-g`/`-G` with `-n` print names.
 */
import type { CommandFn } from '../../types.js';
import { getopt, has, usageError } from '../util.js';
import { hostEnv, notInstalled } from './host.js';

const USERS: Record<string, { uid: number; gid: number; groups: Array<[number, string]> }> = {
  root: { uid: 0, gid: 0, groups: [[0, 'root']] },
  nobody: { uid: 65534, gid: 65534, groups: [[65534, 'nogroup']] },
  ubuntu: { uid: 1000, gid: 1000, groups: [[1000, 'ubuntu'], [4, 'adm'], [24, 'cdrom'], [27, 'sudo'], [30, 'dip'], [105, 'lxd']] },
};

export const id: CommandFn = (ctx) => {
  if (!hostEnv(ctx)) return notInstalled(ctx);
  const p = getopt('id', ctx.argv.slice(1), { short: 'ugGnr', long: { user: { key: 'u', arg: false }, group: { key: 'g', arg: false }, groups: { key: 'G', arg: false }, name: { key: 'n', arg: false }, real: { key: 'r', arg: false } } });
  if (!p.ok) return usageError('id', p.error, '');
  const name = p.opts.operands[0] ?? ctx.user;
  const u = USERS[name];
  if (!u) return { stdout: '', stderr: `id: '${name}': no such user\n`, exitCode: 1 };
  const byName = has(p.opts, 'n');
  if (has(p.opts, 'u')) return { stdout: `${byName ? name : u.uid}\n`, stderr: '', exitCode: 0 };
  if (has(p.opts, 'g')) return { stdout: `${byName ? u.groups[0]![1] : u.gid}\n`, stderr: '', exitCode: 0 };
  if (has(p.opts, 'G')) return { stdout: `${u.groups.map(([g, n]) => (byName ? n : g)).join(' ')}\n`, stderr: '', exitCode: 0 };
  if (byName) return { stdout: '', stderr: "id: cannot print only names or real IDs in default format\n", exitCode: 1 };
  return { stdout: `uid=${u.uid}(${name}) gid=${u.gid}(${u.groups[0]![1]}) groups=${u.groups.map(([g, n]) => `${g}(${n})`).join(',')}\n`, stderr: '', exitCode: 0 };
};
