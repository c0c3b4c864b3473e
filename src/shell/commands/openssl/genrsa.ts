/**
 * `openssl genrsa [-out F] [BITS]` (OpenSSL 3.0 apps/genrsa.c): a PKCS#8 RSA key. RSA key
 * generation cannot be seeded, so the key comes from the lab's fixed pool (sim/pki/user-keys.ts),
 * picked with the cluster's seeded random source: the same seed and commands give the same key.
 */
import type { CommandContext, CommandResult } from '../../types.js';
import { USER_KEYS } from '../../../sim/pki/user-keys.js';
import { fail, parseOpts, writeFile } from './args.js';

export function genrsa(ctx: CommandContext, argv: readonly string[]): CommandResult {
  const o = parseOpts('genrsa', argv, { values: ['out', 'passout'], flags: ['traditional', 'aes256', 'des3', 'quiet', 'verbose'] });
  if (!o.ok) return o.result;
  const bits = o.args[0] ?? '2048';
  if (!/^\d+$/.test(bits)) return fail(`genrsa: Extra arguments given.\ngenrsa: Use -help for summary.\n`);
  if (Number(bits) !== 2048) return fail(`genrsa: cka-lab keeps a pool of 2048-bit keys only\n`);
  const key = USER_KEYS[ctx.cluster ? ctx.cluster.random.int(USER_KEYS.length) : 0]!;
  const out = o.values.get('out');
  if (out) {
    writeFile(ctx, out, key, 0o600);
    return { stdout: '', stderr: '', exitCode: 0 };
  }
  return { stdout: key, stderr: '', exitCode: 0 };
}
