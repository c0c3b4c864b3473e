/** `dig` (bind9 9.18) over the simulated network. */
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';
import { dig as digClient } from '../../../sim/dns/clients/dig.js';
import { runDnsClient } from './dns-client.js';

export function dig(ctx: CommandContext): ShellResult {
  return runDnsClient(ctx, 'dig', digClient);
}
