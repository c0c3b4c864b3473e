/**
 * `openssl req` (OpenSSL 3.0 apps/req.c): a new PKCS#10 request (`-new -key K`, `-newkey rsa:2048`)
 * or, with `-x509`, a self-signed certificate (sim/pki/req-x509.ts: the v3_ca extensions plus
 * `-addext`), subject from `-subj`, validity `-days` (30) from the session clock, serial
 * `-set_serial` or 159 random bits from the session's random source. Without `-key` a key is
 * generated (`-newkey rsa:BITS`, `rsa` meaning 2048): it comes from the lab's pool of that size
 * (sim/pki/user-key-pool.ts) picked with the session's random source, and is written unencrypted
 * (`-nodes`/`-noenc`) as PKCS#8 to `-keyout` or `privkey.pem`, mode 0600. A size under 512 bits is
 * the provider's `Error setting keysize`. Key generation prints the progress callback's characters
 * as 3.0 does for an RSA key: per prime one line of `.` (candidate) and `+` (Miller-Rabin round),
 * with the two auxiliary primes each closed by 65 `+` and `*` and the prime by 65 `+`, then
 * `-----`; a larger prime takes more candidates. The real dots are random; here they are a fixed
 * function of the key, so a run replays the same.
 * Messages and their order (option errors, -addext errors before the key, subject errors after the
 * key is written) were recorded from /usr/bin/openssl 3.0.19; a pass phrase or DN prompt reads end-of-file, as it would from /dev/null.
 * `-newkey ec -pkeyopt ec_paramgen_curve:P-256` (or `ec:PARAMFILE`) makes a P-256 key from the
 * seeded random source (sim/pki/ec.ts), and a request signed with an EC key is ecdsa-with-SHA256.
 * `-text`, `-subject`, `-pubkey` print the new request (or certificate) before its PEM (`-noout`:
 * instead of it); `-in FILE` without -new reads a request (`-verify` checks its self-signature).
 */
import { createHash, createPrivateKey } from 'node:crypto';
import type { CommandContext, CommandResult } from '../../types.js';
import { createCsr, parseCsrPem, type ParsedCsr } from '../../../sim/pki/csr.js';
import { oid, pemDecode, pemEncode } from '../../../sim/pki/der.js';
import { generateP256Key, PRIME256V1_OID } from '../../../sim/pki/ec.js';
import { onelineName, readCertificatePem } from '../../../sim/pki/x509.js';
import { INVALID_CURVE, isP256 } from './ecparam.js';
import { certificateText, requestText } from './text.js';
import { createSelfSignedCertificate, extensionRequest, parseAddext, parseOpensslSubject, type V3Extension } from '../../../sim/pki/req-x509.js';
import { POOLED_RSA_BITS, pooledRsaKey } from '../../../sim/pki/user-key-pool.js';
import { cannotOpen, fail, parseOpts, readFile, writeFile } from './args.js';
import { randomSerial } from './x509.js';

const TID = '40C7C49B9D7F0000';
const USAGE = 'req: Use -help for summary.\n';

/** The progress characters of one RSA key generation of `bits`, a fixed function of the key. */
export function keygenProgress(keyPem: string, bits = 2048): string {
  let pool = createHash('sha256').update(keyPem).digest();
  let pos = 0;
  let round = 0;
  const next = (n: number): number => {
    if (pos >= pool.length) {
      pool = createHash('sha256').update(pool).update(String(++round)).digest();
      pos = 0;
    }
    return pool[pos++]! % n;
  };
  const segment = (min: number, spread: number): string => {
    let s = '';
    const tokens = min + next(spread);
    for (let i = 0; i < tokens; i++) s += `${'.'.repeat(1 + next(12))}+`;
    return `${s}${'.'.repeat(1 + next(4))}${'+'.repeat(65)}`;
  };
  // candidates for the prime grow with its length (a 4096-bit key's lines run to about 2,000 characters)
  const scale = bits / 2048;
  const line = (): string => `${segment(0, 5)}*${segment(0, 5)}*${segment(Math.round(30 * scale), Math.round(120 * scale))}\n`;
  return `${line()}${line()}-----\n`;
}

