/** `host` (bind9 9.18) over the simulated network. */
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';
import { host as hostClient } from '../../../sim/dns/clients/host.js';
import { runDnsClient } from './dns-client.js';

export function host(ctx: CommandContext): ShellResult {
  return runDnsClient(ctx, 'host', hostClient);
}
