/**
 * NIST P-256 (prime256v1) and P-384 (secp384r1) keys and ECDSA-with-SHA256/SHA384 signatures, deterministic: the private
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

export const EC_PUBLIC_KEY_OID = '1.2.840.10045.2.1';
export const PRIME256V1_OID = '1.2.840.10045.3.1.7';
export const SECP384R1_OID = '1.3.132.0.34';
export const ECDSA_SHA256_OID = '1.2.840.10045.4.3.2';
export const ECDSA_SHA384_OID = '1.2.840.10045.4.3.3';

/**
 * A curve the lab makes keys on: its order n (SEC 2 §2.4.2, §2.5.1), field width in bytes, and the
 * hash a signature by such a key uses, as Go's crypto/x509 picks it for a certificate
 * (signingParamsForKey: P-256 → ecdsa-with-SHA256, P-384 → ecdsa-with-SHA384).
 */
interface Curve {
  crv: 'P-256' | 'P-384';
  ecdh: string;
  n: bigint;
  bytes: number;
  hash: 'sha256' | 'sha384';
  sigOid: string;
}
const P256: Curve = { crv: 'P-256', ecdh: 'prime256v1', n: 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n, bytes: 32, hash: 'sha256', sigOid: ECDSA_SHA256_OID };
const P384: Curve = {
  crv: 'P-384',
  ecdh: 'secp384r1',
  n: 0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973n,
  bytes: 48,
  hash: 'sha384',
  sigOid: ECDSA_SHA384_OID,
};

const toBig = (b: Buffer): bigint => BigInt(`0x${b.toString('hex') || '0'}`);
const toBytes = (v: bigint, len: number): Buffer => Buffer.from(v.toString(16).padStart(len * 2, '0'), 'hex');

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

/** A private scalar below the curve's order from `random` (32-bit words, redrawn when out of range). */
function scalar(curve: Curve, random: Random | undefined): bigint {
  let d = 0n;
  let round = 0;
  const words = curve.bytes / 4;
  while (d === 0n || d >= curve.n) {
    let v = 0n;
    for (let i = 0; i < words; i++) v = (v << 32n) | BigInt(random ? random.nextU32() : (0x9e3779b9 * (i + 1 + round * words)) >>> 0);
    d = v;
    round++;
  }
  return d;
}

/** A P-256 private key (SEC 1 "EC PRIVATE KEY" PEM, as `openssl ecparam -genkey -noout` writes it) from `random`. */
export function generateP256Key(random: Random | undefined): KeyObject {
  return p256KeyFromScalar(scalar(P256, random));
}

/** A P-384 (secp384r1) private key from `random`: kubeadm's encryptionAlgorithm ECDSA-P384. */
export function generateP384Key(random: Random | undefined): KeyObject {
  return ecKeyFromScalar(P384, scalar(P384, random));
}

export function p256KeyFromScalar(d: bigint): KeyObject {
  return ecKeyFromScalar(P256, d);
}

export function p384KeyFromScalar(d: bigint): KeyObject {
  return ecKeyFromScalar(P384, d);
}

function ecKeyFromScalar(curve: Curve, d: bigint): KeyObject {
  const ecdh = createECDH(curve.ecdh);
  ecdh.setPrivateKey(toBytes(d, curve.bytes));
  const pub = ecdh.getPublicKey();
  const b64 = (b: Buffer): string => b.toString('base64url');
  return createPrivateKey({ key: { kty: 'EC', crv: curve.crv, d: b64(toBytes(d, curve.bytes)), x: b64(pub.subarray(1, 1 + curve.bytes)), y: b64(pub.subarray(1 + curve.bytes)) }, format: 'jwk' });
}

/**
 * RFC 6979 §3.2: the deterministic nonce for private scalar `d` and message hash `h1`, with HMAC
 * over the curve's hash (whose length equals the field width for both curves, so one block of V
 * gives a candidate).
 */
function rfc6979Nonce(curve: Curve, d: bigint, h1: Buffer): bigint {
  const x = toBytes(d, curve.bytes);
  const h = toBytes(toBig(h1) % curve.n, curve.bytes);
  const hlen = curve.bytes;
  let v: Buffer = Buffer.alloc(hlen, 1);
  let k: Buffer = Buffer.alloc(hlen, 0);
  const hmac = (key: Buffer, ...parts: Buffer[]): Buffer => createHmac(curve.hash, key).update(Buffer.concat(parts)).digest();
  k = hmac(k, v, Buffer.from([0]), x, h);
  v = hmac(k, v);
  k = hmac(k, v, Buffer.from([1]), x, h);
  v = hmac(k, v);
  for (;;) {
    v = hmac(k, v);
    const t = toBig(v);
    if (t >= 1n && t < curve.n) return t;
    k = hmac(k, v, Buffer.from([0]));
    v = hmac(k, v);
  }
}

function curveOf(key: KeyObject): Curve {
  return key.export({ format: 'jwk' }).crv === 'P-384' ? P384 : P256;
}

/** ECDSA over `data` with a P-256 (SHA-256) or P-384 (SHA-384) private key: the DER signature, deterministic (RFC 6979). */
export function ecdsaSign(key: KeyObject, data: Buffer): Buffer {
  const curve = curveOf(key);
  const jwk = key.export({ format: 'jwk' });
  const d = toBig(Buffer.from(jwk.d ?? '', 'base64url'));
  const hash = createHash(curve.hash).update(data).digest();
  const z = toBig(hash);
  for (let extra = 0; ; extra++) {
    const k = rfc6979Nonce(curve, d, extra ? createHash(curve.hash).update(hash).update(String(extra)).digest() : hash);
    const ecdh = createECDH(curve.ecdh);
    ecdh.setPrivateKey(toBytes(k, curve.bytes));
    const r = toBig(ecdh.getPublicKey().subarray(1, 1 + curve.bytes)) % curve.n;
    if (r === 0n) continue;
    const s = (modInverse(k, curve.n) * ((z + r * d) % curve.n)) % curve.n;
    if (s === 0n) continue;
    return seq(integer(r), integer(s));
  }
}

/** ECDSA-with-SHA256 over `data` with a P-256 private key (ecdsaSign's P-256 case). */
export function ecdsaSignSha256(key: KeyObject, data: Buffer): Buffer {
  return ecdsaSign(key, data);
}

/** The AlgorithmIdentifier of a signature by this EC key (RFC 5758 §3.2: no parameters). */
export function ecdsaAlgorithm(key: KeyObject): Buffer {
  return seq(oid(curveOf(key).sigOid));
}

/** The AlgorithmIdentifier of ecdsa-with-SHA256. */
export function ecdsaSha256Algorithm(): Buffer {
  return seq(oid(ECDSA_SHA256_OID));
}
