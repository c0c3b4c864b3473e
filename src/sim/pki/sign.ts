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

function keyOf(keyPem: string | KeyObject): KeyObject {
  return typeof keyPem === 'string' ? createPrivateKey(keyPem) : keyPem;
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
