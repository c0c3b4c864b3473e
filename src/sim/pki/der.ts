/**
 * The DER subset X.509 needs (ITU-T X.690): enough to write the certificates kubeadm and
 * `openssl x509 -req` make and to read back any certificate for `openssl x509 -text`.
 */

export interface DerNode {
  tag: number;
  /** Content bytes. */
  body: Buffer;
  /** The whole TLV. */
  raw: Buffer;
  children?: DerNode[];
}

function len(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), len(body.length), body]);
}

export const seq = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));
export const set = (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat(items));
export const explicit = (n: number, inner: Buffer): Buffer => tlv(0xa0 + n, inner);
export const octets = (b: Buffer): Buffer => tlv(0x04, b);
export const bitString = (b: Buffer): Buffer => tlv(0x03, Buffer.concat([Buffer.from([0]), b]));
export const bool = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0]));
export const nul = (): Buffer => Buffer.from([0x05, 0x00]);
export const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));

/** A non-negative INTEGER from a bigint. */
export function integer(v: bigint): Buffer {
  let hex = v.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  let b = Buffer.from(hex, 'hex');
  if (b[0]! & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  return tlv(0x02, b);
}

export function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const out: number[] = [40 * parts[0]! + parts[1]!];
  for (const p of parts.slice(2)) {
    const chunk: number[] = [];
    let v = p;
    do {
      chunk.unshift(v & 0x7f);
      v = Math.floor(v / 128);
    } while (v > 0);
    for (let i = 0; i < chunk.length - 1; i++) chunk[i]! |= 0x80;
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

export function oidString(body: Buffer): string {
  const parts = [Math.floor(body[0]! / 40), body[0]! % 40];
  let v = 0;
  for (const b of body.subarray(1)) {
    v = v * 128 + (b & 0x7f);
    if (!(b & 0x80)) {
      parts.push(v);
      v = 0;
    }
  }
  return parts.join('.');
}

/** UTCTime before 2050, GeneralizedTime after (RFC 5280 4.1.2.5). */
export function time(ms: number): Buffer {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const p = (n: number): string => String(n).padStart(2, '0');
  const rest = `${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`;
  return y < 2050 ? tlv(0x17, Buffer.from(`${String(y).slice(2)}${rest}`)) : tlv(0x18, Buffer.from(`${y}${rest}`));
}

export function parseTime(n: DerNode): number {
  const s = n.body.toString('latin1');
  const full = n.tag === 0x17 ? `${Number(s.slice(0, 2)) >= 50 ? '19' : '20'}${s}` : s;
  return Date.UTC(Number(full.slice(0, 4)), Number(full.slice(4, 6)) - 1, Number(full.slice(6, 8)), Number(full.slice(8, 10)), Number(full.slice(10, 12)), Number(full.slice(12, 14)));
}

/** DER that ends early or claims more than it holds (a truncated or made-up PEM body). */
export class DerError extends Error {}

/** Parse one TLV at `off`; constructed values get their children. Throws DerError on malformed input. */
export function parse(buf: Buffer, off = 0): DerNode {
  if (off + 2 > buf.length) throw new DerError('truncated DER');
  const tag = buf[off]!;
  let l = buf[off + 1]!;
  let hdr = 2;
  if (l & 0x80) {
    const n = l & 0x7f;
    if (n === 0 || n > 4 || off + 2 + n > buf.length) throw new DerError('bad DER length');
    l = 0;
    for (let i = 0; i < n; i++) l = l * 256 + buf[off + 2 + i]!;
    hdr += n;
  }
  if (off + hdr + l > buf.length) throw new DerError('DER value longer than its input');
  const body = buf.subarray(off + hdr, off + hdr + l);
  const node: DerNode = { tag, body, raw: buf.subarray(off, off + hdr + l) };
  if (tag & 0x20) {
    node.children = [];
    for (let p = 0; p < body.length; ) {
      const child = parse(body, p);
      node.children.push(child);
      p += child.raw.length;
    }
  }
  return node;
}

export function pemDecode(text: string, label = 'CERTIFICATE'): Buffer[] {
  const re = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`, 'g');
  return [...text.matchAll(re)].map((m) => Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64'));
}

export function pemEncode(der: Buffer, label = 'CERTIFICATE'): string {
  const b64 = der.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}
