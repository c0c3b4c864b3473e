/**
 * PKCS#10 certificate signing requests (RFC 2986) as `openssl req -new` writes them (subject
 * RDNs in the order given, UTF8String values, an empty attribute set, sha256WithRSAEncryption),
 * and the version-1 certificate `openssl x509 -req` (OpenSSL 3.0, no extension file) makes
 * from one.
 */
import { createPublicKey, verify } from 'node:crypto';
import { bitString, integer, oid, oidString, parse, pemDecode, pemEncode, seq, set, time, tlv } from './der.js';
import { extensionFields, parseExtensions, publicKeyDer, publicKeyFields, type Extension, type ExtensionFields, type NameAttr, type ParsedCert } from './x509.js';
import { signSha256, signatureAlgorithm } from './sign.js';

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
  return pemEncode(seq(info, signatureAlgorithm(keyPem), bitString(signSha256(keyPem, info))), 'CERTIFICATE REQUEST');
}

export interface ParsedCsr extends ExtensionFields, Pick<ParsedCert, 'publicKeyAlgorithm' | 'modulus' | 'exponent' | 'ecPoint' | 'curve'> {
  version: number;
  subject: NameAttr[];
  subjectDer: Buffer;
  spki: Buffer;
  /** The request's self-signature verifies with its own public key. */
  signatureOk: boolean;
  signatureAlgorithm: string;
  signature: Buffer;
  /** How many attributes the request carries (0: OpenSSL prints `(none)`). */
  attributeCount: number;
  /** The extensions of its extensionRequest attribute. */
  extensions: Extension[];
}

const EXTENSION_REQUEST = '1.2.840.113549.1.9.14';

export function parseCsrDer(der: Buffer): ParsedCsr | undefined {
  try {
    const root = parse(der);
    const [info, algN, sig] = root.children!;
    const f = info!.children!;
    const attrs = f[3]?.tag === 0xa0 ? (f[3].children ?? []) : [];
    const extReq = attrs.find((a) => oidString(a.children![0]!.body) === EXTENSION_REQUEST);
    const extensions = extReq?.children?.[1]?.children?.[0] ? parseExtensions(extReq.children[1].children[0]) : [];
    const subjectN = f[1]!;
    const spki = f[2]!.raw;
    let signatureOk = false;
    try {
      signatureOk = verify('sha256', info!.raw, createPublicKey({ key: spki, format: 'der', type: 'spki' }), sig!.body.subarray(1));
    } catch {
      signatureOk = false;
    }
    const subject = (subjectN.children ?? []).flatMap((rdn) => (rdn.children ?? []).map((atv) => [OID_NAMES[oidString(atv.children![0]!.body)] ?? oidString(atv.children![0]!.body), atv.children![1]!.body.toString('utf8')] as NameAttr));
    return {
      version: Number(f[0]!.body[0] ?? 0) + 1,
      subject,
      subjectDer: subjectN.raw,
      spki,
      signatureOk,
      signatureAlgorithm: oidString(algN!.children![0]!.body),
      signature: sig!.body.subarray(1),
      attributeCount: attrs.length,
      extensions,
      ...publicKeyFields(f[2]!),
      ...extensionFields(extensions),
    };
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
  const algo = signatureAlgorithm(caKeyPem);
  const tbs = seq(integer(serial), algo, ca.issuerDerOfSubject, seq(time(notBefore), time(notAfter)), csr.subjectDer, csr.spki);
  return pemEncode(seq(tbs, algo, bitString(signSha256(caKeyPem, tbs))));
}


