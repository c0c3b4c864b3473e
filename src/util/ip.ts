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

export function isIPv4(s: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(s);
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
