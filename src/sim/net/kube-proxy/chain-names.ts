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

/**
 * crypto.hash, the one-shot digest of Node 20.12 and later, when there (a sha256 per Service and
 * endpoint of a cold sync: the Hash object createHash makes was half of each); the same bytes.
 */
const oneShot = (nodeCrypto as { hash?: (algorithm: string, data: string, encoding: 'buffer') => Buffer }).hash;

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

/** base32(sha256(s)), the hash both proxiers put in chain names. */
export function sha256Base32(s: string): string {
  return base32(oneShot ? oneShot('sha256', s, 'buffer') : nodeCrypto.createHash('sha256').update(s, 'utf8').digest());
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
    h = hash16Of(s);
    HASH16.set(s, h);
  }
  return h;
}

function hash16Of(s: string): string {
  fillFirst16(digest(s));
  return String.fromCharCode(...FIRST16);
}

function digest(s: string): Uint8Array {
  return oneShot ? oneShot('sha256', s, 'buffer') : nodeCrypto.createHash('sha256').update(s, 'utf8').digest();
}

/**
 * The chains named, by prefix and hash input: each name one string object, made once (not at each
 * render of its Service on each node) and flat, with its ref (restore.ts ChainRef). The restore's
 * chain index keys a chain by the name it was declared with, and a lookup with that very string
 * compares nothing; kube-proxy declares and jumps to its chains with the names and refs from
 * here, and finding the ref of each of 60,000 names again at a render was a tenth of a cold sync's.
 */
const NAMES = new Map<string, Map<string, ChainRef>>();
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
    if (!codes) PREFIX_CODES.set(prefix, (codes = Array.from(prefix, (c) => c.charCodeAt(0))));
    fillFirst16(digest(input));
    // (a ref of its own, not restore.ts chainRef's: refs of one name need not be one object, and
    // registering 60,000 names there too was as much again)
    r = new ChainRef(String.fromCharCode(...codes, ...FIRST16));
    m.set(input, r);
  }
  return r;
}

const BASE32_CODES = Array.from(BASE32, (c) => c.charCodeAt(0));
/** The character codes of base32First16, reused (String.fromCharCode reads them at once). */
const FIRST16 = new Array<number>(16).fill(0);

/**
 * Fills FIRST16 with base32(bytes).slice(0, 16): the 80 bits of the first 10 bytes, 5 bits a character, as one flat
 * string. A cold sync of a 10,000-Service cluster names 60,000 chains, and encoding all 32 bytes a
 * character at a time (each `+=` a new piece of a string tree) to keep 16 was a tenth of its render.
 */
function fillFirst16(b: Uint8Array): void {
  const c = BASE32_CODES;
  for (let i = 0, k = 0; i < 10; i += 5, k += 8) {
    const b0 = b[i] as number;
    const b1 = b[i + 1] as number;
    const b2 = b[i + 2] as number;
    const b3 = b[i + 3] as number;
    const b4 = b[i + 4] as number;
    FIRST16[k] = c[b0 >> 3] as number;
    FIRST16[k + 1] = c[((b0 & 7) << 2) | (b1 >> 6)] as number;
    FIRST16[k + 2] = c[(b1 >> 1) & 31] as number;
    FIRST16[k + 3] = c[((b1 & 1) << 4) | (b2 >> 4)] as number;
    FIRST16[k + 4] = c[((b2 & 15) << 1) | (b3 >> 7)] as number;
    FIRST16[k + 5] = c[(b3 >> 2) & 31] as number;
    FIRST16[k + 6] = c[((b3 & 3) << 3) | (b4 >> 5)] as number;
    FIRST16[k + 7] = c[b4 & 31] as number;
  }
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
