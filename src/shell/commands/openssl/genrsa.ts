/**
 * `openssl genrsa [-out F] [BITS]` (OpenSSL 3.0 apps/genrsa.c): a PKCS#8 RSA key, 2048 bits unless
 * BITS says otherwise. Options end at the first word that is not one (opt.c), and a single
 * argument is the size: more are `Extra arguments given.`, a non-number is opt_int's `Can't
 * parse`, zero or less fails silently. The output file is opened before the key is made, so a size
 * the provider refuses (under 512 bits: rsa_gen_set_params) leaves it empty. The default callback
 * prints nothing without -verbose. RSA key generation cannot be seeded, so the key comes from the
 * lab's pool of its size (sim/pki/user-key-pool.ts), picked with the seeded random source.
 * Messages recorded from /usr/bin/openssl 3.0.19 (Ubuntu 24.04).
 */
import type { CommandContext, CommandResult } from '../../types.js';
import { POOLED_RSA_BITS, pooledRsaKey } from '../../../sim/pki/user-key-pool.js';
import { fail, parseOpts, writeFile } from './args.js';

const TID = '40C7C49B9D7F0000';
const VALUES = ['out', 'passout'];

/** The words from the first non-option on (opt_rest): a value after an option that takes one is not it. */
function restArgs(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('-') || a === '-') return i;
    if (a === '--') return i + 1;
    if (VALUES.includes(a.replace(/^--?/, ''))) i++;
  }
  return argv.length;
}

export function genrsa(ctx: CommandContext, argv: readonly string[]): CommandResult {
  const at = restArgs(argv);
  const o = parseOpts('genrsa', argv.slice(0, at), { values: VALUES, flags: ['traditional', 'aes256', 'des3', 'quiet', 'verbose'] });
  if (!o.ok) return o.result;
  const rest = argv.slice(at);
  if (rest.length > 1) return fail('Extra arguments given.\ngenrsa: Use -help for summary.\n');
  let bits = 2048;
  if (rest.length === 1) {
    if (!/^[-+]?\d+$/.test(rest[0]!)) return fail(`genrsa: Can't parse "${rest[0]}" as a number\n`);
    bits = Number(rest[0]);
    if (bits <= 0) return fail('');
  }
  const out = o.values.get('out');
  if (out) writeFile(ctx, out, '', 0o600);
  if (bits < 512) return fail(`Error setting RSA length\n${TID}:error:1C8000AB:Provider routines:rsa_gen_set_params:key size too small:../providers/implementations/keymgmt/rsa_kmgmt.c:509:\n`);
  const key = pooledRsaKey(bits, ctx.cluster?.random);
  if (key === undefined) return fail(`cka-lab: keeps pools of ${POOLED_RSA_BITS.join(', ')}-bit RSA keys only (RSA key generation cannot be seeded)\n`);
  if (out) {
    writeFile(ctx, out, key, 0o600);
    return { stdout: '', stderr: '', exitCode: 0 };
  }
  return { stdout: key, stderr: '', exitCode: 0 };
}
