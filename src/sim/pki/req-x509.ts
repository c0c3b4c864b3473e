/**
 * What `openssl req` (OpenSSL 3.0.19) writes into a request or a self-signed certificate, as
 * data: the `-subj` string as apps/lib/apps.c parse_name reads it, `-addext NAME=VALUE` as the
 * v3 extension modules read their values (crypto/x509/v3_san.c, v3_bcons.c, v3_bitst.c,
 * v3_extku.c), and the `-x509` certificate: version 3, the given serial, issuer = subject, the
 * openssl.cnf `[ v3_ca ]` section Debian ships as `x509_extensions` (subjectKeyIdentifier=hash,
 * authorityKeyIdentifier=keyid:always,issuer, basicConstraints=critical,CA:true) with each
 * `-addext` replacing an extension of the same kind in place or following them, signed
 * sha256WithRSAEncryption. Layout checked byte for byte against certificates the real
 * /usr/bin/openssl made from the same key, serial and time (openssl.test.ts).
 */
import { bitString, bool, explicit, integer, octets, oid, pemEncode, seq, set, time, tlv } from './der.js';
import { encodeNameInOrder } from './csr.js';
import { signSha256, signatureAlgorithm } from './sign.js';
import { EKU, EXT, KEY_USAGES, publicKeyDer, subjectKeyId, type KeyUsage, type NameAttr } from './x509.js';

/** The error queue's thread id, fixed as in the recorded goldens. */
const TID = '40C7C49B9D7F0000';

/** OpenSSL's short and long names of the attributes the lab's Name model carries. */
const ATTRS: Record<string, NameAttr[0]> = {
  C: 'C', countryName: 'C', ST: 'ST', stateOrProvinceName: 'ST', L: 'L', localityName: 'L',
  O: 'O', organizationName: 'O', OU: 'OU', organizationalUnitName: 'OU', CN: 'CN', commonName: 'CN',
};
/** Attributes OpenSSL knows that the lab's Name model does not carry. */
const UNMODELLED = ['emailAddress', 'DC', 'domainComponent', 'UID', 'userId', 'serialNumber', 'street', 'title', 'SN', 'surname', 'GN', 'givenName', 'initials', 'pseudonym', 'name', 'description', 'postalCode', 'businessCategory', 'dnQualifier'];

export type SubjectParse = { name: NameAttr[]; warnings: string } | { error: string };

/**
 * parse_name (apps/lib/apps.c, OpenSSL 3.0) for `-subj`: `/type=value/…`, a backslash escapes
 * the next character, `+` starts another attribute (multi-valued RDNs are written here as their
 * own RDNs), unknown types and empty values are skipped with a warning.
 */
export function parseOpensslSubject(subj: string, prog: string): SubjectParse {
  if (!subj.startsWith('/'))
    return { error: `${prog}: subject name is expected to be in the format /type0=value0/type1=value1/type2=... where characters may be escaped by \\. This name is not in that format: '${subj}'\n` };
  const name: NameAttr[] = [];
  let warnings = '';
  let i = 1;
  while (i < subj.length) {
    let type = '';
    while (i < subj.length && subj[i] !== '=') {
      if (subj[i] === '\\' && i + 1 < subj.length) i++;
      type += subj[i++];
    }
    if (i >= subj.length) return { error: `${prog}: Missing '=' after RDN type string '${type}' in subject name string\n` };
    i++;
    let value = '';
    while (i < subj.length && subj[i] !== '/' && subj[i] !== '+') {
      if (subj[i] === '\\' && i + 1 < subj.length) i++;
      value += subj[i++];
    }
    if (i < subj.length) i++;
    if (UNMODELLED.includes(type)) return { error: `cka-lab: the subject attribute "${type}" is not simulated; use C, ST, L, O, OU and CN\n` };
    const attr = ATTRS[type];
    if (!attr) {
      warnings += `${prog} warning: Skipping unknown subject name attribute "${type}"\n`;
      continue;
    }
    if (value === '') {
      warnings += `${prog} warning: No value provided for subject name attribute "${type}", skipped\n`;
      continue;
    }
    name.push([attr, value]);
  }
  return { name, warnings };
}