/** What the DN prompt prints when its input ends (no -subj, stdin at end of file). */
const DN_PROMPT_EOF =
  'You are about to be asked to enter information that will be incorporated\ninto your certificate request.\nWhat you are about to enter is what is called a Distinguished Name or a DN.\n' +
  "There are quite a few fields but you can leave some blank\nFor some fields there will be a default value,\nIf you enter '.', the field will be left blank.\n-----\nCountry Name (2 letter code) [AU]:Error making certificate request\n";

/** The pass phrase prompt for an encrypted -keyout reading end of file. */
const PASS_PROMPT_EOF =
  'Enter PEM pass phrase:\n' +
  `${TID}:error:1400006B:UI routines:UI_process:processing error:../crypto/ui/ui_lib.c:573:while reading strings\n` +
  `${TID}:error:0480006D:PEM routines:PEM_def_callback:problems getting password:../crypto/pem/pem_lib.c:62:\n` +
  `${TID}:error:07880109:common libcrypto routines:do_ui_passphrase:interrupted or cancelled:../crypto/passphrase.c:184:\n` +
  `${TID}:error:1C80009F:Provider routines:p8info_to_encp8:unable to get passphrase:../providers/implementations/encode_decode/encode_key2any.c:115:\n` +
  'cka-lab: pass phrase prompts are not simulated; add -nodes (or -noenc) to write the key unencrypted\n';

function parseSerial(v: string): bigint | undefined {
  if (/^0[xX][0-9a-fA-F]+$/.test(v) || /^\d+$/.test(v)) return BigInt(v);
  return undefined;
}

