/**
 * glibc `getent hosts NAME` and `getent ahosts* NAME` (below): gethostbyname2 tries AF_INET6 over the whole
 * search list before AF_INET (observed); prints `%-15s %s` (address, canonical name, aliases).
 * Exit 2 when the key is not found.
 */
import { isIP, reverseName, unfqdn, type RR } from '../message.js';
import { parseResolvConf } from '../resolv-conf.js';
import { glibcResolve } from '../stub/glibc.js';
import type { ClientInput, ClientResult } from './types.js';

const SOCKTYPES = ['STREAM', 'DGRAM', 'RAW'] as const;

function hostsFile(hosts: string): string[][] {
  return hosts
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim().split(/\s+/))
    .filter((f) => f.length >= 2 && f[0] !== '');
}

interface Found {
  addresses: { family: 4 | 6; address: string }[];
  canonical: string;
}

/**
 * getaddrinfo(KEY, NULL, {AI_V4MAPPED | AI_ADDRCONFIG | AI_CANONNAME}) as `getent ahosts*` calls
 * it: an address literal is its own answer (canonical name = the text); else nsswitch `files`
 * (/etc/hosts: every line naming KEY, canonical name = the first line's first name), then `dns`
 * (the glibc search list for A, and for AAAA unless IPv4 only; canonical name = the CNAME target
 * or the name found). IPv4 results sort before IPv6 ones: a pod's only IPv6 source address is
 * link-local, so RFC 3484 rule 2 (matching scope, glibc rfc3484_sort) puts global IPv6 after.
 */
function addrinfo(key: string, family: 0 | 4 | 6, rc: ReturnType<typeof parseResolvConf>, input: ClientInput): { found: Found | undefined; elapsedMs: number } {
  const v4 = /^\d+\.\d+\.\d+\.\d+$/.test(key);
  if (isIP(key)) {
    if (family === 4 && !v4) return { found: undefined, elapsedMs: 0 };
    // gaih_inet: AF_INET6 + AI_V4MAPPED turns an IPv4 literal into ::ffff:a.b.c.d
    if (family === 6 && v4) return { found: { addresses: [{ family: 6, address: `::ffff:${key}` }], canonical: key }, elapsedMs: 0 };
    return { found: { addresses: [{ family: v4 ? 4 : 6, address: key }], canonical: key }, elapsedMs: 0 };
  }
  const lines = hostsFile(input.hosts ?? '').filter((f) => f.slice(1).some((n) => n.toLowerCase() === key.toLowerCase()));
  if (lines.length > 0) {
    const addresses = lines.flatMap((f): Found['addresses'] => {
      const ip = f[0] ?? '';
      const fam = /^\d+\.\d+\.\d+\.\d+$/.test(ip) ? 4 : 6;
      return family === 0 || family === fam ? [{ family: fam, address: ip }] : [];
    });
    if (addresses.length > 0) return { found: { addresses, canonical: lines[0]?.[1] ?? key }, elapsedMs: 0 };
  }
  let elapsedMs = 0;
  let canonical: string | undefined;
  const addresses: Found['addresses'] = [];
  for (const type of family === 4 ? (['A'] as const) : (['A', 'AAAA'] as const)) {
    const r = glibcResolve(key, type, rc, input.query);
    if (r.status === 'TIMEOUT') elapsedMs += 10000;
    if (r.status !== 'found') continue;
    const cn = r.records.filter((x) => x.type === 'CNAME');
    const lc = cn[cn.length - 1];
    canonical ??= unfqdn(lc && lc.type === 'CNAME' ? lc.target : r.name);
    for (const x of r.records) if (x.type === type) addresses.push({ family: type === 'A' ? 4 : 6, address: x.address });
  }
  if (family === 6) {
    // AI_V4MAPPED: IPv4 answers only when there is no IPv6 one, as ::ffff:a.b.c.d
    const six = addresses.filter((a) => a.family === 6);
    const list = six.length > 0 ? six : addresses.map((a) => ({ family: 6 as const, address: `::ffff:${a.address}` }));
    return { found: list.length > 0 ? { addresses: list, canonical: canonical ?? key } : undefined, elapsedMs };
  }
  return { found: addresses.length > 0 ? { addresses, canonical: canonical ?? key } : undefined, elapsedMs };
}