/** One extension as it will be encoded. */
export interface V3Extension {
  oid: string;
  critical: boolean;
  /** The extnValue's contents (the DER inside the OCTET STRING). */
  value: Buffer;
}

const err = (lines: string[], name: string, value: string): { error: string } => ({
  error: `${lines.map((l) => `${TID}:error:${l}\n`).join('')}${TID}:error:11000080:X509 V3 routines:X509V3_EXT_nconf_int:error in extension:../crypto/x509/v3_conf.c:48:section=default, name=${name}, value=${value}\n`,
});

/** X509V3_parse_list: comma-separated `name:value` items, blanks around them dropped. */
function parseList(value: string): { name: string; value: string | undefined }[] | undefined {
  const out: { name: string; value: string | undefined }[] = [];
  for (const raw of value.split(',')) {
    const item = raw.trim();
    const colon = item.indexOf(':');
    if (colon < 0) out.push({ name: item, value: undefined });
    else {
      const v = item.slice(colon + 1).trim();
      if (v === '') return undefined;
      out.push({ name: item.slice(0, colon).trim(), value: v });
    }
  }
  return out;
}

function ipv4Bytes(s: string): Buffer | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return undefined;
  const b = m.slice(1).map(Number);
  return b.every((x) => x <= 255) ? Buffer.from(b) : undefined;
}

function ipv6Bytes(s: string): Buffer | undefined {
  if (!/^[0-9a-fA-F:]+$/.test(s) || !s.includes(':')) return undefined;
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string): string[] => (h === '' ? [] : h.split(':'));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  if (fill < 0 || (halves.length === 1 && head.length !== 8)) return undefined;
  const all = [...head, ...Array<string>(fill).fill('0'), ...tail];
  if (all.some((g) => g === '' || g.length > 4)) return undefined;
  return Buffer.from(all.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]));
}

const KU_NAMES: Record<string, KeyUsage> = {
  digitalSignature: 'digitalSignature', 'Digital Signature': 'digitalSignature',
  nonRepudiation: 'contentCommitment', 'Non Repudiation': 'contentCommitment',
  keyEncipherment: 'keyEncipherment', 'Key Encipherment': 'keyEncipherment',
  dataEncipherment: 'dataEncipherment', 'Data Encipherment': 'dataEncipherment',
  keyAgreement: 'keyAgreement', 'Key Agreement': 'keyAgreement',
  keyCertSign: 'keyCertSign', 'Certificate Sign': 'keyCertSign',
  cRLSign: 'cRLSign', 'CRL Sign': 'cRLSign',
  encipherOnly: 'encipherOnly', 'Encipher Only': 'encipherOnly',
  decipherOnly: 'decipherOnly', 'Decipher Only': 'decipherOnly',
};

/** The DER BIT STRING of a key usage set, trailing zero bits dropped (as both Go and OpenSSL encode it). */
export function keyUsageBitString(usages: readonly KeyUsage[]): Buffer {
  const bits = usages.map((u) => KEY_USAGES.indexOf(u));
  const n = bits.length ? Math.max(...bits) + 1 : 0;
  const out = Buffer.alloc(Math.ceil(n / 8));
  for (const b of bits) out[b >> 3]! |= 0x80 >> (b & 7);
  return tlv(0x03, Buffer.concat([Buffer.from([out.length * 8 - n]), out]));
}

