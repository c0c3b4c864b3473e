/**
 * `nc` — busybox nc (networking/nc_bloaty.c) in containers: `-z -v -w SEC -u HOST PORT`, printing
 * `HOST (IP:PORT) open` / `nc: HOST (IP:PORT): Connection refused`; OpenBSD netcat on hosts:
 * `Connection to HOST PORT port [tcp/*] succeeded!` / `nc: connect to HOST port PORT (tcp) failed: …`.
 */
import type { CommandContext } from '../../types.js';
import type { ShellResult } from '../types.js';
import { connect } from '../../../sim/traffic/path.js';
import { dnsSession, dnsWhy, recordWhy, resolveHost, result, sourceOf, TCP_CONNECT_TIMEOUT_MS } from './net.js';

export function nc(ctx: CommandContext): ShellResult {
  const c = ctx.cluster;
  const busybox = ctx.location.kind === 'pod';
  let verbose = false;
  let udp = false;
  let waitS: number | undefined;
  const pos: string[] = [];
  const argv = ctx.argv.slice(1);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-w') waitS = Number(argv[++i]);
    else if (/^-[zvun]+$/.test(a)) {
      if (a.includes('v')) verbose = true;
      if (a.includes('u')) udp = true;
    } else if (/^-w\d+$/.test(a)) waitS = Number(a.slice(2));
    else pos.push(a);
  }
  const [host, portS] = pos;
  if (!host || !portS || !c) return result('', busybox ? 'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: nc [OPTIONS] HOST PORT  - connect\nnc [OPTIONS] -l -p PORT [HOST] [PORT]  - listen\n' : 'usage: nc [-46CDdFhklNnrStUuvZz] [-I length] [-i interval] [-M ttl]\n', 1);
  const port = Number(portS);
  const dns = dnsSession(ctx, c);
  const r = resolveHost(ctx, dns, host);
  if (!r.ok) {
    recordWhy(c, 'nc', [`$ ${ctx.argv.join(' ')}`, ...dnsWhy(dns)]);
    return result('', busybox ? `nc: bad address '${host}'\n` : `nc: getaddrinfo for host "${host}" port ${port}: Name or service not known\n`, 1, r.elapsedMs);
  }
  const conn = connect(c, sourceOf(ctx), r.ip, port, udp ? 'udp' : 'tcp');
  recordWhy(c, 'nc', [`$ ${ctx.argv.join(' ')}`, ...conn.trace]);
  if (conn.ok) {
    const msg = busybox ? `${host} (${r.ip}:${port}) open\n` : `Connection to ${host} ${port} port [${udp ? 'udp' : 'tcp'}/*] succeeded!\n`;
    return result('', verbose ? msg : '', 0, r.elapsedMs);
  }
  if (conn.error === 'refused' && !udp) return result('', busybox ? `nc: ${host} (${r.ip}:${port}): Connection refused\n` : `nc: connect to ${host} port ${port} (tcp) failed: Connection refused\n`, 1, r.elapsedMs);
  if (udp) return result('', verbose ? (busybox ? `${host} (${r.ip}:${port}) open\n` : `Connection to ${host} ${port} port [udp/*] succeeded!\n`) : '', 0, r.elapsedMs);
  const wait = waitS !== undefined ? waitS * 1000 : TCP_CONNECT_TIMEOUT_MS;
  return result('', busybox ? `nc: ${host} (${r.ip}:${port}): Connection timed out\n` : `nc: connect to ${host} port ${port} (tcp) timed out: Operation now in progress\n`, 1, r.elapsedMs + wait);
}
