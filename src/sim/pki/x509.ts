/**
 * Real X.509 certificates, written and read with node:crypto (RSA keys, PKCS#1 v1.5 SHA-256
 * signatures) and the DER subset in der.ts. Certificates are built the way Go's crypto/x509
 * CreateCertificate lays them out (extension order, SKI only on CAs, AKI from the issuer's SKI),
 * since every certificate of a kubeadm cluster comes from it.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { bitString, bool, explicit, integer, octets, oid, oidString, parse, parseTime, pemDecode, pemEncode, seq, set, time, tlv, type DerNode } from './der.js';
import { ECDSA_SHA256_OID, ECDSA_SHA384_OID, EC_PUBLIC_KEY_OID, PRIME256V1_OID, SECP384R1_OID } from './ec.js';
import { SHA256_RSA_OID as SHA256_RSA, signSha256, signatureAlgorithm } from './sign.js';
import { remember } from '../../util/bounded-map.js';

export type NameAttr = ['C' | 'ST' | 'L' | 'O' | 'OU' | 'CN', string];

const NAME_OIDS: Record<string, string> = { C: '2.5.4.6', ST: '2.5.4.8', L: '2.5.4.7', O: '2.5.4.10', OU: '2.5.4.11', CN: '2.5.4.3' };
const OID_NAMES = Object.fromEntries(Object.entries(NAME_OIDS).map(([k, v]) => [v, k]));
const RSA = '1.2.840.113549.1.1.1';

export const EXT = {
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  basicConstraints: '2.5.29.19',
  ski: '2.5.29.14',
  aki: '2.5.29.35',
  san: '2.5.29.17',
} as const;

export const EKU = { serverAuth: '1.3.6.1.5.5.7.3.1', clientAuth: '1.3.6.1.5.5.7.3.2' } as const;

/** Key usage bits (RFC 5280 4.2.1.3), in bit order. */
export const KEY_USAGES = ['digitalSignature', 'contentCommitment', 'keyEncipherment', 'dataEncipherment', 'keyAgreement', 'keyCertSign', 'cRLSign', 'encipherOnly', 'decipherOnly'] as const;
export type KeyUsage = (typeof KEY_USAGES)[number];

export interface CertTemplate {
  serial: bigint;
  subject: NameAttr[];
  notBefore: number;
  notAfter: number;
  isCA: boolean;
  keyUsage: KeyUsage[];
  extKeyUsage: (keyof typeof EKU)[];
  dnsNames?: string[];
  ips?: string[];
}

/** Go's pkix.Name.ToRDNSequence order: C, ST, L, O, OU, CN, each in its own RDN. */
function encodeName(name: NameAttr[]): Buffer {
  const order = ['C', 'ST', 'L', 'O', 'OU', 'CN'];
  const sorted = [...name].sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]));
  return seq(...sorted.map(([t, v]) => set(seq(oid(NAME_OIDS[t]!), /^[A-Za-z0-9 '()+,\-./:=?]*$/.test(v) ? tlv(0x13, Buffer.from(v)) : tlv(0x0c, Buffer.from(v, 'utf8'))))));
}

function keyUsageBits(usages: readonly KeyUsage[]): Buffer {
  let bits = 0;
  for (const u of usages) bits |= 1 << KEY_USAGES.indexOf(u);
  // Go's asn1 BitString: bytes for the highest set bit, unused trailing bits counted
  const n = bits === 0 ? 0 : 32 - Math.clz32(bits);
  const bytes = Math.ceil(n / 8);
  const out = Buffer.alloc(bytes);
  for (let i = 0; i < n; i++) if (bits & (1 << i)) out[i >> 3]! |= 0x80 >> (i & 7);
  let unused = bytes * 8 - n;
  // trailing zero bits after the last set bit
  for (let i = n - 1; i >= 0 && !(bits & (1 << i)); i--) unused++;
  return tlv(0x03, Buffer.concat([Buffer.from([unused]), out]));
}

function ext(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));
}

function ipBytes(ip: string): Buffer {
  if (ip.includes(':')) {
    const [head, tail] = ip.split('::') as [string, string | undefined];
    const h = head ? head.split(':') : [];
    const t = tail !== undefined && tail !== '' ? tail.split(':') : [];
    const groups = tail !== undefined ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
    return Buffer.from(groups.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]));
  }
  return Buffer.from(ip.split('.').map(Number));
}

/** sha1 of the public key's bit string, as Go derives a CA's SubjectKeyId. */
export function subjectKeyId(spkiDer: Buffer): Buffer {
  const spki = parse(spkiDer);
  const bits = spki.children![1]!.body.subarray(1);
  return createHash('sha1').update(bits).digest();
}