const EKU_OIDS: Record<string, string> = {
  serverAuth: EKU.serverAuth, 'TLS Web Server Authentication': EKU.serverAuth,
  clientAuth: EKU.clientAuth, 'TLS Web Client Authentication': EKU.clientAuth,
  codeSigning: '1.3.6.1.5.5.7.3.3', emailProtection: '1.3.6.1.5.5.7.3.4', timeStamping: '1.3.6.1.5.5.7.3.8', OCSPSigning: '1.3.6.1.5.5.7.3.9',
};

/** Extension names OpenSSL knows that are not simulated here. */
const UNMODELLED_EXT = ['issuerAltName', 'nameConstraints', 'certificatePolicies', 'crlDistributionPoints', 'authorityInfoAccess', 'policyConstraints', 'inhibitAnyPolicy', 'nsComment', 'nsCertType', 'subjectKeyIdentifier', 'authorityKeyIdentifier', 'tlsfeature', 'noCheck'];

/**
 * One `-addext NAME=VALUE` (X509V3_EXT_nconf with `critical,` prefix handling): the extension, or
 * the error lines OpenSSL prints after "Error checking extensions defined using -addext".
 */
export function parseAddext(spec: string): V3Extension | { error: string } {
  const eq = spec.indexOf('=');
  const name = spec.slice(0, eq).trim();
  const raw = spec.slice(eq + 1).trim();
  let value = raw;
  let critical = false;
  if (/^critical\s*,/.test(value)) {
    critical = true;
    value = value.replace(/^critical\s*,\s*/, '');
  }
  switch (name) {
    case 'subjectAltName': {
      const items = parseList(value);
      if (!items)
        return {
          error:
            `${TID}:error:1100006D:X509 V3 routines:X509V3_parse_list:invalid null value:../crypto/x509/v3_utl.c:379:\n` +
            `${TID}:error:11000069:X509 V3 routines:do_ext_nconf:invalid extension string:../crypto/x509/v3_conf.c:102:name=subjectAltName,section=${value}\n` +
            err([], name, raw).error,
        };
      const names: Buffer[] = [];
      for (const it of items) {
        const v = it.value ?? '';
        if (it.name === 'DNS') names.push(tlv(0x82, Buffer.from(v, 'latin1')));
        else if (it.name === 'email') names.push(tlv(0x81, Buffer.from(v, 'latin1')));
        else if (it.name === 'URI') names.push(tlv(0x86, Buffer.from(v, 'latin1')));
        else if (it.name === 'IP') {
          const ip = ipv4Bytes(v) ?? ipv6Bytes(v);
          if (!ip) return err([`11000076:X509 V3 routines:a2i_GENERAL_NAME:bad ip address:../crypto/x509/v3_san.c:552:value=${v}`], name, raw);
          names.push(tlv(0x87, ip));
        } else return err([`11000075:X509 V3 routines:v2i_GENERAL_NAME_ex:unsupported option:../crypto/x509/v3_san.c:626:name=${it.name}`], name, raw);
      }
      return { oid: EXT.san, critical, value: seq(...names) };
    }
    case 'basicConstraints': {
      let ca = false;
      let pathLen: bigint | undefined;
      for (const it of parseList(value) ?? []) {
        if (it.name === 'CA') {
          const v = it.value ?? '';
          if (/^(true|TRUE|y|Y|yes|YES)$/.test(v)) ca = true;
          else if (/^(false|FALSE|n|N|no|NO)$/.test(v)) ca = false;
          else return err([`11000068:X509 V3 routines:X509V3_get_value_bool:invalid boolean string:../crypto/x509/v3_utl.c:289:name=CA, value=${v}`], name, raw);
        } else if (it.name === 'pathlen' && it.value !== undefined && /^\d+$/.test(it.value)) pathLen = BigInt(it.value);
        else return err([`1100006A:X509 V3 routines:v2i_BASIC_CONSTRAINTS:invalid name:../crypto/x509/v3_bcons.c:76:name=${it.name}, value=${it.value ?? '<NULL>'}`], name, raw);
      }
      return { oid: EXT.basicConstraints, critical, value: seq(...(ca ? [bool(true)] : []), ...(pathLen !== undefined ? [integer(pathLen)] : [])) };
    }
    case 'keyUsage': {
      const usages: KeyUsage[] = [];
      for (const word of value.split(',').map((w) => w.trim())) {
        const u = KU_NAMES[word];
        if (!u) return err([`1100006F:X509 V3 routines:v2i_ASN1_BIT_STRING:unknown bit string argument:../crypto/x509/v3_bitst.c:82:${word}`], name, raw);
        usages.push(u);
      }
      return { oid: EXT.keyUsage, critical, value: keyUsageBitString(usages) };
    }
    case 'extendedKeyUsage': {
      const oids: Buffer[] = [];
      for (const word of value.split(',').map((w) => w.trim())) {
        const o = EKU_OIDS[word] ?? (/^\d+(\.\d+)+$/.test(word) ? word : undefined);
        if (!o)
          return err(
            ['04000067:object identifier routines:OBJ_txt2obj:unknown object name:../crypto/objects/obj_dat.c:372:', `1100006E:X509 V3 routines:v2i_EXTENDED_KEY_USAGE:invalid object identifier:../crypto/x509/v3_extku.c:94:${word}`],
            name,
            raw,
          );
        oids.push(oid(o));
      }
      return { oid: EXT.extKeyUsage, critical, value: seq(...oids) };
    }
    default:
      if (UNMODELLED_EXT.includes(name)) return { error: `cka-lab: -addext ${name} is not simulated; subjectAltName, basicConstraints, keyUsage and extendedKeyUsage are\n` };
      return err(['11000082:X509 V3 routines:do_ext_nconf:unknown extension name:../crypto/x509/v3_conf.c:88:'], name, raw);
  }
}

