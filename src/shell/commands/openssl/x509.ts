/**
 * `openssl x509` (OpenSSL 3.0 apps/x509.c): print a certificate's fields in the order the options
 * were given (`-noout -subject -enddate`, `-text`, `-ext subjectAltName`, `-fingerprint`,
 * `-checkend N`), or sign a request with `-req -CA -CAkey` into a version-1 certificate (no
 * extension file: no extensions), its serial from `-set_serial`, the CA's `.srl` file, or random
 * with `-CAcreateserial`.
 */
import type { CommandContext, CommandResult } from '../../types.js';
import { pemDecode } from '../../../sim/pki/der.js';
import { parseCsrPem, signV1 } from '../../../sim/pki/csr.js';
import { keyMatches, onelineName, parseCertificate, readCertificatePem } from '../../../sim/pki/x509.js';
import { cannotOpen, fail, parseOpts, readFile, writeFile } from './args.js';
import { modulusHex } from './pkey.js';
import { certificateText, extLines, fingerprint, opensslTime, serialLine } from './text.js';

const PRINTS = ['text', 'subject', 'issuer', 'dates', 'enddate', 'startdate', 'serial', 'fingerprint', 'ext', 'checkend', 'pubkey', 'modulus'];

/** 159 random bits from the session's random source (apps/lib/apps.c rand_serial: SERIAL_RAND_BITS). */
export function randomSerial(ctx: CommandContext): bigint {
  const r = ctx.cluster?.random;
  let v = 0n;
  for (let i = 0; i < 5; i++) v = (v << 32n) | BigInt(r ? r.nextU32() : 0x5a5a5a5a + i);
  return v & ((1n << 159n) - 1n);
}

function srlPath(ca: string): string {
  const slash = ca.lastIndexOf('/');
  const dot = ca.lastIndexOf('.');
  return `${dot > slash ? ca.slice(0, dot) : ca}.srl`;
}

export function x509(ctx: CommandContext, argv: readonly string[]): CommandResult {
  const o = parseOpts('x509', argv, {
    values: ['in', 'out', 'ext', 'CA', 'CAkey', 'CAserial', 'days', 'set_serial', 'checkend', 'nameopt', 'inform', 'outform', 'signkey'],
    flags: ['noout', 'text', 'subject', 'issuer', 'dates', 'enddate', 'startdate', 'serial', 'fingerprint', 'sha1', 'sha256', 'req', 'CAcreateserial', 'pubkey', 'modulus'],
  });
  if (!o.ok) return o.result;
  const input = o.values.get('in');
  const text = input === undefined ? ctx.stdin : readFile(ctx, input);
  let stderr = '';
  let certPem: string;
  if (o.flags.includes('req')) {
    if (text === undefined) return fail(cannotOpen('certificate request', input!));
    const csr = parseCsrPem(text);
    if (!csr) return fail(`Unable to load certificate request input\n`);
    if (!csr.signatureOk) return fail('Certificate request self-signature did not match the contents\n');
    stderr += `Certificate request self-signature ok\nsubject=${onelineName(csr.subject)}\n`;
    const caPath = o.values.get('CA');
    const caKeyPath = o.values.get('CAkey') ?? caPath;
    if (!caPath) return fail(`x509: Cannot sign a request without -CA or -signkey\n`);
    const caText = readFile(ctx, caPath);
    if (caText === undefined) return fail(stderr + cannotOpen('CA certificate', caPath));
    const ca = readCertificatePem(caText);
    const caKey = caKeyPath ? readFile(ctx, caKeyPath) : undefined;
    if (caKey === undefined) return fail(stderr + cannotOpen('CA private key', caKeyPath!));
    if (!ca || !keyMatches(ca, caKey)) return fail(`${stderr}CA certificate and CA private key do not match\n`);
    let serial: bigint;
    const set = o.values.get('set_serial');
    const srl = o.values.get('CAserial') ?? srlPath(caPath);
    if (set !== undefined) serial = BigInt(set);
    else {
      const prev = readFile(ctx, srl);
      if (prev !== undefined) serial = BigInt(`0x${prev.trim() || '0'}`) + 1n;
      else if (o.flags.includes('CAcreateserial')) serial = randomSerial(ctx);
      else return fail(`${stderr}${srl}: No such file or directory\n`);
      let hex = serial.toString(16).toUpperCase();
      if (hex.length % 2) hex = `0${hex}`;
      writeFile(ctx, srl, `${hex}\n`);
    }
    const days = Number(o.values.get('days') ?? '30');
    const now = Math.floor(ctx.now() / 1000) * 1000;
    certPem = signV1(csr, ca, caKey, serial, now, now + days * 86_400_000);
  } else {
    if (text === undefined) return fail(cannotOpen('certificate', input!));
    const der = pemDecode(text)[0];
    const cert = der ? parseCertificate(der) : undefined;
    if (!cert) return fail('Unable to load certificate\n');
    certPem = text.slice(text.indexOf('-----BEGIN CERTIFICATE-----'), text.indexOf('-----END CERTIFICATE-----') + 26);
  }
  const cert = readCertificatePem(certPem)!;
  let out = '';
  let exitCode = 0;
  for (const name of o.order) {
    if (!PRINTS.includes(name)) continue;
    switch (name) {
      case 'text':
        out += certificateText(cert);
        break;
      case 'subject':
        out += `subject=${onelineName(cert.subject)}\n`;
        break;
      case 'issuer':
        out += `issuer=${onelineName(cert.issuer)}\n`;
        break;
      case 'dates':
        out += `notBefore=${opensslTime(cert.notBefore)}\nnotAfter=${opensslTime(cert.notAfter)}\n`;
        break;
      case 'startdate':
        out += `notBefore=${opensslTime(cert.notBefore)}\n`;
        break;
      case 'enddate':
        out += `notAfter=${opensslTime(cert.notAfter)}\n`;
        break;
      case 'serial':
        out += `${serialLine(cert)}\n`;
        break;
      case 'fingerprint':
        out += `${fingerprint(cert, o.flags.includes('sha256') ? 'sha256' : 'sha1')}\n`;
        break;
      case 'ext':
      {
        const e = extLines(cert, o.values.get('ext')!.split(','));
        // the "none" notice is a diagnostic, written to stderr
        if (e === 'No extensions in certificate\n') stderr += e;
        else out += e;
      }
        break;
      case 'pubkey':
        out += `${cert.spki.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '').replace(/^/, '-----BEGIN PUBLIC KEY-----\n')}\n-----END PUBLIC KEY-----\n`;
        break;
      case 'modulus':
        out += cert.ecPoint ? 'Modulus=No modulus for this public key type\n' : `Modulus=${modulusHex(cert.modulus)}\n`;
        break;
      case 'checkend': {
        const secs = Number(o.values.get('checkend'));
        const expires = cert.notAfter < ctx.now() + secs * 1000;
        out += expires ? 'Certificate will expire\n' : 'Certificate will not expire\n';
        if (expires) exitCode = 1;
        break;
      }
    }
  }
  if (!o.flags.includes('noout')) {
    const pem = certPem.endsWith('\n') ? certPem : `${certPem}\n`;
    const target = o.values.get('out');
    if (target) writeFile(ctx, target, pem);
    else out += pem;
  } else if (o.values.get('out')) writeFile(ctx, o.values.get('out')!, '');
  return { stdout: out, stderr, exitCode };
}
