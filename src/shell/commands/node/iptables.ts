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
  return runIptables(iptablesState(env.host), ctx.argv.slice(1), { root: isRoot(ctx) });
};