function encodeExt(e: V3Extension): Buffer {
  return seq(oid(e.oid), ...(e.critical ? [bool(true)] : []), octets(e.value));
}

/** The extensions of `req -x509`: the v3_ca section, then each -addext (one of the same kind is replaced where it stands). */
export function selfSignedExtensions(keyPem: string, addext: readonly V3Extension[]): V3Extension[] {
  const ski = subjectKeyId(publicKeyDer(keyPem));
  const exts: V3Extension[] = [
    { oid: EXT.ski, critical: false, value: octets(ski) },
    { oid: EXT.aki, critical: false, value: seq(tlv(0x80, ski)) },
    { oid: EXT.basicConstraints, critical: true, value: seq(bool(true)) },
  ];
  for (const e of addext) {
    const at = exts.findIndex((x) => x.oid === e.oid);
    if (at >= 0) exts[at] = e;
    else exts.push(e);
  }
  return exts;
}

export interface SelfSignedSpec {
  subject: readonly NameAttr[];
  keyPem: string;
  serial: bigint;
  notBefore: number;
  notAfter: number;
  addext: readonly V3Extension[];
}

/** `openssl req -x509`: the self-signed version-3 certificate, PEM. */
export function createSelfSignedCertificate(s: SelfSignedSpec): string {
  const name = encodeNameInOrder(s.subject);
  const algo = signatureAlgorithm(s.keyPem);
  const tbs = seq(
    explicit(0, integer(2n)),
    integer(s.serial),
    algo,
    name,
    seq(time(s.notBefore), time(s.notAfter)),
    name,
    publicKeyDer(s.keyPem),
    explicit(3, seq(...selfSignedExtensions(s.keyPem, s.addext).map(encodeExt))),
  );
  return pemEncode(seq(tbs, algo, bitString(signSha256(s.keyPem, tbs))));
}

/** The PKCS#9 extensionRequest attribute a request carries its -addext extensions in. */
export function extensionRequest(exts: readonly V3Extension[]): Buffer {
  return seq(oid('1.2.840.113549.1.9.14'), set(seq(...exts.map(encodeExt))));
}
