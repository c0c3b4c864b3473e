/**
 * `iptables-restore [-n] [-c] [file]` on a node: the payload comes from stdin (or the file
 * operand, as iptables-restore reads it), applied atomically by src/sim/net/restore.ts.
 */
import type { CommandFn } from '../../types.js';
import type { Host } from '../../../sim/node/host.js';
import type { IptablesState } from '../../../sim/net/iptables.js';
import { runIptablesRestore } from '../../../sim/net/iptables-cmd.js';
import { resolvePath } from '../../../sim/node/vfs.js';
import { iptablesState, isRoot, nodeEnv, notInstalled } from './host.js';

/** The restore command over the ruleset `stateOf` gives; `prog` names it in its permission error. */
export function iptablesRestoreCommand(stateOf: (host: Host) => IptablesState, prog: string): CommandFn {
  return (ctx) => {
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
      return { stdout: '', stderr: `${prog} v1.8.7 (nf_tables): Could not fetch rule set generation id: Permission denied (you must be root)\n\n`, exitCode: 4 };
    const r = runIptablesRestore(stateOf(env.host), args.filter((a) => a !== file), payload, { root: true });
    if (r.exitCode === 0) ctx.cluster?.touchHosts(); // wakes kube-proxy (its chains are resynced)
    return r;
  };
}

export const iptablesRestore: CommandFn = iptablesRestoreCommand(iptablesState, 'iptables-restore');
