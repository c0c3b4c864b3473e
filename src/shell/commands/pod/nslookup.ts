/** `nslookup`: busybox 1.36's in busybox images, bind9's (9.18) elsewhere (Debian images, nodes). */
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';
import { nslookupBusybox } from '../../../sim/dns/clients/nslookup-busybox.js';
import { nslookupBind9 } from '../../../sim/dns/clients/nslookup-bind9.js';
import { runDnsClient } from './dns-client.js';
import { flavourOf } from './net.js';

export function nslookup(ctx: CommandContext): ShellResult {
  const f = flavourOf(ctx);
  return runDnsClient(ctx, 'nslookup', f === 'busybox' || f === 'musl' ? nslookupBusybox : nslookupBind9);
}
