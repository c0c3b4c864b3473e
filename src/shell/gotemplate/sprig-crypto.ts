/**
 * Sprig's crypto.go functions: bcrypt and htpasswd (x/crypto/bcrypt, cost 10, util/bcrypt.ts),
 * derivePassword (the Master Password algorithm: scrypt N=32768 r=8 p=2 of the password salted
 * with "com.lyndir.masterpassword" + len(user) + user, HMAC-SHA256 of the site, the template and
 * characters picked by the seed bytes), encryptAES/decryptAES (AES-256-CBC; the key is the
 * password's bytes zero-padded or cut to 32, not a hash; a random IV before the PKCS#7-padded
 * ciphertext; base64), genPrivateKey (rsa 4096 PKCS#1, ecdsa P-256 SEC 1, ed25519 PKCS#8, dsa
 * L2048N256 in OpenSSL's DSA form), genCA/genSelfSignedCert/genSignedCert and their WithKey forms
 * (getBaseCertTemplate: a 128-bit random serial, CN only, NotBefore now, NotAfter now + days,
 * KeyEncipherment|DigitalSignature (+CertSign on a CA), ServerAuth+ClientAuth; certificates built
 * by sim/pki/x509.ts as crypto/x509 lays them out), and buildCustomCert.
 *
 * Randomness: salts, IVs, serials and the RSA 2048 keys of the certificate functions come from the
 * seeded random source (the keys from the lab's pools of pre-generated keys: sim/pki/user-keys.ts
 * for the certificates, sim/pki/sprig-keys.ts for genPrivateKey's four types), so a render is
 * reproducible.
 */
import { createCipheriv, createDecipheriv, createHmac, createPrivateKey, scryptSync, type KeyObject } from 'node:crypto';
import { BcryptError, bcryptHash } from '../../util/bcrypt.js';
import { goStringBytes, goStringFromBytes } from '../../util/go-bytes.js';
import { integer, parse, pemEncode, seq } from '../../sim/pki/der.js';
import { USER_KEYS } from '../../sim/pki/user-keys.js';
import { SPRIG_KEYS } from '../../sim/pki/sprig-keys.js';
import { createCertificate, readCertificatePem } from '../../sim/pki/x509.js';
import { goB64Decode } from './helm-funcs.js';
import { FuncError, type FuncDef, type FuncMap } from './funcs.js';
import { GoNum, GoStruct, type GoValue, typeName } from './value.js';

const f = (params: FuncDef['params'], call: FuncDef['call']): FuncDef => ({ params, call });
const A = 'any' as const;
const S = 'string' as const;
const V = 'value' as const;
const C = 'sprig.certificate' as const;

const TEMPLATES: Record<string, string[]> = {
  maximum: ['anoxxxxxxxxxxxxxxxxx', 'axxxxxxxxxxxxxxxxxno'],
  long: ['CvcvnoCvcvCvcv', 'CvcvCvcvnoCvcv', 'CvcvCvcvCvcvno', 'CvccnoCvcvCvcv', 'CvccCvcvnoCvcv', 'CvccCvcvCvcvno', 'CvcvnoCvccCvcv', 'CvcvCvccnoCvcv', 'CvcvCvccCvcvno', 'CvcvnoCvcvCvcc', 'CvcvCvcvnoCvcc', 'CvcvCvcvCvccno', 'CvccnoCvccCvcv', 'CvccCvccnoCvcv', 'CvccCvccCvcvno', 'CvcvnoCvccCvcc', 'CvcvCvccnoCvcc', 'CvcvCvccCvccno', 'CvccnoCvcvCvcc', 'CvccCvcvnoCvcc', 'CvccCvcvCvccno'],
  medium: ['CvcnoCvc', 'CvcCvcno'],
  short: ['Cvcn'],
  basic: ['aaanaaan', 'aannaaan', 'aaannaaa'],
  pin: ['nnnn'],
};
const CHARS: Record<string, string> = {
  V: 'AEIOU',
  C: 'BCDFGHJKLMNPQRSTVWXYZ',
  v: 'aeiou',
  c: 'bcdfghjklmnpqrstvwxyz',
  A: 'AEIOUBCDFGHJKLMNPQRSTVWXYZ',
  a: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz',
  n: '0123456789',
  o: "@&%?,=[]_:-+*$#!'^~;()/.",
  x: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz0123456789!@#$%^&*()',
};
const SEED = 'com.lyndir.masterpassword';