export function publicKeyDer(keyPem: string): Buffer {
  let der = SPKI.get(keyPem);
  if (!der) {
    der = createPublicKey(keyPem).export({ type: 'spki', format: 'der' });
    remember(SPKI, keyPem, der, 64);
  }
  return Buffer.from(der);
}

/**
 * publicKeyDer by key text (a bounded memo; each caller gets its own copy of the bytes): importing
 * a key costs a fraction of a millisecond, and every etcd client connection (kubectl's, the API
 * server's) checks its key pair against its certificate again.
 */
const SPKI = new Map<string, Buffer>();

/** Build and sign a certificate; `issuer` absent means self-signed with `key`. Returns PEM. */
export function createCertificate(t: CertTemplate, subjectKeyPem: string, issuer?: { cert: ParsedCert; keyPem: string }): string {
  const spki = publicKeyDer(subjectKeyPem);
  const signKey = issuer?.keyPem ?? subjectKeyPem;
  const exts: Buffer[] = [];
  exts.push(ext(EXT.keyUsage, true, keyUsageBits(t.keyUsage)));
  if (t.extKeyUsage.length) exts.push(ext(EXT.extKeyUsage, false, seq(...t.extKeyUsage.map((u) => oid(EKU[u])))));
  exts.push(ext(EXT.basicConstraints, true, t.isCA ? seq(bool(true)) : seq()));
  const ski = t.isCA ? subjectKeyId(spki) : undefined;
  if (ski) exts.push(ext(EXT.ski, false, octets(ski)));
  const aki = issuer?.cert.subjectKeyId;
  if (aki) exts.push(ext(EXT.aki, false, seq(tlv(0x80, aki))));
  const sans = [...(t.dnsNames ?? []).map((d) => tlv(0x82, Buffer.from(d))), ...(t.ips ?? []).map((ip) => tlv(0x87, ipBytes(ip)))];
  if (sans.length) exts.push(ext(EXT.san, false, seq(...sans)));
  const algo = signatureAlgorithm(signKey);
  const tbs = seq(
    explicit(0, integer(2n)),
    integer(t.serial),
    algo,
    issuer ? issuer.cert.issuerDerOfSubject : encodeName(t.subject),
    seq(time(t.notBefore), time(t.notAfter)),
    encodeName(t.subject),
    spki,
    explicit(3, seq(...exts)),
  );
  const sig = signSha256(signKey, tbs);
  return pemEncode(seq(tbs, algo, bitString(sig)));
}

export interface Extension {
  oid: string;
  critical: boolean;
  value: Buffer;
}

export interface ParsedCert {
  der: Buffer;
  version: number;
  serial: bigint;
  serialBytes: Buffer;
  signatureAlgorithm: string;
  issuer: NameAttr[];
  subject: NameAttr[];
  /** The subject Name as encoded (the issuer field of certificates this one signs). */
  issuerDerOfSubject: Buffer;
  issuerDer: Buffer;
  notBefore: number;
  notAfter: number;
  publicKeyAlgorithm: string;
  /** RSA keys: the modulus and exponent (empty and 0 for an EC key). */
  modulus: Buffer;
  exponent: number;
  /** EC keys: the uncompressed point (`04 || X || Y`) and the named curve's OID. */
  ecPoint?: Buffer;
  curve?: string;
  spki: Buffer;
  extensions: Extension[];
  signature: Buffer;
  tbs: Buffer;
  subjectKeyId?: Buffer;
  authorityKeyId?: Buffer;
  isCA: boolean;
  keyUsage: KeyUsage[];
  extKeyUsage: string[];
  dnsNames: string[];
  ips: string[];
  /** Every subjectAltName entry in order, as OpenSSL prints it (`DNS:a`, `IP Address:10.0.0.1`, `email:x@y`, `URI:u`). */
  san: string[];
  /** basicConstraints' pathLenConstraint, when present. */
  pathLen?: number;
}

function parseName(n: DerNode): NameAttr[] {
  return (n.children ?? []).flatMap((rdn) => (rdn.children ?? []).map((atv) => [OID_NAMES[oidString(atv.children![0]!.body)] ?? oidString(atv.children![0]!.body), atv.children![1]!.body.toString('utf8')] as NameAttr));
}

function ipString(b: Buffer): string {
  if (b.length === 4) return [...b].join('.');
  const groups: string[] = [];
  for (let i = 0; i < b.length; i += 2) groups.push(((b[i]! << 8) | b[i + 1]!).toString(16).toUpperCase());
  return groups.join(':');
}

