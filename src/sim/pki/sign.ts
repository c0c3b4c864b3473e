/**
 * Signing with whichever key a certificate or request is signed with: RSA keys sign
 * sha256WithRSAEncryption (PKCS#1 v1.5, deterministic by construction), P-256 keys
 * ecdsa-with-SHA256 and P-384 keys ecdsa-with-SHA384 (ec.ts: deterministic nonces, so the same session gives the same bytes). The
 * AlgorithmIdentifier goes inside the signed bytes as well as after them, so it is asked for first.
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { nul, oid, seq } from './der.js';
import { ecdsaAlgorithm, ecdsaSign } from './ec.js';

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
    if (KEYS.size >= 16) KEYS.delete(KEYS.keys().next().value!);
    KEYS.set(keyPem, key);
  }
  return key;
}

/** The signature AlgorithmIdentifier a signature by this private key carries. */
export function signatureAlgorithm(keyPem: string | KeyObject): Buffer {
  return keyOf(keyPem).asymmetricKeyType === 'ec' ? ecdsaAlgorithm(keyOf(keyPem)) : seq(oid(SHA256_RSA_OID), nul());
}

/** The signature of `data` by this private key (RSA PKCS#1 v1.5 SHA-256, or ECDSA DER with the curve's hash). */
export function signSha256(keyPem: string | KeyObject, data: Buffer): Buffer {
  const key = keyOf(keyPem);
  return key.asymmetricKeyType === 'ec' ? ecdsaSign(key, data) : sign('sha256', data, key);
}
