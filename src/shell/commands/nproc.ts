/**
 * nproc — the CPUs the process may run on: the machine's (a node's capacity as its Node object
 * reports it; a container is not pinned, so it sees its node's; the workstation has 2).
 * - GNU coreutils 9 (src/nproc.c) on the hosts: --all, --ignore=N (never below 1), an operand is
 *   `extra operand ‘X’` with the Try line, status 1.
 * - BusyBox 1.36.1 (util-linux/nproc.c) in the busybox image: long options only, operands
 *   ignored, an unknown option the glibc message and the usage (recorded).
 */
import type { Node, Pod } from '../../sim/api/types.js';
import type { CommandContext, CommandFn } from '../types.js';
import { busyboxOpts, isBusybox } from './busybox.js';
import { getopt, usageError, value } from './util.js';

/** The CPU count of the machine `ctx` runs on (a pod's node for a container). */
function cpus(ctx: CommandContext): number {
  const c = ctx.cluster;
  const loc = ctx.location;
  const nodeName = loc.kind === 'pod' ? c?.store.get<Pod>('Pod', loc.namespace, loc.pod)?.spec.nodeName : loc.host;
  const node = nodeName ? c?.store.get<Node>('Node', undefined, nodeName) : undefined;
  return Number.parseInt(String(node?.status?.capacity?.['cpu'] ?? ''), 10) || 2;
}

const LONG = { all: { key: 'all', arg: false }, ignore: { key: 'ignore', arg: true } };

export const nproc: CommandFn = (ctx) => {
  const bb = isBusybox(ctx);
  let opts;
  if (bb) {
    const b = busyboxOpts('nproc', ctx.argv.slice(1), { short: '', long: LONG });
    if (!b.ok) return b.result;
    opts = b.opts;
  } else {
    const p = getopt('nproc', ctx.argv.slice(1), { short: '', long: LONG });
    if (!p.ok) return usageError('nproc', p.error, '');
    if (p.opts.operands.length > 0) return usageError('nproc', `nproc: extra operand ‘${p.opts.operands[0]}’`, '');
    opts = p.opts;
  }
  const ignoreRaw = value(opts, 'ignore');
  let ignore = 0;
  if (ignoreRaw !== undefined) {
    if (!/^\d+$/.test(ignoreRaw)) return bb ? { stdout: '', stderr: `nproc: invalid number '${ignoreRaw}'\n`, exitCode: 1 } : { stdout: '', stderr: `nproc: invalid number: ‘${ignoreRaw}’\n`, exitCode: 1 };
    ignore = Number(ignoreRaw);
  }
  return { stdout: `${Math.max(1, cpus(ctx) - ignore)}\n`, stderr: '', exitCode: 0 };
};
