/**
 * `id` inside a container: who its processes run as (sim/runtime/identity.ts: the security
 * context, the image's USER and its /etc/passwd and /etc/group). BusyBox images print busybox's
 * id (coreutils/id.c), Debian-based ones GNU coreutils' (src/id.c, 9.x): the same ids, different
 * group order and error words. Recorded from busybox 1.35 and coreutils 9.1 in a chroot holding
 * the images' databases (buildroot's skeleton, Debian's base-passwd).
 */
import { podContainers, type Pod } from '../../../sim/api/types.js';
import { lookupImage } from '../../../sim/images.js';
import { groupName, processIdentity, userName, type ProcessIdentity } from '../../../sim/runtime/identity.js';
import { userByName } from '../../../sim/runtime/accounts.js';
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';

const BUSYBOX_USAGE =
  'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: id [-ugGnr] [USER]\n\nPrint information about USER or the current user\n\n\t-u\tUser ID\n\t-g\tGroup ID\n\t-G\tSupplementary group IDs\n\t-n\tPrint names instead of numbers\n\t-r\tPrint real ID instead of effective ID\n';

/** The identity of the container `ctx` runs in, and whether its tools are busybox's. */
export function containerIdentity(ctx: CommandContext): { id: ProcessIdentity; busybox: boolean } | undefined {
  const loc = ctx.location;
  if (loc.kind !== 'pod') return undefined;
  const pod = ctx.cluster?.store.get<Pod>('Pod', loc.namespace, loc.pod);
  const ct = pod ? podContainers(pod).find((c) => c.name === loc.container) : undefined;
  if (!pod || !ct) return undefined;
  const dns = lookupImage(ct.image)?.dns;
  return { id: processIdentity(pod, ct), busybox: dns === 'busybox' || dns === 'musl' };
}

const named = (n: number, name: string | undefined): string => (name === undefined ? String(n) : `${n}(${name})`);

export function id(ctx: CommandContext): ShellResult {
  const who = containerIdentity(ctx);
  if (!who) return { stdout: '', stderr: `${ctx.argv[0]}: command not found\n`, exitCode: 127 };
  const { busybox } = who;
  let opts = '';
  const operands: string[] = [];
  for (const a of ctx.argv.slice(1)) {
    if (a.startsWith('-') && a.length > 1) {
      const bad = [...a.slice(1)].find((ch) => !'ugGnr'.includes(ch));
      if (bad !== undefined)
        return busybox
          ? { stdout: '', stderr: `id: invalid option -- '${bad}'\n${BUSYBOX_USAGE}`, exitCode: 1 }
          : { stdout: '', stderr: `id: invalid option -- '${bad}'\nTry 'id --help' for more information.\n`, exitCode: 1 };
      opts += a.slice(1);
    } else operands.push(a);
  }
  let ident = who.id;
  if (operands[0] !== undefined) {
    // id USER: the user's database entry, its groups from /etc/group (the process plays no part)
    const pw = ident.accounts ? userByName(ident.accounts, operands[0]) : undefined;
    if (!pw) return { stdout: '', stderr: busybox ? `id: unknown user ${operands[0]}\n` : `id: '${operands[0]}': no such user\n`, exitCode: 1 };
    const member = (ident.accounts?.groups ?? []).filter((g) => g.members.includes(pw.name)).map((g) => g.gid);
    ident = { ...ident, uid: pw.uid, gid: pw.gid, groups: [...new Set([pw.gid, ...member])] };
  }
  const has = (c: string): boolean => opts.includes(c);
  const byName = has('n');
  const only = ['u', 'g', 'G'].filter(has);
  if (only.length === 0) {
    if (byName || has('r')) return busybox ? { stdout: '', stderr: BUSYBOX_USAGE, exitCode: 1 } : { stdout: '', stderr: 'id: cannot print only names or real IDs in default format\n', exitCode: 1 };
    // busybox prints getgroups(2) as the kernel sorted it; coreutils puts the group first
    const list = busybox ? ident.groups : [ident.gid, ...ident.groups.filter((g) => g !== ident.gid)];
    const groups = list.length ? ` groups=${list.map((g) => named(g, groupName(ident, g))).join(',')}` : '';
    return { stdout: `uid=${named(ident.uid, userName(ident))} gid=${named(ident.gid, groupName(ident, ident.gid))}${groups}\n`, stderr: '', exitCode: 0 };
  }
  if (only.length > 1) return busybox ? { stdout: '', stderr: BUSYBOX_USAGE, exitCode: 1 } : { stdout: '', stderr: 'id: cannot print "only" of more than one choice\n', exitCode: 1 };
  const ids = only[0] === 'u' ? [ident.uid] : only[0] === 'g' ? [ident.gid] : [ident.gid, ...ident.groups.filter((g) => g !== ident.gid)];
  if (!byName) return { stdout: `${ids.join(' ')}\n`, stderr: '', exitCode: 0 };
  return namesOf(ids, only[0] === 'u' ? 'user' : 'group', ident, busybox);
}

/**
 * `-n`: each id's name; an id without one is printed as a number after an error, and the exit
 * status is 1. busybox writes the number, then the error, then the separator; coreutils the error
 * first.
 */
function namesOf(ids: number[], kind: 'user' | 'group', ident: ProcessIdentity, busybox: boolean): ShellResult {
  const chunks: Array<{ stream: 'stdout' | 'stderr'; text: string }> = [];
  let failed = false;
  ids.forEach((n, i) => {
    const name = kind === 'user' ? userName(ident, n) : groupName(ident, n);
    const sep = i === ids.length - 1 ? '\n' : ' ';
    if (name !== undefined) chunks.push({ stream: 'stdout', text: name + sep });
    else {
      failed = true;
      if (busybox) chunks.push({ stream: 'stdout', text: String(n) }, { stream: 'stderr', text: `id: unknown ID ${n}\n` }, { stream: 'stdout', text: sep });
      else chunks.push({ stream: 'stderr', text: `id: cannot find name for ${kind} ID ${n}\n` }, { stream: 'stdout', text: String(n) + sep });
    }
  });
  const join = (s: 'stdout' | 'stderr'): string => chunks.filter((c) => c.stream === s).map((c) => c.text).join('');
  return { stdout: join('stdout'), stderr: join('stderr'), exitCode: failed ? 1 : 0, chunks };
}
