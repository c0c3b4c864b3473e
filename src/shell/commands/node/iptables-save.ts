/** `iptables-save [-t table] [-c]` on a node (src/sim/net runIptablesSave; header time from the simulated clock). */
import type { CommandFn } from '../../types.js';
import { runIptablesSave } from '../../../sim/net/iptables-cmd.js';
import { iptablesState, isRoot, nodeEnv, notInstalled } from './host.js';

export const iptablesSave: CommandFn = (ctx) => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  return runIptablesSave(iptablesState(env.host), ctx.argv.slice(1), { root: isRoot(ctx), now: ctx.now() });
};
