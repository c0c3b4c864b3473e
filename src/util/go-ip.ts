/**
 * IP text as Go reads and writes it, for the API server's strict IP validation
 * (k8s.io/apimachinery v0.35 pkg/util/validation/ip.go parseIP and IsValidIP):
 *  - netutils.ParseIPSloppy (k8s.io/utils/net, Go 1.16's net.ParseIP): dotted IPv4 whose octets
 *    may have leading zeros, or IPv6 with an optional dotted IPv4 tail; no zone;
 *  - netip.ParseAddr's stricter reading: no leading zeros in an IPv4 octet;
 *  - net.IP.String: IPv4 (and IPv4-mapped IPv6) dotted, IPv6 in lower case with the longest run
 *    of two or more zero groups (the first of equal runs) written `::`.
 */
import ipaddr from 'ipaddr.js';

/** A dotted IPv4 text as four bytes, `strict` refusing leading zeros (netip), else allowing them (sloppy). */
function parseV4(s: string, strict: boolean): number[] | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) && !(!strict && /^\d+$/.test(p))) return undefined;
    if (strict && p.length > 1 && p.startsWith('0')) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

/** IPv6 text as sixteen bytes (`strict` applies to a dotted tail), or undefined. */
function parseV6(s: string, strict: boolean): number[] | undefined {
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string): number[] | undefined => {
    if (h === '') return [];
    const out: number[] = [];
    const fields = h.split(':');
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      if (i === fields.length - 1 && f.includes('.')) {
        const v4 = parseV4(f, strict);
        if (!v4) return undefined;
        out.push(v4[0]!, v4[1]!, v4[2]!, v4[3]!);
        continue;
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(f)) return undefined;
      const n = parseInt(f, 16);
      out.push(n >> 8, n & 255);
    }
    return out;
  };
  const head = groups(halves[0]!);
  if (!head) return undefined;
  if (halves.length === 1) return head.length === 16 ? head : undefined;
  // a dotted tail may only end the address
  if (halves[0]!.includes('.')) return undefined;
  const tail = groups(halves[1]!);
  if (!tail) return undefined;
  // `::` stands for at least one zero group
  if (head.length + tail.length > 14) return undefined;
  return [...head, ...new Array<number>(16 - head.length - tail.length).fill(0), ...tail];
}

export interface GoIP {
  /** Sixteen bytes (IPv4 as IPv4-mapped IPv6, as net.IP holds it). */
  bytes: number[];
}

const V4_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255];

/** netutils.ParseIPSloppy. */
export function parseIPSloppy(s: string): GoIP | undefined {
  if (s.includes('%')) return undefined;
  if (!s.includes(':')) {
    const v4 = parseV4(s, false);
    return v4 ? { bytes: [...V4_PREFIX, ...v4] } : undefined;
  }
  const v6 = parseV6(s, false);
  return v6 ? { bytes: v6 } : undefined;
}

/** Whether netip.ParseAddr accepts the text (zones aside: ParseIPSloppy has refused them first). */
export function netipParses(s: string): boolean {
  if (s.includes('%')) return false;
  return s.includes(':') ? parseV6(s, true) !== undefined : parseV4(s, true) !== undefined;
}

/** netip.Addr.Is4In6 of the text: an IPv6 text for an IPv4-mapped address. */
export function is4In6(s: string, ip: GoIP): boolean {
  return s.includes(':') && V4_PREFIX.every((b, i) => ip.bytes[i] === b);
}

/** net.IP.String: the IPv6 text is RFC 5952's (ipaddr.js writes the same compression rules). */
export function goNetIPString(ip: GoIP): string {
  const b = ip.bytes;
  if (V4_PREFIX.every((x, i) => b[i] === x)) return b.slice(12).join('.');
  return new ipaddr.IPv6(b.slice()).toRFC5952String();
}
