/**
 * `ping -c N` — busybox ping in containers, iputils ping on hosts. ICMP walks the same path as
 * other traffic but kube-proxy's rules only DNAT tcp/udp/sctp, so a ClusterIP never answers (it is
 * virtual): 100% packet loss. Without -c the real tool runs until interrupted; here it sends 4.
 */
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';
import { connect } from '../../../sim/traffic/path.js';
import { dnsSession, dnsWhy, recordWhy, resolveHost, result, sourceOf } from './net.js';

export function ping(ctx: CommandContext): ShellResult {
  const c = ctx.cluster;
  const busybox = ctx.location.kind === 'pod';
  let count = 4;
  let wS: number | undefined;
  let host: string | undefined;
  const argv = ctx.argv.slice(1);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-c') count = Number(argv[++i]);
    else if (/^-c\d+$/.test(a)) count = Number(a.slice(2));
    else if (a === '-W' || a === '-w') wS = Number(argv[++i]);
    else if (!a.startsWith('-')) host = a;
  }
  if (!host || !c) return result('', busybox ? 'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: ping [OPTIONS] HOST\n' : 'ping: usage error: Destination address required\n', busybox ? 1 : 2);
  const dns = dnsSession(ctx, c);
  const r = resolveHost(ctx, dns, host);
  if (!r.ok) {
    recordWhy(c, 'ping', [`$ ${ctx.argv.join(' ')}`, ...dnsWhy(dns)]);
    return result('', busybox ? `ping: bad address '${host}'\n` : `ping: ${host}: ${r.reason === 'NXDOMAIN' ? 'Name or service not known' : 'Temporary failure in name resolution'}\n`, busybox ? 1 : 2, r.elapsedMs);
  }
  const conn = connect(c, sourceOf(ctx), r.ip, 0, 'icmp');
  recordWhy(c, 'ping', [`$ ${ctx.argv.join(' ')}`, ...conn.trace]);
  const ok = conn.ok;
  const got = ok ? count : 0;
  const loss = ok ? 0 : 100;
  const elapsed = r.elapsedMs + (ok ? (count - 1) * 1000 : Math.max(count * 1000, (wS ?? 0) * 1000));
  if (busybox) {
    let out = `PING ${host} (${r.ip}): 56 data bytes\n`;
    for (let i = 0; i < got; i++) out += `64 bytes from ${r.ip}: seq=${i} ttl=${ttl(conn.to?.host)} time=0.100 ms\n`;
    out += `\n--- ${host} ping statistics ---\n${count} packets transmitted, ${got} packets received, ${loss}% packet loss\n`;
    if (ok) out += 'round-trip min/avg/max = 0.100/0.100/0.100 ms\n';
    return result(out, '', ok ? 0 : 1, elapsed);
  }
  let out = `PING ${host} (${r.ip}) 56(84) bytes of data.\n`;
  for (let i = 0; i < got; i++) out += `64 bytes from ${r.ip}: icmp_seq=${i + 1} ttl=${ttl(conn.to?.host)} time=0.100 ms\n`;
  out += `\n--- ${host} ping statistics ---\n${count} packets transmitted, ${got} received, ${loss}% packet loss, time ${(count - 1) * 1000}ms\n`;
  if (ok) out += 'rtt min/avg/max/mdev = 0.100/0.100/0.100/0.000 ms\n';
  return result(out, '', ok ? 0 : 1, elapsed);
}

function ttl(host: string | undefined): number {
  return host ? 64 : 63;
}
