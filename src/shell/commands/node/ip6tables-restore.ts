/** `ip6tables-restore [-n] [-c] [file]` on a node: iptables-restore.ts on the IPv6 ruleset (ip6tables' parse and messages). */
import type { CommandFn } from '../../types.js';
import { iptablesRestoreCommand } from './iptables-restore.js';
import { ip6tablesState } from './host.js';

export const ip6tablesRestore: CommandFn = iptablesRestoreCommand(ip6tablesState, 'ip6tables-restore');