const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};

export function derivePassword(counter: number, type: string, password: string, user: string, site: string): string {
  const templates = TEMPLATES[type];
  if (!templates) return `cannot find password template ${type}`;
  const userBytes = Buffer.from(user, 'utf8');
  const siteBytes = Buffer.from(site, 'utf8');
  const salt = Buffer.concat([Buffer.from(SEED), u32(userBytes.length), userBytes]);
  const key = scryptSync(Buffer.from(password, 'utf8'), salt, 64, { N: 32768, r: 8, p: 2, maxmem: 256 * 1024 * 1024 });
  const seed = createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from(SEED), u32(siteBytes.length), siteBytes, u32(counter)]))
    .digest();
  const temp = templates[seed[0]! % templates.length]!;
  return [...temp].map((c, i) => CHARS[c]![seed[i + 1]! % CHARS[c]!.length]).join('');
}

/** The AES key: the password's bytes in a zeroed 32-byte buffer (longer passwords are cut). */
const aesKey = (password: string): Buffer => {
  const key = Buffer.alloc(32);
  Buffer.from(password, 'utf8').copy(key, 0, 0, 32);
  return key;
};

/** PEM of a node:crypto private key in the form pemBlockForKey gives it. */
function keyPem(k: KeyObject): string {
  switch (k.asymmetricKeyType) {
    case 'rsa':
      return k.export({ type: 'pkcs1', format: 'pem' }) as string;
    case 'ec':
      return k.export({ type: 'sec1', format: 'pem' }) as string;
    case 'dsa': {
      // PrivateKeyInfo{ version, { dsa, Dss-Parms{p, q, g} }, OCTET STRING{ INTEGER x } } → {0, p, q, g, y, x}
      const info = parse(k.export({ type: 'pkcs8', format: 'der' }));
      const params = info.children![1]!.children![1]!.children!;
      const big = (b: Buffer): bigint => BigInt(`0x${b.toString('hex') || '0'}`);
      const [p, q, g] = params.map((n) => big(n.body)) as [bigint, bigint, bigint];
      const x = big(parse(info.children![2]!.body).body);
      let y = 1n;
      for (let base = g % p, e = x; e > 0n; e >>= 1n, base = (base * base) % p) if (e & 1n) y = (y * base) % p;
      return pemEncode(seq(integer(0n), integer(p), integer(q), integer(g), integer(y), integer(x)), 'DSA PRIVATE KEY');
    }
    default:
      return k.export({ type: 'pkcs8', format: 'pem' }) as string;
  }
}

/** parsePrivateKeyPEM's errors for what node cannot read. */
function parseKeyPem(text: string): KeyObject {
  const m = /-----BEGIN ([^-]+)-----/.exec(text);
  if (!m) throw new FuncError('no PEM data in input');
  const type = m[1]!;
  if (type !== 'PRIVATE KEY' && !type.endsWith(' PRIVATE KEY')) throw new FuncError(`no private key data in PEM block of type ${type}`);
  if (!['PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY', 'DSA PRIVATE KEY'].includes(type)) throw new FuncError(`invalid private key type ${type}`);
  try {
    return createPrivateKey(text);
  } catch {
    throw new FuncError(type === 'PRIVATE KEY' ? 'decoding PEM as PKCS#8: asn1: structure error' : `parsing ${type.split(' ')[0]} private key from PEM: asn1: structure error`);
  }
}

/** getNetIPs / getAlternateDNSStrs. */
function strList(v: GoValue, what: 'ip' | 'dns'): string[] {
  if (v === null || v === undefined) return [];
  if (!Array.isArray(v)) throw new FuncError(`wrong type for value; expected []interface {}; got ${typeName(v)}`);
  return v.map((x) => {
    if (typeof x !== 'string') {
      const shown = x instanceof GoNum ? String(x.v) : String(x);
      throw new FuncError(what === 'ip' ? `error parsing ip: ${shown} is not a string` : `error processing alternate dns name: ${shown} is not a string`);
    }
    if (what === 'ip' && !isIp(x)) throw new FuncError(`error parsing ip: ${x}`);
    return x;
  });
}
function isIp(s: string): boolean {
  if (/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.test(s)) return s.split('.').every((o) => Number(o) <= 255 && (o === '0' || !o.startsWith('0')));
  return s.includes(':') && /^[0-9A-Fa-f:.]+$/.test(s) && (s.match(/::/g) ?? []).length <= 1;
}

