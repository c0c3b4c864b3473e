/**
 * Signing with whichever key a certificate or request is signed with: RSA keys sign
 * sha256WithRSAEncryption (PKCS#1 v1.5, deterministic by construction), P-256 keys
 * ecdsa-with-SHA256 and P-384 keys ecdsa-with-SHA384 (ec.ts: deterministic nonces, so the same session gives the same bytes). The
 * AlgorithmIdentifier goes inside the signed bytes as well as after them, so it is asked for first.
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { nul, oid, seq } from './der.js';
import { ecdsaAlgorithm, ecdsaSign } from './ec.js';
import { remember } from '../../util/bounded-map.js';

export const SHA256_RSA_OID = '1.2.840.113549.1.1.11';

/**
 * Imported keys by their PEM text, a few at a time: importing is pure and costs about a
 * millisecond, and a cluster's certificates are signed by its few CA keys over and over (every
 * fixture build, kubeadm phase and renewal; a KeyObject cannot be changed).
 */
const KEYS = new Map<string, KeyObject>();

function keyOf(keyPem: string | KeyObject): KeyObject {
  if (typeof keyPem !== 'string') return keyPem;
  let key = KEYS.get(keyPem);
  if (!key) {
    key = createPrivateKey(keyPem);
    remember(KEYS, keyPem, key, 16);
  }
  return key;
}

/** The signature AlgorithmIdentifier a signature by this private key carries. */
export function signatureAlgorithm(keyPem: string | KeyObject): Buffer {
  return keyOf(keyPem).asymmetricKeyType === 'ec' ? ecdsaAlgorithm(keyOf(keyPem)) : seq(oid(SHA256_RSA_OID), nul());
}

/**
 * Signatures by the signing key's PEM text, then by the signed bytes. Both algorithms are pure
 * functions of the key and the bytes (PKCS#1 v1.5 by construction, ECDSA by ec.ts's RFC 6979
 * nonces), and the same certificates are signed again and again: every fixture build signs its
 * cluster CA for each node file that embeds it, and every copy of a session that runs `kubeadm
 * certs renew` at the same simulated time signs the same to-be-signed bytes (validate's solution,
 * alternatives and mutations). An RSA signature costs about a millisecond. Bounded per key and in
 * keys; a hit gives a copy, so no caller can change what the memo holds.
 */
const SIGNATURES = new Map<string, Map<string, Buffer>>();
const SIGNATURE_KEYS = 16;
const SIGNATURES_PER_KEY = 512;
let computed = 0;

/** How many signatures this process has computed rather than remembered (tests). */
export function signaturesComputed(): number {
  return computed;
}

/** The signature of `data` by this private key (RSA PKCS#1 v1.5 SHA-256, or ECDSA DER with the curve's hash). */
export function signSha256(keyPem: string | KeyObject, data: Buffer): Buffer {
  if (typeof keyPem !== 'string') return signNow(keyOf(keyPem), data);
  let byData = SIGNATURES.get(keyPem);
  if (!byData) {
    remember(SIGNATURES, keyPem, (byData = new Map()), SIGNATURE_KEYS);
  }
  // the bytes themselves are the key (latin1 maps each byte to one char): no digest stands in for them
  const k = data.toString('latin1');
  let sig = byData.get(k);
  if (!sig) {
    sig = signNow(keyOf(keyPem), data);
    remember(byData, k, sig, SIGNATURES_PER_KEY);
  }
  return Buffer.from(sig);
}

function signNow(key: KeyObject, data: Buffer): Buffer {
  computed++;
  return key.asymmetricKeyType === 'ec' ? ecdsaSign(key, data) : sign('sha256', data, key);
}
