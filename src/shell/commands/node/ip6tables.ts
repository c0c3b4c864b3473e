/**
 * `ip6tables` on a node: iptables.ts's wrapper on the node's IPv6 ruleset (node/runtime.ts
 * nodeIp6tables: the kubelet's and kube-proxy's IPv6 chains); addresses, messages and listings
 * are ip6tables' (the ruleset's family selects them in src/sim/net).
 */
import type { CommandFn } from '../../types.js';
import { iptablesCommand } from './iptables.js';
import { ip6tablesState } from './host.js';

export const ip6tables: CommandFn = iptablesCommand(ip6tablesState);