/** A SEQUENCE OF Extension (a certificate's [3] field, a request's extensionRequest). */
export function parseExtensions(list: DerNode): Extension[] {
  return (list.children ?? []).map((e) => {
    const c = e.children!;
    const critical = c.length === 3 && c[1]!.tag === 0x01 && c[1]!.body[0] !== 0;
    return { oid: oidString(c[0]!.body), critical, value: c[c.length - 1]!.body };
  });
}

/** What a certificate's (or a request's) extensions say, decoded; throws on a malformed value. */
export type ExtensionFields = Pick<ParsedCert, 'subjectKeyId' | 'authorityKeyId' | 'isCA' | 'keyUsage' | 'extKeyUsage' | 'dnsNames' | 'ips' | 'san' | 'pathLen'>;

export function extensionFields(exts: readonly Extension[]): ExtensionFields {
  const byOid = (o: string): Extension | undefined => exts.find((e) => e.oid === o);
  const ku = byOid(EXT.keyUsage);
  const keyUsage: KeyUsage[] = [];
  if (ku) {
    const bs = parse(ku.value).body.subarray(1);
    KEY_USAGES.forEach((u, b) => {
      if ((bs[b >> 3] ?? 0) & (0x80 >> (b & 7))) keyUsage.push(u);
    });
  }
  const eku = byOid(EXT.extKeyUsage);
  const bc = byOid(EXT.basicConstraints);
  const bcSeq = bc ? parse(bc.value) : undefined;
  const san = byOid(EXT.san);
  const sanNodes = san ? (parse(san.value).children ?? []) : [];
  const ski = byOid(EXT.ski);
  const aki = byOid(EXT.aki);
  return {
    ...(ski ? { subjectKeyId: parse(ski.value).body } : {}),
    ...(aki ? { authorityKeyId: (parse(aki.value).children ?? []).find((n) => n.tag === 0x80)?.body ?? Buffer.alloc(0) } : {}),
    isCA: !!bcSeq?.children?.some((n) => n.tag === 0x01 && n.body[0] !== 0),
    keyUsage,
    extKeyUsage: eku ? (parse(eku.value).children ?? []).map((n) => oidString(n.body)) : [],
    dnsNames: sanNodes.filter((n) => n.tag === 0x82).map((n) => n.body.toString('latin1')),
    ips: sanNodes.filter((n) => n.tag === 0x87).map((n) => ipString(n.body)),
    san: sanNodes.map((n) => {
      const prefix: Record<number, string> = { 0x81: 'email:', 0x82: 'DNS:', 0x86: 'URI:', 0x87: 'IP Address:' };
      return n.tag === 0x87 ? `IP Address:${ipString(n.body)}` : `${prefix[n.tag] ?? 'othername:'}${n.body.toString('latin1')}`;
    }),
    ...(bcSeq?.children?.some((n) => n.tag === 0x02) ? { pathLen: Number(BigInt(`0x${bcSeq.children.find((n) => n.tag === 0x02)!.body.toString('hex') || '0'}`)) } : {}),
  };
}

/** A SubjectPublicKeyInfo's key fields: RSA modulus and exponent, or an EC point and its curve. */
export function publicKeyFields(spkiN: DerNode): Pick<ParsedCert, 'publicKeyAlgorithm' | 'modulus' | 'exponent' | 'ecPoint' | 'curve'> {
  const keyAlg = oidString(spkiN.children![0]!.children![0]!.body);
  const keyBits = spkiN.children![1]!.body.subarray(1);
  if (keyAlg === EC_PUBLIC_KEY_OID) {
    const curveN = spkiN.children![0]!.children![1];
    return { publicKeyAlgorithm: keyAlg, modulus: Buffer.alloc(0), exponent: 0, ecPoint: keyBits, ...(curveN?.tag === 0x06 ? { curve: oidString(curveN.body) } : {}) };
  }
  const rsaKey = parse(keyBits);
  const expB = rsaKey.children?.[1]?.body ?? Buffer.alloc(0);
  return { publicKeyAlgorithm: keyAlg, modulus: rsaKey.children?.[0]?.body ?? Buffer.alloc(0), exponent: Number(BigInt(`0x${expB.toString('hex') || '0'}`)) };
}

