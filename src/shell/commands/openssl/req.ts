/**
 * `openssl req -new -key K -subj "/CN=jane/O=dev" [-out F]` (OpenSSL 3.0 apps/req.c): a PKCS#10
 * request built with the DER codec (sim/pki/csr.ts); `-text`/`-noout` are not simulated.
 */
import { createPrivateKey } from 'node:crypto';
import type { CommandContext, CommandResult } from '../../types.js';
import { createCsr, parseSubjectArg } from '../../../sim/pki/csr.js';
import { cannotOpen, fail, parseOpts, readFile, writeFile } from './args.js';

export function req(ctx: CommandContext, argv: readonly string[]): CommandResult {
  const o = parseOpts('req', argv, { values: ['key', 'subj', 'out', 'config', 'days', 'keyout', 'newkey'], flags: ['new', 'nodes', 'noenc', 'sha256'] });
  if (!o.ok) return o.result;
  if (!o.flags.includes('new')) return fail('req: cka-lab simulates `openssl req -new` only\n');
  const keyPath = o.values.get('key');
  if (!keyPath) return fail('req: cka-lab needs an existing key: -key FILE (make one with openssl genrsa)\n');
  const keyPem = readFile(ctx, keyPath);
  if (keyPem === undefined) return fail(cannotOpen('private key', keyPath));
  try {
    createPrivateKey(keyPem);
  } catch {
    return fail(`Could not read private key from ${keyPath}\n`);
  }
  const subj = o.values.get('subj');
  if (subj === undefined) return fail('req: cka-lab needs the subject on the command line: -subj "/CN=NAME/O=GROUP"\n');
  const name = parseSubjectArg(subj);
  if (!Array.isArray(name)) return fail(`req: ${name.error}\n`);
  const pem = createCsr(name, keyPem);
  const out = o.values.get('out');
  if (out) writeFile(ctx, out, pem);
  return { stdout: out ? '' : pem, stderr: '', exitCode: 0 };
}
