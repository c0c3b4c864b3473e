/**
 * `openssl rsa` and `openssl pkey` (OpenSSL 3.0 apps/rsa.c, apps/pkey.c): read a private key
 * (PKCS#1 or PKCS#8 PEM) or, with `-pubin`, a public key, and write it back as PEM or DER
 * (`-outform der`), the public half with `-pubout`. `rsa -noout -modulus` prints the modulus, the
 * classic check that a key belongs to a certificate (`openssl x509 -noout -modulus`). `rsa` says
 * `writing RSA key` on stderr when it writes a key; `pkey` says nothing. Private keys are written
 * as PKCS#8 (`BEGIN PRIVATE KEY`), PKCS#1 with `rsa -traditional`. Messages recorded from
 * OpenSSL 3.0.19.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { CommandContext, CommandResult } from '../../types.js';
import { cannotOpen, fail, parseOpts, readFile, writeFile } from './args.js';
import { bytesOf } from './dgst.js';

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

function keyCommand(cmd: 'rsa' | 'pkey', ctx: CommandContext, argv: readonly string[]): CommandResult {
  const o = parseOpts(cmd, argv, {
    values: ['in', 'out', 'inform', 'outform', 'passin', 'passout'],
    flags: ['pubin', 'pubout', 'noout', ...(cmd === 'rsa' ? ['modulus', 'traditional', 'RSAPublicKey_in'] : [])],
  });
  if (!o.ok) return o.result;
  const pubin = o.flags.includes('pubin') || o.flags.includes('RSAPublicKey_in');
  const input = o.values.get('in');
  const text = input === undefined ? ctx.stdin : readFile(ctx, input);
  const label = input ?? '<stdin>';
  if (text === undefined) return fail(cannotOpen(pubin ? (cmd === 'pkey' ? 'public key of Public Key' : 'public key') : cmd === 'pkey' ? 'key' : 'private key', input!));
  const inDer = /^der$/i.test(o.values.get('inform') ?? '');
  const key = loadKey(text, pubin, inDer);
  if (!key) {
    const what = pubin ? 'public key' : cmd === 'pkey' ? 'key' : 'private key';
    const store = pubin && /PRIVATE KEY-----/.test(text) ? `${TID}:error:1608010C:STORE routines:ossl_store_handle_load_result:unsupported:../crypto/store/store_result.c:149:\n` : '';
    return fail(`Could not read ${what} from ${label}\n${store}`);
  }
  const publicOut = pubin || o.flags.includes('pubout');
  let out = '';
  let stderr = '';
  if (o.flags.includes('modulus')) {
    const n = Buffer.from((key.type === 'private' ? createPublicKey(key) : key).export({ format: 'jwk' }).n ?? '', 'base64url');
    out += `Modulus=${modulusHex(n)}\n`;
  }
  if (!o.flags.includes('noout')) {
    const der = /^der$/i.test(o.values.get('outform') ?? '');
    const pubKey = key.type === 'private' ? createPublicKey(key) : key;
    const type = publicOut ? 'spki' : o.flags.includes('traditional') ? 'pkcs1' : 'pkcs8';
    const src = publicOut ? pubKey : key;
    const body = der ? src.export({ type, format: 'der' }).toString('latin1') : String(src.export({ type, format: 'pem' }));
    if (cmd === 'rsa') stderr += 'writing RSA key\n';
    const target = o.values.get('out');
    if (target) writeFile(ctx, target, body, publicOut ? 0o644 : 0o600);
    else out += body;
  }
  return { stdout: out, stderr, exitCode: 0 };
}

export function rsa(ctx: CommandContext, argv: readonly string[]): CommandResult {
  return keyCommand('rsa', ctx, argv);
}

export function pkey(ctx: CommandContext, argv: readonly string[]): CommandResult {
  return keyCommand('pkey', ctx, argv);
}
