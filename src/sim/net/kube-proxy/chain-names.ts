/**
 * kube-proxy's per-service and per-endpoint chain names.
 *
 * Emulates kubernetes pkg/proxy/iptables/proxier.go: portProtoHash (sha256 of
 * servicePortName + lower-case protocol [+ endpoint], base32 StdEncoding, first 16 characters),
 * servicePortPolicyClusterChain (KUBE-SVC-), servicePortPolicyLocalChainName (KUBE-SVL-),
 * serviceExternalChainName (KUBE-EXT-), serviceFirewallChainName (KUBE-FW-),
 * servicePortEndpointChainName (KUBE-SEP-). servicePortName is pkg/proxy/types.go
 * ServicePortName.String(): `ns/name` plus `:port` only when the port has a name.
 */
import * as nodeCrypto from 'node:crypto';
import { ChainRef } from '../restore.js';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (no padding needed: 16 characters come from the first 10 bytes). */
function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = ((value << 8) | b) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31] ?? '';
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31] ?? '';
  return out;
}

/** base32(sha256(s)) by node's crypto, the hash both proxiers put in chain names (the reference the names below are checked against). */
export function sha256Base32(s: string): string {
  return base32(nodeCrypto.createHash('sha256').update(s, 'utf8').digest());
}

/**
 * The names are computed once per service port and endpoint and kept, as the proxier keeps them
 * in its servicePortInfo and endpointInfo (a sha256 per rule was a fifth of a sync); the memo is
 * emptied when it grows past what a large cluster holds.
 */
const HASH16 = new Map<string, string>();
const HASH16_LIMIT = 200_000;

export function hash16(s: string): string {
  let h = HASH16.get(s);
  if (h === undefined) {
    if (HASH16.size >= HASH16_LIMIT) HASH16.clear();
    h = hashedName(HASH16_CODES, s);
    HASH16.set(s, h);
  }
  return h;
}

/** The character codes of a name without prefix (hash16), reused. */
const HASH16_CODES = new Array<number>(16).fill(0);

/**
 * SHA-256 (FIPS 180-4) of an ASCII string, computed here: the chain names of a cold sync of a
 * 10,000-Service cluster are 60,000 hashes of 30–60 bytes, and node's crypto.hash took a few
 * microseconds for each (the call into the library and a Buffer per digest, which the garbage
 * collector then had to trace), three times what these few dozen integer operations take. The
 * digest's words are left in H; only the first 80 bits are read (base32First16).
 */
const K = Int32Array.of(
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
);
const IV = Int32Array.of(0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19);
const W = new Int32Array(64);
const H = new Int32Array(8);

/** One 64-byte block (W[0..15]) into H. */
function compress(): void {
  for (let i = 16; i < 64; i++) {
    const x = W[i - 15] as number;
    const y = W[i - 2] as number;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    W[i] = ((W[i - 16] as number) + s0 + (W[i - 7] as number) + s1) | 0;
  }
  let a = H[0] as number;
  let b = H[1] as number;
  let c = H[2] as number;
  let d = H[3] as number;
  let e = H[4] as number;
  let f = H[5] as number;
  let g = H[6] as number;
  let h = H[7] as number;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + (K[i] as number) + (W[i] as number)) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  H[0] = ((H[0] as number) + a) | 0;
  H[1] = ((H[1] as number) + b) | 0;
  H[2] = ((H[2] as number) + c) | 0;
  H[3] = ((H[3] as number) + d) | 0;
  H[4] = ((H[4] as number) + e) | 0;
  H[5] = ((H[5] as number) + f) | 0;
  H[6] = ((H[6] as number) + g) | 0;
  H[7] = ((H[7] as number) + h) | 0;
}

/** H = sha256 of `s`'s bytes when every character is ASCII (one byte each in UTF-8); false, H unset, otherwise. */
function sha256Ascii(s: string): boolean {
  const n = s.length;
  for (let i = 0; i < n; i++) if (s.charCodeAt(i) > 0x7f) return false;
  H.set(IV);
  // the message, 0x80, zeros, and its length in bits as the last 64 bits of the last block
  const blocks = (n + 9 + 63) >>> 6;
  for (let blk = 0, off = 0; blk < blocks; blk++, off += 64) {
    for (let w = 0; w < 16; w++) {
      let v = 0;
      for (let k = 0, i = off + w * 4; k < 4; k++, i++) v = (v << 8) | (i < n ? s.charCodeAt(i) : i === n ? 0x80 : 0);
      W[w] = v;
    }
    if (blk === blocks - 1) {
      W[14] = Math.floor(n / 0x20000000);
      W[15] = (n * 8) | 0;
    }
    compress();
  }
  return true;
}