export function req(ctx: CommandContext, argv: readonly string[]): CommandResult {
  // opt.c walks the options in order: a repeated -addext and an unparsable -days stop it where they stand
  const addexts: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]!.replace(/^--?/, '');
    if (!argv[i]!.startsWith('-') || i + 1 >= argv.length) continue;
    const v = argv[i + 1]!;
    if (name === 'addext') {
      const eq = v.indexOf('=');
      const key = eq < 0 ? undefined : v.slice(0, eq).trim();
      if (key === undefined || seen.has(key)) return fail(`Duplicate extension: ${v}\n${USAGE}`);
      seen.add(key);
      addexts.push(v);
      i++;
    } else if (name === 'days') {
      // -days is a positive int ('p' in req.c's option table: opt.c opt_posint)
      if (!/^-?\d+$/.test(v)) return fail(`req: Can't parse "${v}" as a number\n${USAGE}`);
      if (Number(v) <= 0) return fail(`req: Non-positive number "${v}" for option -days\n${USAGE}`);
      i++;
    }
  }
  const o = parseOpts('req', argv, {
    values: ['key', 'subj', 'out', 'config', 'days', 'keyout', 'newkey', 'addext', 'set_serial', 'passout', 'in', 'pkeyopt'],
    flags: ['new', 'x509', 'nodes', 'noenc', 'sha256', 'batch', 'utf8', 'noout', 'text', 'subject', 'verify', 'pubkey'],
  });
  if (!o.ok) return o.result;
  const x509 = o.flags.includes('x509');
  const newreq = o.flags.includes('new') || x509 || o.values.has('newkey');
  if (!newreq) {
    const input = o.values.get('in');
    if (input === undefined) return fail('req: cka-lab simulates `openssl req -new`, `-newkey`, `-x509` and `-in FILE` only\n');
    return existingRequest(ctx, o.values, o.flags, input);
  }
  let stderr = '';
  if (o.values.has('days') && !x509) stderr += 'Ignoring -days without -x509; not generating a certificate\n';
  let serial: bigint | undefined;
  const setSerial = o.values.get('set_serial');
  if (setSerial !== undefined) {
    serial = parseSerial(setSerial);
    if (serial === undefined) return fail(`${USAGE}${TID}:error:11000064:X509 V3 routines:s2i_ASN1_INTEGER:bn dec2bn error:../crypto/x509/v3_utl.c:231:\n`);
  }
  const exts: V3Extension[] = [];
  for (const spec of addexts) {
    const e = parseAddext(spec);
    if ('error' in e) return fail(`${stderr}${e.error.startsWith('cka-lab') ? '' : 'Error checking extensions defined using -addext\n'}${e.error}`);
    exts.push(e);
  }
  let keyPem: string;
  const keyPath = o.values.get('key');
  if (keyPath !== undefined) {
    const text = readFile(ctx, keyPath);
    if (text === undefined) return fail(stderr + cannotOpen('private key', keyPath));
    try {
      createPrivateKey(text);
    } catch {
      return fail(`${stderr}Could not read private key from ${keyPath}\n`);
    }
    keyPem = text;
  } else {
    const spec = o.values.get('newkey') ?? 'rsa:2048';
    const ec = ecNewkey(ctx, spec, o.values.get('pkeyopt'));
    const m = ec ? null : /^(?:rsa:)?(\d+)$|^rsa$/.exec(spec);
    if (ec && 'error' in ec) return fail(stderr + ec.error);
    if (ec) {
      keyPem = ec.keyPem;
      // an EC key has no progress callback: only the separator
      stderr += '-----\n';
    } else {
      if (!m) return fail(`${stderr}cka-lab: -newkey ${spec} is not simulated; use -newkey rsa:BITS or ec -pkeyopt ec_paramgen_curve:P-256\n`);
      const bits = m[1] === undefined ? 2048 : Number(m[1]);
      if (bits < 512) return fail(`${stderr}Error setting keysize\n${TID}:error:1C8000AB:Provider routines:rsa_gen_set_params:key size too small:../providers/implementations/keymgmt/rsa_kmgmt.c:509:\n`);
      const pooled = pooledRsaKey(bits, ctx.cluster?.random);
      if (pooled === undefined) return fail(`${stderr}cka-lab: keeps pools of ${POOLED_RSA_BITS.join(', ')}-bit RSA keys only (RSA key generation cannot be seeded)\n`);
      keyPem = pooled;
      stderr += keygenProgress(keyPem, bits);
    }
    const keyout = o.values.get('keyout') ?? 'privkey.pem';
    if (!o.flags.includes('nodes') && !o.flags.includes('noenc') && !o.values.has('passout')) {
      writeFile(ctx, keyout, '', 0o600);
      return fail(stderr + PASS_PROMPT_EOF);
    }
    writeFile(ctx, keyout, keyPem, 0o600);
  }
  const subj = o.values.get('subj');
  if (subj === undefined) return fail(stderr + DN_PROMPT_EOF);
  const name = parseOpensslSubject(subj, 'req');
  if ('error' in name) return fail(stderr + name.error);
  stderr += name.warnings;
  let pem: string;
  if (x509) {
    const now = Math.floor(ctx.now() / 1000) * 1000;
    const days = Number(o.values.get('days') ?? '30');
    pem = createSelfSignedCertificate({ subject: name.name, keyPem, serial: serial ?? randomSerial(ctx), notBefore: now, notAfter: now + days * 86_400_000, addext: exts });
  } else pem = createCsr(name.name, keyPem, exts.length ? [extensionRequest(exts)] : []);
  const printed = x509 ? certificatePrints(pem, o.flags) : requestPrints(parseCsrPem(pem)!, o.flags);
  const out = o.values.get('out');
  if (o.flags.includes('noout')) return { stdout: printed, stderr, exitCode: 0 };
  if (out) writeFile(ctx, out, pem);
  return { stdout: printed + (out ? '' : pem), stderr, exitCode: 0 };
}

/** What `-text`, `-subject` and `-pubkey` print of a request, in req.c's order (text, subject, public key). */
function requestPrints(csr: ParsedCsr, flags: readonly string[]): string {
  let out = '';
  if (flags.includes('text')) out += requestText(csr);
  if (flags.includes('subject')) out += `subject=${onelineName(csr.subject)}\n`;
  if (flags.includes('pubkey')) out += pemEncode(csr.spki, 'PUBLIC KEY');
  return out;
}

