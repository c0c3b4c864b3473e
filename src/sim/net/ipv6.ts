/**
 * IPv6 helpers for the ip6tables model, over ipaddr.js: parsing as ip6tables does
 * (libxtables xtables_ip6parse_any: inet_pton, a `/N` prefix 0–128 or a colon mask), masking,
 * containment, and the text glibc's inet_ntop gives (ip6tables-save and `-L` print through it):
 * RFC 5952 compression, lower case, and the dotted tail of IPv4-mapped (`::ffff:1.2.3.4`) and
 * IPv4-compatible (`::1.2.3.4`) addresses.
 */
import ipaddr from 'ipaddr.js';
import { parseIPv4 } from './ipv4.js';
import { remember } from '../../util/bounded-map.js';

/** The address families a netfilter ruleset can be for: `iptables` (ipv4) and `ip6tables` (ipv6). */
export type Family = 'ipv4' | 'ipv6';

/** Eight 16-bit words, or undefined when `s` is not an IPv6 literal (zone ids are not addresses here). */
export function parseIPv6(s: string): number[] | undefined {
  // every IPv6 literal has a colon: the IPv4 addresses that most callers (familyOf, a packet's
  // DNAT target) pass are turned away before ipaddr.js's costly validity check
  if (!s.includes(':') || s.includes('%')) return undefined;
  let words = PARSED.get(s);
  if (words === undefined) {
    words = ipaddr.IPv6.isValid(s) ? ipaddr.IPv6.parse(s).parts.slice() : null;
    remember(PARSED, s, words, 4096);
  }
  return words === null ? undefined : words.slice();
}

/** Parsed literals by text (null: not an address): packets walk the same rules many times. */
const PARSED = new Map<string, number[] | null>();

/** glibc inet_ntop6: RFC 5952 text, with a dotted IPv4 tail for ::ffff:a.b.c.d and ::a.b.c.d. */
export function formatIPv6(words: readonly number[]): string {
  const zeros6 = words.slice(0, 5).every((w) => w === 0);
  const dotted = (): string => `${(words[6] ?? 0) >> 8}.${(words[6] ?? 0) & 255}.${(words[7] ?? 0) >> 8}.${(words[7] ?? 0) & 255}`;
  // inet_ntop6 embeds IPv4 only when the longest zero run is exactly the first 6 (or 5 + ffff) words
  if (zeros6 && words[5] === 0xffff) return `::ffff:${dotted()}`;
  if (zeros6 && words[5] === 0 && words[6] !== 0) return `::${dotted()}`;
  return new ipaddr.IPv6(words.slice()).toRFC5952String();
}

/** The words of `words` with every bit past `prefix` cleared. */
export function maskIPv6(words: readonly number[], prefix: number): number[] {
  return words.map((w, i) => {
    const bits = Math.max(0, Math.min(16, prefix - i * 16));
    return bits === 0 ? 0 : w & ((0xffff << (16 - bits)) & 0xffff);
  });
}

/** A colon mask (`ffff:ffff::`) as a prefix length, or undefined when its ones are not contiguous. */
function maskPrefix(words: readonly number[]): number | undefined {
  let n = 0;
  while (n < 128 && (((words[n >> 4] ?? 0) >> (15 - (n & 15))) & 1) === 1) n++;
  const again = maskIPv6(words, n);
  return again.every((w, i) => w === words[i]) ? n : undefined;
}

export interface Cidr6 {
  /** Canonical text of the masked network address. */
  addr: string;
  words: number[];
  prefix: number;
}

/**
 * `addr`, `addr/N` or `addr/colon-mask`: the masked network, `'mask'` for a bad mask
 * (`invalid mask \`X' specified`) or undefined when the address is not IPv6.
 */
export function parseCidr6(s: string): Cidr6 | 'mask' | undefined {
  const slash = s.indexOf('/');
  const words = parseIPv6(slash < 0 ? s : s.slice(0, slash));
  if (!words) return undefined;
  let prefix = 128;
  if (slash >= 0) {
    const m = s.slice(slash + 1);
    if (/^[0-9]+$/.test(m)) {
      prefix = Number(m);
      if (prefix > 128) return 'mask';
    } else {
      const mw = parseIPv6(m);
      const p = mw && maskPrefix(mw);
      if (p === undefined) return 'mask';
      prefix = p;
    }
  }
  const net = maskIPv6(words, prefix);
  return { addr: formatIPv6(net), words: net, prefix };
}

/** Whether `ip` (canonical or not) is inside the network `addr/prefix`. */
export function cidr6Contains(addr: string, prefix: number, ip: string): boolean {
  const a = parseIPv6(addr);
  const b = parseIPv6(ip);
  if (!a || !b) return false;
  const ma = maskIPv6(a, prefix);
  return maskIPv6(b, prefix).every((w, i) => w === ma[i]);
}

/** Canonical text of an IPv6 address string, or undefined when it is not one. */
export function canonicalIPv6(s: string): string | undefined {
  const w = parseIPv6(s.trim());
  return w && formatIPv6(w);
}

/** The family of an address literal (no CIDR), or undefined. */
export function familyOf(ip: string): Family | undefined {
  if (parseIPv6(ip)) return 'ipv6';
  return parseIPv4(ip) !== undefined ? 'ipv4' : undefined;
}