/**
 * glibc `getent ahosts|ahostsv4|ahostsv6 KEY…` (nss/getent.c ahosts_keys_int: AF_UNSPEC, AF_INET,
 * AF_INET6 + AI_V4MAPPED): per address one line per socket type (STREAM, DGRAM, RAW) printed
 * with `"%-15s %-6s %s\n"` — the canonical name only on the very first line (ai_canonname is set
 * on the first addrinfo alone), so the others end in spaces. A key that does not resolve makes
 * the exit status 2 and prints nothing.
 */
function ahosts(keys: string[], family: 0 | 4 | 6, input: ClientInput): ClientResult {
  const rc = parseResolvConf(input.resolvConf);
  let stdout = '';
  let exitCode = 0;
  let elapsedMs = 0;
  for (const key of keys) {
    const r = addrinfo(key, family, rc, input);
    elapsedMs += r.elapsedMs;
    if (!r.found) {
      exitCode = 2;
      continue;
    }
    const sorted = [...r.found.addresses.filter((a) => a.family === 4), ...r.found.addresses.filter((a) => a.family === 6)];
    sorted.forEach((a, i) => {
      for (const t of SOCKTYPES) stdout += `${a.address.padEnd(15)} ${t.padEnd(6)} ${i === 0 && t === 'STREAM' ? r.found!.canonical : ''}\n`;
    });
  }
  return { stdout, stderr: '', exitCode, elapsedMs };
}

export function getent(input: ClientInput): ClientResult {
  const [db, key] = input.args;
  if (db === 'ahosts' || db === 'ahostsv4' || db === 'ahostsv6') return ahosts(input.args.slice(1), db === 'ahosts' ? 0 : db === 'ahostsv4' ? 4 : 6, input);
  if (db !== 'hosts') return { stdout: '', stderr: `Unknown database: ${db ?? ''}\nTry \`getent --help' or \`getent --usage' for more information.\n`, exitCode: 1, elapsedMs: 0 };
  if (key === undefined) return { stdout: '', stderr: '', exitCode: 2, elapsedMs: 0 };
  const rc = parseResolvConf(input.resolvConf);
  if (isIP(key)) {
    const r = glibcResolve(reverseName(key) ?? key, 'PTR', rc, input.query);
    if (r.status !== 'found') return { stdout: '', stderr: '', exitCode: 2, elapsedMs: r.status === 'TIMEOUT' ? 10000 : 0 };
    const p = r.records.find((x) => x.type === 'PTR');
    return { stdout: `${key.padEnd(15)} ${p && p.type === 'PTR' ? unfqdn(p.target) : key}\n`, stderr: '', exitCode: 0, elapsedMs: 0 };
  }
  let elapsed = 0;
  for (const type of ['AAAA', 'A'] as const) {
    const r = glibcResolve(key, type, rc, input.query);
    if (r.status === 'TIMEOUT') elapsed += 10000;
    if (r.status !== 'found') continue;
    const addrs = r.records.filter((x): x is RR & { type: 'A' | 'AAAA' } => x.type === type);
    const cn = r.records.filter((x) => x.type === 'CNAME');
    const lc = cn[cn.length - 1];
    const canonicalName = unfqdn(lc && lc.type === 'CNAME' ? lc.target : r.name);
    const aliases = cn.map((x) => unfqdn(x.name));
    const lines = addrs.map((a) => `${a.address.padEnd(15)} ${[canonicalName, ...aliases].join(' ')}\n`).join('');
    return { stdout: lines, stderr: '', exitCode: 0, elapsedMs: elapsed };
  }
  return { stdout: '', stderr: '', exitCode: 2, elapsedMs: elapsed };
}
