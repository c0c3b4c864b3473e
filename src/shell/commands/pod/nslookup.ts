/**
 * `nslookup`: in busybox images the applet of the image's busybox version (images.ts
 * busyboxNslookup: ≤ 1.28 the libc-based one, 1.29 the big one without search, 1.30+ with search),
 * busybox 1.36's in other musl images (Alpine), bind9's (9.18) elsewhere (Debian images, nodes).
 */
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';
import { nslookupBusybox } from '../../../sim/dns/clients/nslookup-busybox.js';
import { nslookupBusyboxLibc } from '../../../sim/dns/clients/nslookup-busybox-libc.js';
import { nslookupBind9 } from '../../../sim/dns/clients/nslookup-bind9.js';
import { busyboxNslookup } from '../../../sim/images.js';
import { runDnsClient } from './dns-client.js';
import { flavourOf, imageOf } from './net.js';

export function nslookup(ctx: CommandContext): ShellResult {
  const f = flavourOf(ctx);
  const image = imageOf(ctx);
  const bb = f === 'busybox' && image !== undefined ? busyboxNslookup(image) : undefined;
  if (bb?.applet === 'libc') return runDnsClient(ctx, 'nslookup', (input) => nslookupBusyboxLibc(input, bb.libc));
  if (bb?.applet === 'big-no-search') return runDnsClient(ctx, 'nslookup', (input) => nslookupBusybox(input, false));
  return runDnsClient(ctx, 'nslookup', f === 'busybox' || f === 'musl' ? (input) => nslookupBusybox(input) : nslookupBind9);
}
