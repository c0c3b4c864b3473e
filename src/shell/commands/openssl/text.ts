/**
 * `openssl x509` printing as OpenSSL 3.0 lays it out (crypto/x509/t_x509.c X509_print_ex,
 * crypto/x509/v3_*.c, crypto/rsa/rsa_ameth.c): `-text`, `-subject`, `-issuer`, dates, serial,
 * `-ext`, `-fingerprint`. Goldens were recorded from /usr/bin/openssl 3.0 on the fixture's PEMs.
 */
import { createHash } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { ParsedCsr } from '../../../sim/pki/csr.js';
import { CURVE_NAMES, EKU, EXT, SIG_ALG_NAMES, onelineName, type Extension, type ExtensionFields, type KeyUsage, type ParsedCert } from '../../../sim/pki/x509.js';
import { PRIME256V1_OID, SECP384R1_OID } from '../../../sim/pki/ec.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** ASN1_TIME_print: `Nov 27 05:55:00 2026 GMT`, the day padded with a space. */
export function opensslTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} ${d.getUTCFullYear()} GMT`;
}

const hexColon = (b: Buffer, upper = false): string => [...b].map((x) => x.toString(16).padStart(2, '0')).map((h) => (upper ? h.toUpperCase() : h)).join(':');

/** Bytes in rows of `perLine`, each row indented, joined with `:` (and a trailing `:` on all rows but the last). */
function hexBlock(b: Buffer, perLine: number, indent: number): string {
  const rows: string[] = [];
  for (let i = 0; i < b.length; i += perLine) rows.push(' '.repeat(indent) + hexColon(b.subarray(i, i + perLine)));
  return rows.join(':\n');
}

/** The serial without its DER sign byte. */
function serialMagnitude(c: ParsedCert): Buffer {
  let b = c.serialBytes;
  while (b.length > 1 && b[0] === 0) b = b.subarray(1);
  return b;
}

export function serialLine(c: ParsedCert): string {
  return `serial=${serialMagnitude(c).toString('hex').toUpperCase()}`;
}

const KU_NAMES: Record<KeyUsage, string> = {
  digitalSignature: 'Digital Signature',
  contentCommitment: 'Non Repudiation',
  keyEncipherment: 'Key Encipherment',
  dataEncipherment: 'Data Encipherment',
  keyAgreement: 'Key Agreement',
  keyCertSign: 'Certificate Sign',
  cRLSign: 'CRL Sign',
  encipherOnly: 'Encipher Only',
  decipherOnly: 'Decipher Only',
};
const EKU_NAMES: Record<string, string> = { [EKU.serverAuth]: 'TLS Web Server Authentication', [EKU.clientAuth]: 'TLS Web Client Authentication' };
const EXT_NAMES: Record<string, string> = {
  [EXT.keyUsage]: 'X509v3 Key Usage',
  [EXT.extKeyUsage]: 'X509v3 Extended Key Usage',
  [EXT.basicConstraints]: 'X509v3 Basic Constraints',
  [EXT.ski]: 'X509v3 Subject Key Identifier',
  [EXT.aki]: 'X509v3 Authority Key Identifier',
  [EXT.san]: 'X509v3 Subject Alternative Name',
};

/** The value lines of one extension, at `indent`. */
function extValue(c: ExtensionFields & { extensions: readonly Extension[] }, oid: string, indent: number): string {
  const pad = ' '.repeat(indent);
  switch (oid) {
    case EXT.keyUsage:
      return pad + c.keyUsage.map((u) => KU_NAMES[u]).join(', ');
    case EXT.extKeyUsage:
      return pad + c.extKeyUsage.map((o) => EKU_NAMES[o] ?? o).join(', ');
    case EXT.basicConstraints:
      return `${pad}CA:${c.isCA ? 'TRUE' : 'FALSE'}${c.pathLen !== undefined ? `, pathlen:${c.pathLen}` : ''}`;
    case EXT.ski:
      return pad + hexColon(c.subjectKeyId ?? Buffer.alloc(0), true);
    case EXT.aki:
      return pad + hexColon(c.authorityKeyId ?? Buffer.alloc(0), true);
    case EXT.san:
      return pad + c.san.join(', ');
    default:
      return `${pad}${hexColon(c.extensions.find((e) => e.oid === oid)?.value ?? Buffer.alloc(0))}`;
  }
}

/** `-ext subjectAltName,keyUsage`: the named extensions, or `No extensions in certificate`. */
export function extLines(c: ParsedCert, names: string[]): string {
  const byName: Record<string, string> = { subjectAltName: EXT.san, keyUsage: EXT.keyUsage, extendedKeyUsage: EXT.extKeyUsage, basicConstraints: EXT.basicConstraints, subjectKeyIdentifier: EXT.ski, authorityKeyIdentifier: EXT.aki };
  const wanted = c.extensions.filter((e) => names.some((n) => byName[n] === e.oid));
  if (wanted.length === 0) return 'No extensions in certificate\n';
  return wanted.map((e) => `${EXT_NAMES[e.oid] ?? e.oid}: ${e.critical ? 'critical' : ''}\n${extValue(c, e.oid, 4)}\n`).join('');
}

export function fingerprint(c: ParsedCert, digest: 'sha1' | 'sha256' = 'sha1'): string {
  return `${digest === 'sha1' ? 'SHA1' : 'sha256'} Fingerprint=${hexColon(createHash(digest).update(c.der).digest(), true)}`;
}

/**
 * The public key's lines of a certificate or request at `indent` (crypto/rsa/rsa_ameth.c
 * pkey_rsa_print, crypto/ec/ec_ameth.c do_EC_KEY_print): an RSA modulus and exponent, or an EC
 * point with its curve's names.
 */
export function publicKeyLines(c: Pick<ParsedCert, 'modulus' | 'exponent' | 'ecPoint' | 'curve'>, indent: number): string[] {
  const pad = ' '.repeat(indent);
  if (c.ecPoint) return ecLines(undefined, c.ecPoint, c.curve, indent);
  return [
    `${pad}Public-Key: (${(c.modulus[0] === 0 ? c.modulus.length - 1 : c.modulus.length) * 8} bit)`,
    `${pad}Modulus:`,
    hexBlock(c.modulus, 15, indent + 4),
    `${pad}Exponent: ${c.exponent} (0x${c.exponent.toString(16)})`,
  ];
}

/** do_EC_KEY_print: `Private-Key`/`Public-Key`, `priv:` (the scalar at the curve's width), `pub:`, the curve's OID name and NIST name. */
function ecLines(priv: Buffer | undefined, point: Buffer, curve: string | undefined, indent: number): string[] {
  const pad = ' '.repeat(indent);
  const named = curve ? CURVE_NAMES[curve] : undefined;
  const bits = named?.bits ?? ((point.length - 1) / 2) * 8;
  return [
    `${pad}${priv ? 'Private' : 'Public'}-Key: (${bits} bit)`,
    ...(priv ? [`${pad}priv:`, hexBlock(priv, 15, indent + 4)] : []),
    `${pad}pub:`,
    hexBlock(point, 15, indent + 4),
    ...(named ? [`${pad}ASN1 OID: ${named.name}`, ...(named.nist ? [`${pad}NIST CURVE: ${named.nist}`] : [])] : []),
  ];
}

/** A positive big-endian number as OpenSSL's BN printer writes it: a 00 byte first when the top bit is set. */
function bnBytes(b64url: string | undefined): Buffer {
  const b = Buffer.from(b64url ?? '', 'base64url');
  return b.length && b[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b;
}

/**
 * `openssl pkey|ec|rsa -text` (and `-text_pub`): the key's fields as EVP_PKEY_print_private /
 * _public lay them out at indent 0 (rsa_ameth.c, ec_ameth.c). Recorded from OpenSSL 3.0.19.
 */
export function keyText(key: KeyObject, publicOnly: boolean): string {
  const jwk = key.export({ format: 'jwk' });
  const priv = !publicOnly && key.type === 'private';
  if (key.asymmetricKeyType === 'ec') {
    const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x ?? '', 'base64url'), Buffer.from(jwk.y ?? '', 'base64url')]);
    const curve = jwk.crv === 'P-256' ? PRIME256V1_OID : jwk.crv === 'P-384' ? SECP384R1_OID : undefined;
    return `${ecLines(priv ? Buffer.from(jwk.d ?? '', 'base64url') : undefined, point, curve, 0).join('\n')}\n`;
  }
  const n = bnBytes(jwk.n);
  const bits = (n[0] === 0 ? n.length - 1 : n.length) * 8;
  const e = Number(BigInt(`0x${Buffer.from(jwk.e ?? '', 'base64url').toString('hex') || '0'}`));
  const exp = `${e} (0x${e.toString(16)})`;
  if (!priv) return `Public-Key: (${bits} bit)\nModulus:\n${hexBlock(n, 15, 4)}\nExponent: ${exp}\n`;
  const field = (label: string, v: string | undefined): string => `${label}:\n${hexBlock(bnBytes(v), 15, 4)}\n`;
  return (
    `Private-Key: (${bits} bit, 2 primes)\n${field('modulus', jwk.n)}publicExponent: ${exp}\n` +
    field('privateExponent', jwk.d) + field('prime1', jwk.p) + field('prime2', jwk.q) + field('exponent1', jwk.dp) + field('exponent2', jwk.dq) + field('coefficient', jwk.qi)
  );
}

/**
 * X509_REQ_print_ex (crypto/x509/t_req.c) with the default flags, as OpenSSL 3.0.19 prints it:
 * a request without attributes says `(none)` and then, all the same, `Requested Extensions:`.
 */
export function requestText(r: ParsedCsr): string {
  const sigName = SIG_ALG_NAMES[r.signatureAlgorithm] ?? r.signatureAlgorithm;
  const lines = [
    'Certificate Request:',
    '    Data:',
    `        Version: ${r.version} (0x${(r.version - 1).toString(16)})`,
    `        Subject: ${onelineName(r.subject)}`,
    '        Subject Public Key Info:',
    `            Public Key Algorithm: ${SIG_ALG_NAMES[r.publicKeyAlgorithm] ?? r.publicKeyAlgorithm}`,
    ...publicKeyLines(r, 16),
    '        Attributes:',
  ];
  if (r.attributeCount === 0) lines.push('            (none)', '            Requested Extensions:');
  else if (r.extensions.length) {
    lines.push('            Requested Extensions:');
    for (const e of r.extensions) lines.push(`                ${EXT_NAMES[e.oid] ?? e.oid}: ${e.critical ? 'critical' : ''}`, extValue(r, e.oid, 20));
  }
  lines.push(`    Signature Algorithm: ${sigName}`, '    Signature Value:', hexBlock(r.signature, 18, 8));
  return `${lines.join('\n')}\n`;
}

/** X509_print_ex with the default flags. */
export function certificateText(c: ParsedCert): string {
  const sigName = SIG_ALG_NAMES[c.signatureAlgorithm] ?? c.signatureAlgorithm;
  const lines: string[] = ['Certificate:', '    Data:', `        Version: ${c.version} (0x${(c.version - 1).toString(16)})`];
  const serial = serialMagnitude(c);
  if (serial.length <= 8) {
    const v = BigInt(`0x${serial.toString('hex')}`);
    lines.push(`        Serial Number: ${v} (0x${v.toString(16)})`);
  } else lines.push('        Serial Number:', `            ${hexColon(c.serialBytes)}`);
  lines.push(
    `        Signature Algorithm: ${sigName}`,
    `        Issuer: ${onelineName(c.issuer)}`,
    '        Validity',
    `            Not Before: ${opensslTime(c.notBefore)}`,
    `            Not After : ${opensslTime(c.notAfter)}`,
    `        Subject: ${onelineName(c.subject)}`,
    '        Subject Public Key Info:',
    `            Public Key Algorithm: ${SIG_ALG_NAMES[c.publicKeyAlgorithm] ?? c.publicKeyAlgorithm}`,
    ...publicKeyLines(c, 16),
  );
  if (c.extensions.length > 0) {
    lines.push('        X509v3 extensions:');
    for (const e of c.extensions) lines.push(`            ${EXT_NAMES[e.oid] ?? e.oid}: ${e.critical ? 'critical' : ''}`, extValue(c, e.oid, 16));
  }
  lines.push(`    Signature Algorithm: ${sigName}`, '    Signature Value:', hexBlock(c.signature, 18, 8));
  return `${lines.join('\n')}\n`;
}
