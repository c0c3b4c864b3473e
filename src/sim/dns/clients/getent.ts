/**
 * glibc `getent hosts NAME`: gethostbyname2 tries AF_INET6 over the whole
 * search list before AF_INET (observed); prints `%-15s %s` (address, canonical name, aliases).
 * Exit 2 when the key is not found.
 */
import { isIP, reverseName, unfqdn, type RR } from '../message.js';
import { parseResolvConf } from '../resolv-conf.js';
import { glibcResolve } from '../stub/glibc.js';
import type { ClientInput, ClientResult } from './types.js';

export function getent(input: ClientInput): ClientResult {
  const [db, key] = input.args;
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