function certificatePrints(pem: string, flags: readonly string[]): string {
  const cert = readCertificatePem(pem)!;
  let out = '';
  if (flags.includes('text')) out += certificateText(cert);
  if (flags.includes('subject')) out += `subject=${onelineName(cert.subject)}\n`;
  if (flags.includes('pubkey')) out += pemEncode(cert.spki, 'PUBLIC KEY');
  return out;
}

/**
 * `-newkey ec -pkeyopt ec_paramgen_curve:P-256` or `-newkey ec:PARAMFILE` (an `EC PARAMETERS` file
 * from `openssl ecparam -name prime256v1`): a P-256 key from the session's random source. Undefined
 * when the spec is not an EC one.
 */
function ecNewkey(ctx: CommandContext, spec: string, pkeyopt: string | undefined): { keyPem: string } | { error: string } | undefined {
  if (!/^ec(:|$)/i.test(spec)) return undefined;
  let p256: boolean | undefined;
  if (spec.includes(':')) {
    const file = spec.slice(3);
    const text = readFile(ctx, file);
    if (text === undefined) return { error: `Can't open "${file}" for reading, No such file or directory\n` };
    const params = pemDecode(text, 'EC PARAMETERS')[0];
    p256 = params?.equals(oid(PRIME256V1_OID)) ?? false;
    if (!p256) return { error: `cka-lab: -newkey ec:FILE needs the P-256 parameters of \`openssl ecparam -name prime256v1\`\n` };
  } else {
    const curve = /^ec_paramgen_curve:(.*)$/.exec(pkeyopt ?? '')?.[1];
    if (curve === undefined) return { error: 'req: Error generating ec key\n' };
    p256 = curve === 'P-256' || curve === 'prime256v1' ? true : isP256(curve);
    if (p256 === undefined) return { error: `cka-lab: the lab generates P-256 keys only (prime256v1); ${curve} is not simulated\n` };
    if (!p256) return { error: `req: Error generating ec key\n${INVALID_CURVE}` };
  }
  return { keyPem: String(generateP256Key(ctx.cluster?.random).export({ type: 'pkcs8', format: 'pem' })) };
}

/** `openssl req -in FILE` without -new: read a request and print what was asked (`-verify` checks its self-signature). */
function existingRequest(ctx: CommandContext, values: Map<string, string>, flags: readonly string[], input: string): CommandResult {
  const text = readFile(ctx, input);
  if (text === undefined)
    return fail(
      `Can't open "${input}" for reading, No such file or directory\n${TID}:error:80000002:system library:BIO_new_file:No such file or directory:../crypto/bio/bss_file.c:67:calling fopen(${input}, r)\n` +
        `${TID}:error:10000080:BIO routines:BIO_new_file:no such file:../crypto/bio/bss_file.c:75:\nUnable to load X509 request\n`,
    );
  const csr = parseCsrPem(text);
  if (!csr) return fail(`Unable to load X509 request\n${TID}:error:0480006C:PEM routines:get_name:no start line:../crypto/pem/pem_lib.c:760:Expecting: CERTIFICATE REQUEST\n`);
  let stderr = '';
  if (flags.includes('verify')) {
    if (!csr.signatureOk) return fail('Certificate request self-signature verify failure\n');
    stderr += 'Certificate request self-signature verify OK\n';
  }
  const printed = requestPrints(csr, flags);
  if (flags.includes('noout')) return { stdout: printed, stderr, exitCode: 0 };
  const pem = pemEncode(pemDecode(text, 'CERTIFICATE REQUEST')[0]!, 'CERTIFICATE REQUEST');
  const out = values.get('out');
  if (out) writeFile(ctx, out, pem);
  return { stdout: printed + (out ? '' : pem), stderr, exitCode: 0 };
}