/** H from node's digest, for a string that is not ASCII (UTF-8 bytes). */
function sha256Utf8(s: string): void {
  const b = nodeCrypto.createHash('sha256').update(s, 'utf8').digest();
  for (let i = 0; i < 8; i++) H[i] = b.readInt32BE(i * 4);
}

const BASE32_CODES = Array.from(BASE32, (c) => c.charCodeAt(0));

/**
 * `codes` (a prefix's character codes, then 16 places) filled with base32(sha256(input)).slice(0, 16)
 * — the 80 bits of the digest's first 10 bytes, 5 bits a character — and made one flat string.
 */
function hashedName(codes: number[], input: string): string {
  if (!sha256Ascii(input)) sha256Utf8(input);
  const at = codes.length - 16;
  for (let j = 0, p = 0; j < 16; j++, p += 5) {
    const w = p >>> 5;
    const o = p & 31;
    const hi = H[w] as number;
    const v = o <= 27 ? hi >>> (27 - o) : (hi << (o - 27)) | ((H[w + 1] as number) >>> (59 - o));
    codes[at + j] = BASE32_CODES[v & 31] as number;
  }
  return String.fromCharCode.apply(null, codes);
}

/**
 * The chains named, by prefix and hash input: each name one string object, made once (not at each
 * render of its Service on each node) and flat, with its ref (restore.ts ChainRef). The restore's
 * chain index keys a chain by the name it was declared with, and a lookup with that very string
 * compares nothing; kube-proxy declares and jumps to its chains with the names and refs from
 * here, and finding the ref of each of 60,000 names again at a render was a tenth of a cold sync's.
 */
const NAMES = new Map<string, Map<string, ChainRef>>();
/** Per prefix: its character codes and 16 places for the hash's (hashedName), reused. */
const PREFIX_CODES = new Map<string, number[]>();

function chainName(prefix: string, input: string): string {
  return chainRefOf(prefix, input).name;
}

function chainRefOf(prefix: string, input: string): ChainRef {
  let m = NAMES.get(prefix);
  if (!m) NAMES.set(prefix, (m = new Map()));
  let r = m.get(input);
  if (r === undefined) {
    if (m.size >= HASH16_LIMIT) m.clear();
    let codes = PREFIX_CODES.get(prefix);
    if (!codes) PREFIX_CODES.set(prefix, (codes = [...Array.from(prefix, (c) => c.charCodeAt(0)), ...new Array<number>(16).fill(0)]));
    // (a ref of its own, not restore.ts chainRef's: refs of one name need not be one object, and
    // registering 60,000 names there too was as much again)
    r = new ChainRef(hashedName(codes, input));
    m.set(input, r);
  }
  return r;
}

/** `ns/name` or `ns/name:port`. */
export function servicePortName(namespace: string, name: string, portName: string): string {
  return `${namespace}/${name}${portName !== '' ? `:${portName}` : ''}`;
}

/** The shared hash of KUBE-SVC-/SVL-/EXT-/FW- for a service port; protocol e.g. "TCP" or "tcp". */
export function servicePortHash(spn: string, protocol: string): string {
  return hash16(spn + protocol.toLowerCase());
}

export function serviceChainName(spn: string, protocol: string): string {
  return chainName('KUBE-SVC-', spn + protocol.toLowerCase());
}

/** serviceChainName's ref. */
export function serviceChainRef(spn: string, protocol: string): ChainRef {
  return chainRefOf('KUBE-SVC-', spn + protocol.toLowerCase());
}

export function serviceLocalChainName(spn: string, protocol: string): string {
  return chainName('KUBE-SVL-', spn + protocol.toLowerCase());
}

export function externalChainName(spn: string, protocol: string): string {
  return chainName('KUBE-EXT-', spn + protocol.toLowerCase());
}

export function firewallChainName(spn: string, protocol: string): string {
  return chainName('KUBE-FW-', spn + protocol.toLowerCase());
}

/** `ip:port` as net.JoinHostPort writes it (IPv6 in brackets). */
export function joinHostPort(ip: string, port: number): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** KUBE-SEP- for an endpoint `ip:port` (the target port) of a service port. */
export function endpointChainName(spn: string, protocol: string, endpoint: string): string {
  return chainName('KUBE-SEP-', spn + protocol.toLowerCase() + endpoint);
}

/** endpointChainName's ref. */
export function endpointChainRef(spn: string, protocol: string, endpoint: string): ChainRef {
  return chainRefOf('KUBE-SEP-', spn + protocol.toLowerCase() + endpoint);
}
