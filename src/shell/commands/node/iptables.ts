/**
 * `iptables` on a node: a thin wrapper over src/sim/net/iptables-cmd.ts (iptables-nft 1.8.7
 * semantics and wording) on the node's ruleset. Non-root users get iptables' own permission error.
 */
import type { CommandFn } from '../../types.js';
import { runIptables } from '../../../sim/net/iptables-cmd.js';
import { iptablesState, isRoot, nodeEnv, notInstalled } from './host.js';

export const iptables: CommandFn = (ctx) => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const r = runIptables(iptablesState(env.host), ctx.argv.slice(1), { root: isRoot(ctx) });
  // a changed ruleset wakes kube-proxy, which overwrites edits to its chains at its next sync
  if (r.exitCode === 0 && ctx.argv.slice(1).some((a) => /^-[AIDRFNXPE]$|^--(append|insert|delete|replace|flush|new-chain|delete-chain|policy|rename-chain)$/.test(a))) ctx.cluster?.touchHosts();
  return r;
};
