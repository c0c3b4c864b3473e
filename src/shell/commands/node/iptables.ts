/**
 * `iptables` on a node: a thin wrapper over src/sim/net/iptables-cmd.ts (iptables-nft 1.8.7
 * semantics and wording) on the node's ruleset. Non-root users get iptables' own permission error.
 * `ip6tables` (ip6tables.ts) is the same wrapper on the node's IPv6 ruleset.
 */
import type { CommandFn } from '../../types.js';
import type { Host } from '../../../sim/node/host.js';
import type { IptablesState } from '../../../sim/net/iptables.js';
import { runIptables } from '../../../sim/net/iptables-cmd.js';
import { iptablesState, isRoot, nodeEnv, notInstalled } from './host.js';

/** The iptables command over the ruleset `stateOf` gives for the node (its family names the program). */
export function iptablesCommand(stateOf: (host: Host) => IptablesState): CommandFn {
  return (ctx) => {
    const env = nodeEnv(ctx);
    if (!env) return notInstalled(ctx);
    const r = runIptables(stateOf(env.host), ctx.argv.slice(1), { root: isRoot(ctx) });
    // a changed ruleset wakes kube-proxy, which overwrites edits to its chains at its next sync
    if (r.exitCode === 0 && ctx.argv.slice(1).some((a) => /^-[AIDRFNXPE]$|^--(append|insert|delete|replace|flush|new-chain|delete-chain|policy|rename-chain)$/.test(a))) ctx.cluster?.touchHosts();
    return r;
  };
}

export const iptables: CommandFn = iptablesCommand(iptablesState);
