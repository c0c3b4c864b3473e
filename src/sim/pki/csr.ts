/**
 * PKCS#10 certificate signing requests (RFC 2986) as `openssl req -new` writes them (subject
 * RDNs in the order given, UTF8String values, an empty attribute set, sha256WithRSAEncryption),
 * and the version-1 certificate `openssl x509 -req` (OpenSSL 3.0, no extension file) makes
 * from one.
 */
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { bitString, integer, nul, oid, oidString, parse, pemDecode, pemEncode, seq, set, time, tlv } from './der.js';
import { publicKeyDer, type NameAttr, type ParsedCert } from './x509.js';

const SHA256_RSA = '1.2.840.113549.1.1.11';
const NAME_OIDS: Record<string, string> = { C: '2.5.4.6', ST: '2.5.4.8', L: '2.5.4.7', O: '2.5.4.10', OU: '2.5.4.11', CN: '2.5.4.3' };
const OID_NAMES = Object.fromEntries(Object.entries(NAME_OIDS).map(([k, v]) => [v, k]));

/**
 * A Name in the order given, every value a UTF8String (OpenSSL's default string_mask utf8only)
 * except countryName, which crypto/asn1/a_strnid.c's string table restricts to PrintableString.
 */
export function encodeNameInOrder(name: readonly NameAttr[]): Buffer {
  return seq(...name.map(([t, v]) => set(seq(oid(NAME_OIDS[t]!), tlv(t === 'C' ? 0x13 : 0x0c, Buffer.from(v, 'utf8'))))));
}

/** A request for `subject` signed with `keyPem`; `attributes` are the encoded Attribute SEQUENCEs (an extensionRequest for -addext). */
export function createCsr(subject: readonly NameAttr[], keyPem: string, attributes: readonly Buffer[] = []): string {
  const info = seq(integer(0n), encodeNameInOrder(subject), publicKeyDer(keyPem), tlv(0xa0, Buffer.concat(attributes)));
  const algo = seq(oid(SHA256_RSA), nul());
  return pemEncode(seq(info, algo, bitString(sign('sha256', info, createPrivateKey(keyPem)))), 'CERTIFICATE REQUEST');
}

export interface ParsedCsr {
  subject: NameAttr[];
  subjectDer: Buffer;
  spki: Buffer;
  /** The request's self-signature verifies with its own public key. */
  signatureOk: boolean;
}

export function parseCsrDer(der: Buffer): ParsedCsr | undefined {
  try {
    const root = parse(der);
    const [info, , sig] = root.children!;
    const f = info!.children!;
    const subjectN = f[1]!;
    const spki = f[2]!.raw;
    let signatureOk = false;
    try {
      signatureOk = verify('sha256', info!.raw, createPublicKey({ key: spki, format: 'der', type: 'spki' }), sig!.body.subarray(1));
    } catch {
      signatureOk = false;
    }
    const subject = (subjectN.children ?? []).flatMap((rdn) => (rdn.children ?? []).map((atv) => [OID_NAMES[oidString(atv.children![0]!.body)] ?? oidString(atv.children![0]!.body), atv.children![1]!.body.toString('utf8')] as NameAttr));
    return { subject, subjectDer: subjectN.raw, spki, signatureOk };
  } catch {
    return undefined;
  }
}

/** The first CERTIFICATE REQUEST block of a PEM text. */
export function parseCsrPem(text: string): ParsedCsr | undefined {
  const der = pemDecode(text, 'CERTIFICATE REQUEST')[0];
  return der ? parseCsrDer(der) : undefined;
}

/** `openssl x509 -req`: a v1 certificate for the request's subject and key, signed by the CA. */
export function signV1(csr: ParsedCsr, ca: ParsedCert, caKeyPem: string, serial: bigint, notBefore: number, notAfter: number): string {
  const algo = seq(oid(SHA256_RSA), nul());
  const tbs = seq(integer(serial), algo, ca.issuerDerOfSubject, seq(time(notBefore), time(notAfter)), csr.subjectDer, csr.spki);
  return pemEncode(seq(tbs, algo, bitString(sign('sha256', tbs, createPrivateKey(caKeyPem)))));
}


