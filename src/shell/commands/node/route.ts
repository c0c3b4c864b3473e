/**
 * `route [-n] [-e]` (net-tools 2.10, lib/inet_gr.c rprint_fib): the kernel's IPv4 main table as
 * /proc/net/route lists it. Flags: U always, G with a gateway, H for a /32; a blackhole route has
 * no device ("*") and no gateway (the kernel marks only unreachable/prohibit routes RTF_REJECT).
 * Without -n the default destination prints as "default" and the node's gateway as "_gateway"
 * (systemd-resolved's synthesised name); other addresses stay numeric.
 */
import type { CommandFn } from '../../types.js';
import { nodeEnv, notInstalled } from './host.js';
import type { Route } from './netmodel.js';
import { nodeNet } from './netmodel.js';
import { intToIp, parseCidr, prefixMask } from '../../../util/ip.js';

export interface FibRow {
  dest: string;
  gateway: string;
  mask: string;
  flags: string;
  metric: number;
  iface: string;
}

/** Routes as /proc/net/route rows (only the main table, IPv4). */
export function fibRows(routes: readonly Route[]): FibRow[] {
  return routes.map((r) => {
    const cidr = r.dst === 'default' ? '0.0.0.0/0' : r.dst.includes('/') ? r.dst : `${r.dst}/32`;
    const c = parseCidr(cidr)!;
    const mask = prefixMask(c.bits);
    let flags = 'U';
    if (r.via) flags += 'G';
    if (c.bits === 32) flags += 'H';
    return { dest: intToIp(c.base), gateway: r.via ?? '0.0.0.0', mask, flags, metric: r.metric ?? 0, iface: r.type === 'blackhole' ? '*' : (r.dev ?? '*') };
  });
}

const pad = (s: string, n: number): string => s.padEnd(n);

export const route: CommandFn = (ctx) => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  let numeric = false;
  for (const a of ctx.argv.slice(1)) {
    if (/^-[ne]+$/.test(a)) numeric ||= a.includes('n');
    else if (a === '--numeric') numeric = true;
    else if (a === '-4' || a === '-A' || a === 'inet') continue;
    else return { stdout: '', stderr: `route: invalid option -- '${a.replace(/^-+/, '').charAt(0)}'\n`, exitCode: 4 };
  }
  const rows = fibRows(nodeNet(env.cluster, env.host).routes);
  let s = 'Kernel IP routing table\nDestination     Gateway         Genmask         Flags Metric Ref    Use Iface\n';
  for (const r of rows) {
    const dest = !numeric && r.dest === '0.0.0.0' && r.mask === '0.0.0.0' ? 'default' : r.dest;
    const gw = !numeric && r.gateway === '0.0.0.0' ? '0.0.0.0' : !numeric && r.gateway === env.host.data.gateway ? '_gateway' : r.gateway;
    s += `${pad(dest, 15)} ${pad(gw, 15)} ${pad(r.mask, 15)} ${pad(r.flags, 5)} ${pad(String(r.metric), 6)} ${pad('0', 2)} ${String(0).padStart(7)} ${r.iface}\n`;
  }
  return { stdout: s, stderr: '', exitCode: 0 };
};
