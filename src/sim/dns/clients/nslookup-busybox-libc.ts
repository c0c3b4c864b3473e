/**
 * busybox ≤ 1.28 `nslookup HOST [SERVER]` (networking/nslookup.c at 1_28_4, the applet before
 * FEATURE_NSLOOKUP_BIG): it has no resolver of its own. res_init, then set_default_dns(SERVER)
 * (xhost2sockaddr: a name goes through getaddrinfo, `nslookup: bad address 'NAME'` when that
 * fails), then print_host twice — for the server's address under `Server:` and for HOST under
 * `Name:` — each a getaddrinfo(AF_UNSPEC, SOCK_STREAM) printed with `"%-10s %s"` and one
 * `Address N: IP[ NAME]` line per address, NAME from getnameinfo(NI_NAMEREQD) (a PTR lookup,
 * libbb/xconnect.c xmalloc_sockaddr2hostonly_noport; no name → the IP alone). A failed lookup
 * prints `nslookup: can't resolve 'HOST'` to stderr and exits 1, after the Server block.
 * getaddrinfo is the image's libc: uClibc-ng in the default build (stub/uclibc.ts), glibc or musl in
 * the -glibc / -musl tags; /etc/hosts comes first in all three. `SERVER:PORT` works here too
 * (set_default_dns → xhost2sockaddr(server, 53) splits the port off, libbb/xconnect.c
 * str2sockaddr, and the port lands in _res.nsaddr_list[0]); server_print shows the address
 * without it (xmalloc_sockaddr2dotted_noport).
 */
import { isIP, reverseName, unfqdn, type QType } from '../message.js';
import { parseResolvConf, resolverOptions, type ResolvConf } from '../resolv-conf.js';
import { glibcResolve, type StubOutcome } from '../stub/glibc.js';
import { muslResolve } from '../stub/musl.js';
import { uclibcResolve } from '../stub/uclibc.js';
import type { QueryFn } from '../stub/query.js';
import { busyboxServerArg, lookupServer } from './server.js';
import type { ClientInput, ClientResult } from './types.js';

export type Libc = 'uclibc' | 'glibc' | 'musl';

const USAGE_1_28_4 =
  'BusyBox v1.28.4 (2018-05-22 17:00:17 UTC) multi-call binary.\n\nUsage: nslookup [HOST] [SERVER]\n\nQuery the nameserver for the IP address of the given HOST\noptionally using a specified DNS server\n';

/** `%-10s %s` (print_host's header line). */
function header(label: string, value: string): string {
  return `${label.padEnd(10)} ${value}\n`;
}

function hostsLines(hosts: string): string[][] {
  return hosts
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim().split(/\s+/))
    .filter((f) => f.length >= 2 && f[0] !== '');
}

interface Lookup {
  addresses: string[];
  timeouts: number;
}

/** getaddrinfo(HOST): /etc/hosts, then DNS through the libc's search rules. */
function addresses(name: string, rc: ResolvConf, query: QueryFn, hosts: string, libc: Libc): Lookup {
  if (isIP(name)) return { addresses: [name], timeouts: 0 };
  const fromHosts = hostsLines(hosts).filter((f) => f.slice(1).some((n) => n.toLowerCase() === name.toLowerCase())).map((f) => f[0]!);
  if (fromHosts.length > 0) return { addresses: [...new Set(fromHosts)], timeouts: 0 };
  const pick = (o: StubOutcome, type: 'A' | 'AAAA'): string[] =>
    o.status === 'found' ? o.records.flatMap((r) => (r.type === type ? [r.address] : [])) : [];
  if (libc === 'musl') {
    const o = muslResolve(name, rc, query);
    return { addresses: [...pick(o, 'A'), ...pick(o, 'AAAA')], timeouts: o.status === 'TIMEOUT' ? 1 : 0 };
  }
  if (libc === 'glibc') {
    const a = glibcResolve(name, 'A', rc, query);
    const aaaa = glibcResolve(name, 'AAAA', rc, query);
    return { addresses: [...pick(a, 'A'), ...pick(aaaa, 'AAAA')], timeouts: (a.status === 'TIMEOUT' ? 1 : 0) + (aaaa.status === 'TIMEOUT' ? 1 : 0) };
  }
  // uClibc-ng getaddrinfo (gaih_inet): AF_INET6 first, then AF_INET, each a gethostbyname2_r
  const out: string[] = [];
  let timeouts = 0;
  for (const type of ['AAAA', 'A'] as const) {
    const r = uclibcResolve(name, type, rc, query);
    timeouts += r.timeouts;
    out.push(...pick(r.outcome, type));
  }
  return { addresses: out, timeouts };
}