/** Parse a DER certificate; undefined when it is not one. */
export function parseCertificate(der: Buffer): ParsedCert | undefined {
  try {
    const root = parse(der);
    const [tbsN, algN, sigN] = root.children!;
    const f = tbsN!.children!;
    let i = 0;
    let version = 1;
    if (f[0]!.tag === 0xa0) {
      version = Number(f[0]!.children![0]!.body[0]) + 1;
      i = 1;
    }
    const serialBytes = f[i]!.body;
    const serial = BigInt(`0x${serialBytes.toString('hex') || '0'}`);
    const issuerN = f[i + 2]!;
    const validity = f[i + 3]!.children!;
    const subjectN = f[i + 4]!;
    const spkiN = f[i + 5]!;
    const extN = f.slice(i + 6).find((n) => n.tag === 0xa3);
    const exts = extN?.children?.[0] ? parseExtensions(extN.children[0]) : [];
    return {
      der,
      version,
      serial,
      serialBytes,
      signatureAlgorithm: oidString(algN!.children![0]!.body),
      issuer: parseName(issuerN),
      subject: parseName(subjectN),
      issuerDerOfSubject: subjectN.raw,
      issuerDer: issuerN.raw,
      notBefore: parseTime(validity[0]!),
      notAfter: parseTime(validity[1]!),
      ...publicKeyFields(spkiN),
      spki: spkiN.raw,
      extensions: exts,
      signature: sigN!.body.subarray(1),
      tbs: tbsN!.raw,
      ...extensionFields(exts),
    };
  } catch {
    return undefined;
  }
}

/** The first certificate of a PEM file, parsed. */
export function readCertificatePem(text: string): ParsedCert | undefined {
  const der = pemDecode(text)[0];
  return der ? parseCertificate(der) : undefined;
}

export const SIG_ALG_NAMES: Record<string, string> = { [SHA256_RSA]: 'sha256WithRSAEncryption', [RSA]: 'rsaEncryption', [ECDSA_SHA256_OID]: 'ecdsa-with-SHA256', [ECDSA_SHA384_OID]: 'ecdsa-with-SHA384', [EC_PUBLIC_KEY_OID]: 'id-ecPublicKey' };

/** Named curves by OID: OpenSSL's short name and, for the NIST ones, the NIST name (crypto/ec/ec_curve.c). */
export const CURVE_NAMES: Record<string, { name: string; nist?: string; bits: number }> = {
  [PRIME256V1_OID]: { name: 'prime256v1', nist: 'P-256', bits: 256 },
  [SECP384R1_OID]: { name: 'secp384r1', nist: 'P-384', bits: 384 },
};

/** Whether `cert` was signed by `ca` (issuer name matches and the signature verifies). */
export function issuedBy(cert: ParsedCert, ca: ParsedCert): boolean {
  if (!cert.issuerDer.equals(ca.issuerDerOfSubject)) return false;
  // every kubectl command verifies the API server's chain: the verdict is a pure function of the
  // signed bytes, the signature and the CA's key, so it is computed once per pair
  const key = `${cert.tbs.toString('base64')}|${cert.signature.toString('base64')}|${ca.spki.toString('base64')}`;
  const hit = SIGNATURES.get(key);
  if (hit !== undefined) return hit;
  let ok: boolean;
  try {
    // ecdsa-with-SHA384 (a P-384 CA's, as Go signs with it) hashes with SHA-384; the others here with SHA-256
    ok = verify(cert.signatureAlgorithm === ECDSA_SHA384_OID ? 'sha384' : 'sha256', cert.tbs, createPublicKey({ key: ca.spki, format: 'der', type: 'spki' }), cert.signature);
  } catch {
    ok = false;
  }
  if (SIGNATURES.size >= 1024) SIGNATURES.clear();
  SIGNATURES.set(key, ok);
  return ok;
}

/** issuedBy's verdicts by signed bytes, signature and CA key (bounded: cleared when full). */
const SIGNATURES = new Map<string, boolean>();

/** Whether a private key PEM belongs to the certificate (the public halves are equal). */
export function keyMatches(cert: ParsedCert, keyPem: string): boolean {
  try {
    return publicKeyDer(keyPem).equals(cert.spki);
  } catch {
    return false;
  }
}

/**
 * Short, readable one-line names: `CN = kubernetes` (OpenSSL's XN_FLAG_ONELINE, crypto/asn1/a_strex.c
 * do_esc_char with ASN1_STRFLGS_ESC_QUOTE): a value holding `,` `+` `;` `<` `>`, or starting with
 * a space or `#`, or ending with a space, is quoted; `"` and `\` are escaped with a backslash;
 * control characters and bytes above 0x7f are written as `\XX`.
 */
export function onelineName(n: NameAttr[]): string {
  return n.map(([t, v]) => `${t} = ${onelineValue(v)}`).join(', ');
}

function onelineValue(v: string): string {
  let quote = /[,+;<>]/.test(v) || /^[ #]/.test(v) || / $/.test(v);
  let out = '';
  for (const byte of Buffer.from(v, 'utf8')) {
    const ch = String.fromCharCode(byte);
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (byte < 0x20 || byte > 0x7e) out += `\\${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    else out += ch;
  }
  if (v === '') quote = false;
  return quote ? `"${out}"` : out;
}
