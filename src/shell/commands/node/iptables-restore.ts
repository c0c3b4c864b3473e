/**
 * `iptables-restore [-n] [-c] [file]` on a node: the payload comes from stdin (or the file
 * operand, as iptables-restore reads it), applied atomically by src/sim/net/restore.ts.
 */
import type { CommandFn } from '../../types.js';
import { runIptablesRestore } from '../../../sim/net/iptables-cmd.js';
import { resolvePath } from '../../../sim/node/vfs.js';
import { iptablesState, isRoot, nodeEnv, notInstalled } from './host.js';

export const iptablesRestore: CommandFn = (ctx) => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const args = ctx.argv.slice(1);
  const file = args.find((a) => !a.startsWith('-'));
  let payload = ctx.stdin;
  if (file !== undefined) {
    const text = ctx.fs.tryRead(resolvePath(ctx.cwd, file));
    if (text === undefined) return { stdout: '', stderr: `Can't open ${file}: No such file or directory\n`, exitCode: 1 };
    payload = text;
  }
  if (!isRoot(ctx))
    return { stdout: '', stderr: 'iptables-restore v1.8.7 (nf_tables): Could not fetch rule set generation id: Permission denied (you must be root)\n\n', exitCode: 4 };
  const r = runIptablesRestore(iptablesState(env.host), args.filter((a) => a !== file), payload, { root: true });
  if (r.exitCode === 0) ctx.cluster?.touchHosts(); // wakes kube-proxy (its chains are resynced)
  return r;
};
