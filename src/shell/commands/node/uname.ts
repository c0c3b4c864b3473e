/**
 * uname (GNU coreutils src/uname.c) for a node: the kernel name, the node's name, the kernel
 * release its Node object reports (status.nodeInfo.kernelVersion, e.g. 6.8.0-88-generic), the
 * Ubuntu build string, the machine (x86_64 for amd64) and the operating system. `-a` prints them
 * all, dropping -p/-i when they are unknown, as coreutils does.
 */
import type { CommandFn } from '../../types.js';
import { getopt, has, usageError } from '../util.js';
import { hostEnv, notInstalled } from './host.js';
import type { Host } from '../../../sim/node/host.js';

/**
 * The uname(2) fields of a host in uname's option order (s n r v m p i o): the kernel release its
 * Node reports, the Ubuntu build string, the machine. A container shares its node's kernel, so the
 * busybox applet in a pod (pod/uname.ts) prints the same fields, with the pod's own hostname.
 */
export function unameFields(host: Host): Array<[string, string]> {
  const os = host.data.os;
  const abi = /^\d+\.\d+\.\d+-(\d+)/.exec(os.kernel)?.[1] ?? '1';
  const machine = os.arch === 'arm64' ? 'aarch64' : 'x86_64';
  return [
    ['s', 'Linux'],
    ['n', host.name],
    ['r', os.kernel],
    ['v', `#${abi}-Ubuntu SMP PREEMPT_DYNAMIC`],
    ['m', machine],
    ['p', machine],
    ['i', machine],
    ['o', 'GNU/Linux'],
  ];
}

export const uname: CommandFn = (ctx) => {
  const env = hostEnv(ctx);
  if (!env) return notInstalled(ctx);
  const p = getopt('uname', ctx.argv.slice(1), {
    short: 'asnrvmpio',
    long: { all: { key: 'a', arg: false }, 'kernel-name': { key: 's', arg: false }, nodename: { key: 'n', arg: false }, 'kernel-release': { key: 'r', arg: false }, 'kernel-version': { key: 'v', arg: false }, machine: { key: 'm', arg: false }, processor: { key: 'p', arg: false }, 'hardware-platform': { key: 'i', arg: false }, 'operating-system': { key: 'o', arg: false } },
  });
  if (!p.ok) return usageError('uname', p.error, '');
  if (p.opts.operands.length) return usageError('uname', `uname: extra operand '${p.opts.operands[0]}'`, '');
  const fields = unameFields(env.host);
  const all = has(p.opts, 'a');
  const any = fields.some(([k]) => has(p.opts, k));
  const chosen = fields.filter(([k]) => (all ? true : any ? has(p.opts, k) : k === 's'));
  return { stdout: `${chosen.map(([, v]) => v).join(' ')}\n`, stderr: '', exitCode: 0 };
};
