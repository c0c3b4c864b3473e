/**
 * Minimal IPv4 helpers for the iptables model and the packet walker. iptables parses dotted quads
 * with inet_aton-like strictness (xtables_numeric_to_ipaddr); kube-proxy canonicalises with
 * netutils.ParseIPSloppy, which accepts leading zeros ("10.180.00.001" → "10.180.0.1").
 */

/** Parses a dotted quad (leading zeros allowed, as ParseIPSloppy does) into an unsigned 32-bit int. */
export function parseIPv4(s: string): number | undefined {
  // four parts of one to three digits each, at most 255 (one scan: splitting and matching each
  // part was a tenth of parsing kube-proxy's rules)
  let v = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 46 /* . */) {
      if (digits === 0 || part > 255 || ++dots > 3) return undefined;
      v = v * 256 + part;
      part = 0;
      digits = 0;
      continue;
    }
    if (c < 48 || c > 57 || ++digits > 3) return undefined;
    part = part * 10 + (c - 48);
  }
  if (dots !== 3 || digits === 0 || part > 255) return undefined;
  return (v * 256 + part) >>> 0;
}

export function formatIPv4(v: number): string {
  return `${(v >>> 24) & 255}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;
}

export function maskOf(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

export interface Cidr {
  addr: number;
  prefix: number;
}

/** `a.b.c.d` or `a.b.c.d/N` (N 0–32) or `a.b.c.d/255.255.0.0`; the address is masked. */
export function parseCidr(s: string): Cidr | undefined {
  const slash = s.indexOf('/');
  const ipPart = slash < 0 ? s : s.slice(0, slash);
  const ip = parseIPv4(ipPart);
  if (ip === undefined) return undefined;
  let prefix = 32;
  if (slash >= 0) {
    const m = s.slice(slash + 1);
    if (/^[0-9]{1,3}$/.test(m)) {
      prefix = Number(m);
      if (prefix > 32) return undefined;
    } else {
      const mv = parseIPv4(m);
      if (mv === undefined) return undefined;
      const ones = countLeadingOnes(mv);
      if (maskOf(ones) !== mv) return undefined;
      prefix = ones;
    }
  }
  return { addr: (ip & maskOf(prefix)) >>> 0, prefix };
}

function countLeadingOnes(v: number): number {
  let n = 0;
  while (n < 32 && ((v >>> (31 - n)) & 1) === 1) n++;
  return n;
}

export function cidrContains(c: Cidr, ip: number): boolean {
  return ((ip & maskOf(c.prefix)) >>> 0) === c.addr;
}

/** Canonical form of an IP string, or undefined when it is not IPv4. */
export function canonicalIPv4(s: string): string | undefined {
  const v = parseIPv4(s.trim());
  return v === undefined ? undefined : formatIPv4(v);
}

/** Canonical `a.b.c.d/N` of a CIDR string (whitespace tolerated), or undefined. */
export function canonicalCidr(s: string): string | undefined {
  const c = parseCidr(s.trim());
  return c === undefined ? undefined : `${formatIPv4(c.addr)}/${c.prefix}`;
}
