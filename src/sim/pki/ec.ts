/**
 * NIST P-256 (prime256v1) keys and ECDSA-with-SHA256 signatures, deterministic: the private
 * scalar comes from the session's seeded random source (unlike RSA, an EC key is just a number
 * below the group order, so no pool is needed), and signatures use RFC 6979's deterministic nonce
 * (HMAC-DRBG over the key and the message hash) instead of OpenSSL's random one. The curve
 * arithmetic is node:crypto's (ECDH computes k·G); only the scalar formula s = k⁻¹(z + r·d) mod n
 * (SEC 1 §4.1.3) is done here. Signatures are the DER `Ecdsa-Sig-Value` (RFC 3279 §2.2.3) every
 * verifier, OpenSSL and node:crypto included, reads.
 */
import { createECDH, createHash, createHmac, createPrivateKey, type KeyObject } from 'node:crypto';
import type { Random } from '../../util/random.js';
import { integer, oid, seq } from './der.js';

/** The order n of P-256's base point (SEC 2 §2.4.2). */
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
export const EC_PUBLIC_KEY_OID = '1.2.840.10045.2.1';
export const PRIME256V1_OID = '1.2.840.10045.3.1.7';
export const ECDSA_SHA256_OID = '1.2.840.10045.4.3.2';

const toBig = (b: Buffer): bigint => BigInt(`0x${b.toString('hex') || '0'}`);
const toBytes = (v: bigint): Buffer => Buffer.from(v.toString(16).padStart(64, '0'), 'hex');

function modInverse(a: bigint, m: bigint): bigint {
  let [r0, r1] = [((a % m) + m) % m, m];
  let [s0, s1] = [1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  return ((s0 % m) + m) % m;
}

/** A P-256 private key (SEC 1 "EC PRIVATE KEY" PEM, as `openssl ecparam -genkey -noout` writes it) from `random`. */
export function generateP256Key(random: Random | undefined): KeyObject {
  let d = 0n;
  let round = 0;
  while (d === 0n || d >= N) {
    let v = 0n;
    for (let i = 0; i < 8; i++) v = (v << 32n) | BigInt(random ? random.nextU32() : (0x9e3779b9 * (i + 1 + round * 8)) >>> 0);
    d = v;
    round++;
  }
  return p256KeyFromScalar(d);
}

export function p256KeyFromScalar(d: bigint): KeyObject {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(toBytes(d));
  const pub = ecdh.getPublicKey();
  return createPrivateKey({ key: { kty: 'EC', crv: 'P-256', d: toBytes(d).toString('base64url'), x: pub.subarray(1, 33).toString('base64url'), y: pub.subarray(33, 65).toString('base64url') }, format: 'jwk' });
}

/** RFC 6979 §3.2: the deterministic nonce for private scalar `d` and message hash `h1` (SHA-256). */
function rfc6979Nonce(d: bigint, h1: Buffer): bigint {
  const x = toBytes(d);
  const h = toBytes(toBig(h1) % N);
  let v: Buffer = Buffer.alloc(32, 1);
  let k: Buffer = Buffer.alloc(32, 0);
  const hmac = (key: Buffer, ...parts: Buffer[]): Buffer => createHmac('sha256', key).update(Buffer.concat(parts)).digest();
  k = hmac(k, v, Buffer.from([0]), x, h);
  v = hmac(k, v);
  k = hmac(k, v, Buffer.from([1]), x, h);
  v = hmac(k, v);
  for (;;) {
    v = hmac(k, v);
    const t = toBig(v);
    if (t >= 1n && t < N) return t;
    k = hmac(k, v, Buffer.from([0]));
    v = hmac(k, v);
  }
}

/** ECDSA-with-SHA256 over `data` with a P-256 private key: the DER signature, deterministic (RFC 6979). */
export function ecdsaSignSha256(key: KeyObject, data: Buffer): Buffer {
  const jwk = key.export({ format: 'jwk' });
  const d = toBig(Buffer.from(jwk.d ?? '', 'base64url'));
  const hash = createHash('sha256').update(data).digest();
  const z = toBig(hash);
  for (let extra = 0; ; extra++) {
    const k = rfc6979Nonce(d, extra ? createHash('sha256').update(hash).update(String(extra)).digest() : hash);
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(toBytes(k));
    const r = toBig(ecdh.getPublicKey().subarray(1, 33)) % N;
    if (r === 0n) continue;
    const s = (modInverse(k, N) * ((z + r * d) % N)) % N;
    if (s === 0n) continue;
    return seq(integer(r), integer(s));
  }
}

/** The AlgorithmIdentifier of ecdsa-with-SHA256 (RFC 5758 §3.2: no parameters). */
export function ecdsaSha256Algorithm(): Buffer {
  return seq(oid(ECDSA_SHA256_OID));
}
