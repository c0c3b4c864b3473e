/**
 * `openssl rsa` and `openssl pkey` (OpenSSL 3.0 apps/rsa.c, apps/pkey.c): read a private key
 * (PKCS#1 or PKCS#8 PEM) or, with `-pubin`, a public key, and write it back as PEM or DER
 * (`-outform der`), the public half with `-pubout`. `rsa -noout -modulus` prints the modulus, the
 * classic check that a key belongs to a certificate (`openssl x509 -noout -modulus`). `rsa` says
 * `writing RSA key` on stderr when it writes a key; `pkey` says nothing. Private keys are written
 * as PKCS#8 (`BEGIN PRIVATE KEY`), PKCS#1 with `rsa -traditional`; `ec` writes SEC 1 (`BEGIN EC
 * PRIVATE KEY`). `-text` prints the key's fields after the key (text.ts keyText); like the real
 * 3.0 `ec`, it prints whatever key it read. Messages recorded from OpenSSL 3.0.19.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { CommandContext, CommandResult } from '../../types.js';
import { cannotOpen, fail, parseOpts, readFile, writeFile } from './args.js';
import { bytesOf } from './dgst.js';
import { keyText } from './text.js';

const TID = '40C7C49B9D7F0000';

/** A key's modulus as OpenSSL prints it: upper-case hex without leading zero bytes. */
export function modulusHex(n: Buffer): string {
  let i = 0;
  while (i < n.length - 1 && n[i] === 0) i++;
  return n.subarray(i).toString('hex').toUpperCase();
}

function loadKey(text: string, pub: boolean, der: boolean): KeyObject | undefined {
  try {
    if (der) {
      const bytes = bytesOf(text);
      return pub ? createPublicKey({ key: bytes, format: 'der', type: 'spki' }) : createPrivateKey({ key: bytes, format: 'der', type: 'pkcs8' });
    }
    if (pub) return /-----BEGIN (RSA )?PUBLIC KEY-----/.test(text) ? createPublicKey(text) : undefined;
    return /-----BEGIN (RSA |EC )?PRIVATE KEY-----/.test(text) ? createPrivateKey(text) : undefined;
  } catch {
    return undefined;
  }
}

function keyCommand(cmd: 'rsa' | 'pkey' | 'ec', ctx: CommandContext, argv: readonly string[]): CommandResult {
  const o = parseOpts(cmd, argv, {
    values: ['in', 'out', 'inform', 'outform', 'passin', 'passout'],
    flags: ['pubin', 'pubout', 'noout', 'text', ...(cmd === 'rsa' ? ['modulus', 'traditional', 'RSAPublicKey_in'] : []), ...(cmd === 'pkey' ? ['text_pub'] : [])],
  });
  if (!o.ok) return o.result;
  // apps/ec.c announces the read before it tries, and gives up with `unable to load Key`
  const announce = cmd === 'ec' ? 'read EC key\n' : '';
  const unable = cmd === 'ec' ? 'unable to load Key\n' : '';
  const pubin = o.flags.includes('pubin') || o.flags.includes('RSAPublicKey_in');
  const input = o.values.get('in');
  const text = input === undefined ? ctx.stdin : readFile(ctx, input);
  const label = input ?? '<stdin>';
  if (text === undefined) return fail(announce + cannotOpen(pubin ? (cmd === 'pkey' ? 'public key of Public Key' : 'public key') : cmd === 'pkey' ? 'key' : 'private key', input!) + unable);
  const inDer = /^der$/i.test(o.values.get('inform') ?? '');
  const key = loadKey(text, pubin, inDer);
  if (!key) {
    const what = pubin ? 'public key' : cmd === 'pkey' ? 'key' : 'private key';
    const store = pubin && /PRIVATE KEY-----/.test(text) ? `${TID}:error:1608010C:STORE routines:ossl_store_handle_load_result:unsupported:../crypto/store/store_result.c:149:\n` : '';
    return fail(`${announce}Could not read ${what} from ${label}\n${store}${unable}`);
  }
  const publicOut = pubin || o.flags.includes('pubout');
  let out = '';
  let stderr = announce;
  const textOut = o.flags.includes('text') || o.flags.includes('text_pub') ? keyText(key, publicOut || o.flags.includes('text_pub')) : '';
  if (o.flags.includes('modulus')) {
    const n = Buffer.from((key.type === 'private' ? createPublicKey(key) : key).export({ format: 'jwk' }).n ?? '', 'base64url');
    out += `Modulus=${modulusHex(n)}\n`;
  }
  if (!o.flags.includes('noout')) {
    const der = /^der$/i.test(o.values.get('outform') ?? '');
    const pubKey = key.type === 'private' ? createPublicKey(key) : key;
    // ec writes the SEC 1 form (`EC PRIVATE KEY`), pkey and rsa PKCS#8 (rsa -traditional: PKCS#1)
    const type = publicOut ? 'spki' : cmd === 'ec' && key.asymmetricKeyType === 'ec' ? 'sec1' : o.flags.includes('traditional') ? 'pkcs1' : 'pkcs8';
    const src = publicOut ? pubKey : key;
    const body = der ? src.export({ type, format: 'der' }).toString('latin1') : String(src.export({ type, format: 'pem' }));
    if (cmd !== 'pkey') stderr += `writing ${cmd === 'rsa' ? 'RSA' : 'EC'} key\n`;
    const target = o.values.get('out');
    if (target) writeFile(ctx, target, body, publicOut ? 0o644 : 0o600);
    else out += body;
  }
  // the key is written before its text (apps/pkey.c, apps/ec.c)
  return { stdout: out + textOut, stderr, exitCode: 0 };
}

export function rsa(ctx: CommandContext, argv: readonly string[]): CommandResult {
  return keyCommand('rsa', ctx, argv);
}

/** `openssl ec` (apps/ec.c): `read EC key`, then the key in SEC 1 form (`writing EC key`), `-text` its fields. */
export function ec(ctx: CommandContext, argv: readonly string[]): CommandResult {
  return keyCommand('ec', ctx, argv);
}

export function pkey(ctx: CommandContext, argv: readonly string[]): CommandResult {
  return keyCommand('pkey', ctx, argv);
}
