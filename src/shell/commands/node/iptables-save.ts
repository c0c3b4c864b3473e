/** `iptables-save [-t table] [-c]` on a node (src/sim/net runIptablesSave; header time from the simulated clock). */
import type { CommandFn } from '../../types.js';
import type { Host } from '../../../sim/node/host.js';
import type { IptablesState } from '../../../sim/net/iptables.js';
import { runIptablesSave } from '../../../sim/net/iptables-cmd.js';
import { iptablesState, isRoot, nodeEnv, notInstalled } from './host.js';

/** The save command over the ruleset `stateOf` gives (ip6tables-save.ts passes the IPv6 one). */
export function iptablesSaveCommand(stateOf: (host: Host) => IptablesState): CommandFn {
  return (ctx) => {
    const env = nodeEnv(ctx);
    if (!env) return notInstalled(ctx);
    return runIptablesSave(stateOf(env.host), ctx.argv.slice(1), { root: isRoot(ctx), now: ctx.now() });
  };
}

export const iptablesSave: CommandFn = iptablesSaveCommand(iptablesState);
