/**
 * IPv4 helpers over ipaddr.js: CIDR parsing, containment and the n-th address of a range, used by
 * IPAM, Service IP allocation and the packet path.
 */
import ipaddr from 'ipaddr.js';

export function ipToInt(ip: string): number {
  const b = ipaddr.IPv4.parse(ip).toByteArray();
  return ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
}

export function intToIp(n: number): string {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** Four decimal parts without leading zeros: the shape ipaddr.js's isValidFourPartDecimal demands. */
const FOUR_PART_DECIMAL = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/**
 * ipaddr.IPv4.isValidFourPartDecimal without its parse: that accepts exactly the strings of four
 * plain decimal parts (no leading zero, so none is read as octal or hex) each at most 255. The
 * shape is tested first, so a host name (every /etc/hosts field a client's dial scans) costs one
 * regular expression instead of ipaddr's parser, its thrown error and its four-part match.
 */
export function isIPv4(s: string): boolean {
  const m = FOUR_PART_DECIMAL.exec(s);
  return m !== null && Number(m[1]) <= 255 && Number(m[2]) <= 255 && Number(m[3]) <= 255 && Number(m[4]) <= 255;
}

export interface Cidr {
  base: number;
  bits: number;
  size: number;
}

export function parseCidr(cidr: string): Cidr | undefined {
  const m = /^(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(cidr.trim());
  if (!m || !isIPv4(m[1]!)) return undefined;
  const bits = Number(m[2]);
  if (bits < 0 || bits > 32) return undefined;
  const size = 2 ** (32 - bits);
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { base: (ipToInt(m[1]!) & mask) >>> 0, bits, size };
}

export function cidrContains(cidr: string | Cidr, ip: string): boolean {
  const c = typeof cidr === 'string' ? parseCidr(cidr) : cidr;
  if (!c || !isIPv4(ip)) return false;
  const n = ipToInt(ip);
  return n >= c.base && n < c.base + c.size;
}

export function cidrString(c: Cidr): string {
  return `${intToIp(c.base)}/${c.bits}`;
}

/** An address as Go's net.IP.String writes it: IPv4 dotted, IPv6 in RFC 5952 form (`::1`), as is when it is neither. */
export function goIPString(s: string): string {
  if (!ipaddr.isValid(s)) return s;
  const a = ipaddr.parse(s);
  return a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress() ? (a as ipaddr.IPv6).toIPv4Address().toString() : a.toString();
}

export type IPFamily = 'IPv4' | 'IPv6';

/** The family of a textual address (Go's netutils.IsIPv6String: anything that parses and is not IPv4 is IPv6). */
export function ipFamilyOf(s: string): IPFamily | undefined {
  if (isIPv4(s)) return 'IPv4';
  return ipaddr.IPv6.isValid(s) ? 'IPv6' : undefined;
}

/** A CIDR of either family, its base as a bigint (IPv6 needs 128 bits). */
export interface IPRange {
  family: IPFamily;
  base: bigint;
  bits: number;
  /** The number of addresses in the range. */
  size: bigint;
  text: string;
}

function toBig(a: ipaddr.IPv4 | ipaddr.IPv6): bigint {
  return a.toByteArray().reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
}

/** `a.b.c.d/N` or `v6addr/N`, masked to its network; undefined when it does not parse. */
export function parseRange(cidr: string): IPRange | undefined {
  const s = cidr.trim();
  const slash = s.indexOf('/');
  if (slash < 0) return undefined;
  const addr = s.slice(0, slash);
  const bits = Number(s.slice(slash + 1));
  const family = ipFamilyOf(addr);
  if (!family || !/^\d+$/.test(s.slice(slash + 1))) return undefined;
  const width = family === 'IPv4' ? 32 : 128;
  if (bits > width) return undefined;
  const host = BigInt(width - bits);
  const base = (toBig(ipaddr.parse(addr)) >> host) << host;
  const r: IPRange = { family, base, bits, size: 1n << host, text: '' };
  r.text = `${rangeAddress(r, 0n)}/${bits}`;
  return r;
}

/** The address `offset` places into a range, in its family's canonical text (RFC 5952 for IPv6). */
export function rangeAddress(r: IPRange, offset: bigint): string {
  let v = r.base + offset;
  const bytes: number[] = [];
  for (let i = 0; i < (r.family === 'IPv4' ? 4 : 16); i++) {
    bytes.unshift(Number(v & 255n));
    v >>= 8n;
  }
  return ipaddr.fromByteArray(bytes).toString();
}

/** Whether an address of the range's family lies in it. */
export function rangeContains(r: IPRange, ip: string): boolean {
  if (ipFamilyOf(ip) !== r.family) return false;
  const v = toBig(ipaddr.parse(ip));
  return v >= r.base && v < r.base + r.size;
}

/**
 * Whether a Service allocator of range `r` may hand out `ip`: inside the prefix, not its network
 * address and, for IPv4, not its broadcast address (kubernetes pkg/api/servicecidr
 * PrefixContainsIP; the IPAddress allocator's firstAddress..lastAddress, ipallocator.go).
 */
export function allocatorRangeContains(r: IPRange, ip: string): boolean {
  if (!rangeContains(r, ip)) return false;
  const v = toBig(ipaddr.parse(ip));
  return v !== r.base && !(r.family === 'IPv4' && v === r.base + r.size - 1n);
}

/** The dotted IPv4 netmask of a prefix length (24 → 255.255.255.0). */
export function prefixMask(bits: number): string {
  return intToIp(bits <= 0 ? 0 : (0xffffffff << (32 - Math.min(bits, 32))) >>> 0);
}