/** crypto.go's `certificate{Cert, Key string}`. */
const cert_ = (cert: string, key: string): GoStruct => new GoStruct('sprig.certificate', { Cert: cert, Key: key });

const toInt = (v: GoValue): number => (v instanceof GoNum ? Math.trunc(v.v) : 0);

export function sprigCrypto(random: () => number, now: () => number): FuncMap {
  const bytes = (n: number): Buffer => Buffer.from(Array.from({ length: n }, () => Math.floor(random() * 256)));
  const bcrypt = (pw: string): string => {
    try {
      return bcryptHash(Buffer.from(pw, 'utf8'), bytes(16), 10);
    } catch (e) {
      if (e instanceof BcryptError) return `failed to encrypt string with bcrypt: ${e.message}`;
      throw e;
    }
  };
  const pooled = (kind: keyof typeof SPRIG_KEYS): KeyObject => {
    const pool = SPRIG_KEYS[kind];
    return createPrivateKey(pool[Math.floor(random() * pool.length)]!);
  };
  const poolKey = (): string => createPrivateKey(USER_KEYS()[Math.floor(random() * USER_KEYS().length)]!).export({ type: 'pkcs1', format: 'pem' }) as string;
  const serial = (): bigint => BigInt(`0x${bytes(16).toString('hex')}`);
  /** getBaseCertTemplate + getCertAndKey: {Cert, Key}. */
  const certificate = (cn: string, ips: GoValue, dns: GoValue, days: GoValue, key: KeyObject, ca?: GoValue, isCA = false): GoValue => {
    if (key.asymmetricKeyType !== 'rsa') throw new FuncError(`error creating certificate: x509: only RSA keys are supported here (got ${key.asymmetricKeyType ?? 'unknown'})`);
    const ipList = strList(ips, 'ip');
    const dnsList = strList(dns, 'dns');
    let issuer: { cert: NonNullable<ReturnType<typeof readCertificatePem>>; keyPem: string } | undefined;
    if (ca instanceof GoStruct) {
      const caCert = ca.fields['Cert'] as string;
      const caKey = ca.fields['Key'] as string;
      if (!/-----BEGIN [^-]+-----/.test(caCert)) throw new FuncError('unable to decode certificate');
      const cert = readCertificatePem(caCert);
      if (!cert) throw new FuncError('error parsing certificate: decodedSignerCert.Bytes: x509: malformed certificate');
      try {
        parseKeyPem(caKey);
      } catch (e) {
        if (e instanceof FuncError) throw new FuncError(`error parsing private key: ${e.message}`);
        throw e;
      }
      issuer = { cert, keyPem: caKey };
    }
    const start = now();
    const pem = key.export({ type: 'pkcs1', format: 'pem' }) as string;
    const cert = createCertificate(
      {
        serial: serial(),
        subject: [['CN', cn]],
        notBefore: Math.floor(start / 1000) * 1000,
        notAfter: Math.floor(start / 1000) * 1000 + toInt(days) * 86_400_000,
        isCA,
        keyUsage: isCA ? ['digitalSignature', 'keyEncipherment', 'keyCertSign'] : ['digitalSignature', 'keyEncipherment'],
        extKeyUsage: ['serverAuth', 'clientAuth'],
        dnsNames: dnsList,
        ips: ipList,
      },
      pem,
      issuer,
    );
    return cert_(cert, pem);
  };
  const withKey = (pem: GoValue): KeyObject => {
    try {
      return parseKeyPem(pem as string);
    } catch (e) {
      if (e instanceof FuncError) throw new FuncError(`parsing private key: ${e.message}`);
      throw e;
    }
  };
  const ca = (cn: GoValue, days: GoValue, key: KeyObject): GoValue => certificate(cn as string, null, null, days, key, undefined, true);
  return {
    bcrypt: f([S], ([s]) => bcrypt(s as string)),
    htpasswd: f([S, S], ([user, pw]) => {
      if ((user as string).includes(':')) return `invalid username: ${user as string}`;
      return `${user as string}:${bcrypt(pw as string)}`;
    }),
    derivePassword: f([V, S, S, S, S], ([c, t, pw, user, site]) => derivePassword(toInt(c ?? null), t as string, pw as string, user as string, site as string)),
    encryptAES: f([S, S], ([pw, text]) => {
      if (text === '') return '';
      const iv = bytes(16);
      const c = createCipheriv('aes-256-cbc', aesKey(pw as string), iv);
      return Buffer.concat([iv, c.update(goStringBytes(text as string)), c.final()]).toString('base64');
    }),
    decryptAES: f([S, S], ([pw, b64]) => {
      if (b64 === '') return '';
      const r = goB64Decode(b64 as string);
      if (r.error !== undefined) throw new FuncError(r.error);
      const crypt = r.bytes;
      if (crypt.length < 16 || (crypt.length - 16) % 16 !== 0) throw new FuncError('crypto/cipher: input not full blocks');
      const d = createDecipheriv('aes-256-cbc', aesKey(pw as string), crypt.subarray(0, 16));
      d.setAutoPadding(false);
      const plain = Buffer.concat([d.update(crypt.subarray(16)), d.final()]);
      // Sprig trusts the last byte as the padding length
      return goStringFromBytes(plain.subarray(0, Math.max(0, plain.length - (plain[plain.length - 1] ?? 0))));
    }),
    genPrivateKey: f([S], ([t]) => {
      switch (t as string) {
        case '':
        case 'rsa':
          return keyPem(pooled('rsa'));
        case 'dsa':
        case 'ecdsa':
        case 'ed25519':
          return keyPem(pooled(t as 'dsa' | 'ecdsa' | 'ed25519'));
        default:
          return `Unknown type ${t as string}`;
      }
    }),
    genCA: f([S, V], ([cn, days]) => ca(cn ?? null, days ?? null, createPrivateKey(poolKey()))),
    genCAWithKey: f([S, V, S], ([cn, days, pem]) => ca(cn ?? null, days ?? null, withKey(pem ?? null))),
    genSelfSignedCert: f([S, A, A, V], ([cn, ips, dns, days]) => certificate(cn as string, ips ?? null, dns ?? null, days ?? null, createPrivateKey(poolKey()))),
    genSelfSignedCertWithKey: f([S, A, A, V, S], ([cn, ips, dns, days, pem]) => certificate(cn as string, ips ?? null, dns ?? null, days ?? null, withKey(pem ?? null))),
    genSignedCert: f([S, A, A, V, C], ([cn, ips, dns, days, c]) => certificate(cn as string, ips ?? null, dns ?? null, days ?? null, createPrivateKey(poolKey()), c ?? null)),
 genSignedCertWithKey: f([S, A, A, V, C, S], ([cn, ips, dns, days, c, pem]) => certificate(cn as string, ips ?? null, dns ?? null, days ?? null, withKey(pem ?? null), c ?? null)),
    buildCustomCert: f([S, S], ([b64cert, b64key]) => {
      const cert = goB64Decode(b64cert as string);
      if (cert.error !== undefined) throw new FuncError('unable to decode base64 certificate');
      const key = goB64Decode(b64key as string);
      if (key.error !== undefined) throw new FuncError('unable to decode base64 private key');
      const certText = cert.bytes.toString('utf8');
      if (!/-----BEGIN [^-]+-----/.test(certText)) throw new FuncError('unable to decode certificate');
      if (!readCertificatePem(certText)) throw new FuncError('error parsing certificate: decodedCert.Bytes: x509: malformed certificate');
      try {
        parseKeyPem(key.bytes.toString('utf8'));
      } catch (e) {
        if (e instanceof FuncError) throw new FuncError(`error parsing private key: ${e.message}`);
        throw e;
      }
      return cert_(certText, key.bytes.toString('utf8'));
    }),
  };
}