/** getnameinfo(NI_NAMEREQD): /etc/hosts, then one PTR query sent as is. */
function reverse(ip: string, rc: ResolvConf, query: QueryFn, hosts: string): { name?: string; timeouts: number } {
  const line = hostsLines(hosts).find((f) => f[0] === ip);
  if (line) return { name: line[1]!, timeouts: 0 };
  const rev = reverseName(ip);
  if (rev === undefined) return { timeouts: 0 };
  const r = uclibcResolve(rev, 'PTR' as QType, rc, query);
  const ptr = r.outcome.status === 'found' ? r.outcome.records.find((x) => x.type === 'PTR') : undefined;
  return ptr && ptr.type === 'PTR' ? { name: unfqdn(ptr.target), timeouts: r.timeouts } : { timeouts: r.timeouts };
}

export function nslookupBusyboxLibc(input: ClientInput, libc: Libc = 'uclibc'): ClientResult {
  const args = input.args;
  const host = args[0];
  if (host === undefined || host.startsWith('-') || args.length > 2) return { stdout: '', stderr: USAGE_1_28_4, exitCode: 1, elapsedMs: 0 };
  const rc = parseResolvConf(input.resolvConf);
  const hosts = input.hosts ?? '';
  let resolveMs = 0;
  const named = args[1];
  let query: QueryFn = input.query;
  if (named !== undefined) {
    const arg = busyboxServerArg('nslookup', named);
    if (!arg.ok) return { stdout: '', stderr: arg.error, exitCode: 1, elapsedMs: 0 };
    const found = lookupServer(input, arg.host);
    resolveMs = found.elapsedMs;
    if (!found.ok) return { stdout: '', stderr: `nslookup: bad address '${named}'\n`, exitCode: 1, elapsedMs: resolveMs };
    const ip = found.addresses[0] ?? arg.host;
    rc.nameservers = [ip];
    if (arg.port !== 53) query = (s, n, t, o) => input.query(s, n, t, s === ip ? { ...o, port: arg.port } : o);
  }
  const server = rc.nameservers[0] ?? '127.0.0.1';
  const { timeoutS } = resolverOptions(rc);
  let timeouts = 0;
  const block = (label: string, name: string, addrs: string[]): string => {
    let s = header(label, name);
    addrs.forEach((ip, i) => {
      const r = reverse(ip, rc, query, hosts);
      timeouts += r.timeouts;
      s += `Address ${i + 1}: ${ip}${r.name !== undefined ? ` ${r.name}` : ''}\n`;
    });
    return s;
  };
  let stdout = `${block('Server:', server, [server])}\n`;
  const found = addresses(host, rc, query, hosts, libc);
  timeouts += found.timeouts;
  if (found.addresses.length === 0) {
    return { stdout, stderr: `nslookup: can't resolve '${host}'\n`, exitCode: 1, elapsedMs: resolveMs + timeouts * timeoutS * 1000 };
  }
  stdout += block('Name:', host, found.addresses);
  return { stdout, stderr: '', exitCode: 0, elapsedMs: resolveMs + timeouts * timeoutS * 1000 };
}
