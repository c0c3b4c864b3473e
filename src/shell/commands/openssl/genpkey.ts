/**
 * `openssl genpkey` (OpenSSL 3.0 apps/genpkey.c): a new private key in PKCS#8 form (`BEGIN
 * PRIVATE KEY`, file mode 0600), `-text` adding its fields after it. `-algorithm EC` needs
 * `-pkeyopt ec_paramgen_curve:NAME` (P-256 / prime256v1: the lab's curve; the key from the session's
 * seeded random source, sim/pki/ec.ts); `-algorithm RSA` takes `-pkeyopt rsa_keygen_bits:N` (2048)
 * and hands out a key of the lab's pools (sim/pki/user-key-pool.ts) with the progress characters
 * req prints. Messages recorded from /usr/bin/openssl 3.0.19 (Debian 12).
 */
import type { KeyObject } from 'node:crypto';
import { createPrivateKey } from 'node:crypto';
import type { CommandContext, CommandResult } from '../../types.js';
import { generateP256Key } from '../../../sim/pki/ec.js';
import { POOLED_RSA_BITS, pooledRsaKey } from '../../../sim/pki/user-key-pool.js';
import { fail, writeFile } from './args.js';
import { INVALID_CURVE } from './ecparam.js';
import { keygenProgress } from './req.js';
import { keyText } from './text.js';

const TID = '40C7C49B9D7F0000';
const VALUES = ['algorithm', 'pkeyopt', 'out', 'outform', 'pass', 'cipher', 'paramfile'];
const FLAGS = ['text', 'quiet'];

export function genpkey(ctx: CommandContext, argv: readonly string[]): CommandResult {
  const values = new Map<string, string>();
  const pkeyopts: string[] = [];
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const name = a.replace(/^--?/, '');
    if (a.startsWith('-') && VALUES.includes(name)) {
      const v = argv[i + 1];
      if (v === undefined) return fail(`genpkey: Option -${name} needs a value\ngenpkey: Use -help for summary.\n`);
      if (name === 'pkeyopt') pkeyopts.push(v);
      else values.set(name, v);
      i++;
    } else if (a.startsWith('-') && FLAGS.includes(name)) flags.add(name);
    // apps/genpkey.c takes an unknown option for a cipher's name
    else if (a.startsWith('-')) return fail(`genpkey: Unknown cipher: ${name}\ngenpkey: Use -help for summary.\n${TID}:error:0308010C:digital envelope routines:inner_evp_generic_fetch:unsupported:../crypto/evp/evp_fetch.c:386:Global default library context, Algorithm (${name} : 0), Properties (<null>)\n`);
    else return fail('genpkey: Use -help for summary.\n');
  }
  const alg = values.get('algorithm');
  if (alg === undefined) return fail('genpkey: Use -help for summary.\n');
  const opts = new Map<string, string>();
  for (const p of pkeyopts) {
    const at = p.indexOf(':');
    opts.set(at < 0 ? p : p.slice(0, at), at < 0 ? '' : p.slice(at + 1));
  }
  let key: KeyObject;
  let stderr = '';
  if (/^ec$/i.test(alg)) {
    for (const k of opts.keys())
      if (k !== 'ec_paramgen_curve' && k !== 'ec_param_enc')
        return fail(`genpkey: Error setting ${k}:${opts.get(k)} parameter:\n${TID}:error:03000093:digital envelope routines:default_fixup_args:command not supported:../crypto/evp/ctrl_params_translate.c:582:[action:2, state:4] name=${k}, value=${opts.get(k)}\n`);
    const curve = opts.get('ec_paramgen_curve');
    if (curve === undefined) return fail('genpkey: Error generating EC key\n');
    if (curve !== 'P-256' && curve !== 'prime256v1') {
      if (['P-384', 'P-521', 'secp384r1', 'secp521r1', 'secp256k1', 'P-224', 'secp224r1'].includes(curve)) return fail(`cka-lab: the lab generates P-256 keys only (prime256v1); ${curve} is not simulated\n`);
      return fail(`genpkey: Error generating EC key\n${INVALID_CURVE}`);
    }
    key = generateP256Key(ctx.cluster?.random);
  } else if (/^rsa$/i.test(alg)) {
    const bits = Number(opts.get('rsa_keygen_bits') ?? '2048');
    const pem = pooledRsaKey(bits, ctx.cluster?.random);
    if (pem === undefined) return fail(`cka-lab: keeps pools of ${POOLED_RSA_BITS.join(', ')}-bit RSA keys only (RSA key generation cannot be seeded)\n`);
    key = createPrivateKey(pem);
    if (!flags.has('quiet')) stderr += keygenProgress(pem, bits).replace(/-----\n$/, '');
  } else if (/^(ed25519|x25519|ed448|x448|dh|dsa|rsa-pss)$/i.test(alg)) return fail(`cka-lab: genpkey -algorithm ${alg} is not simulated; use EC (P-256) or RSA\n`);
  else
    return fail(`Error initializing ${alg} context\n${TID}:error:0308010C:digital envelope routines:inner_evp_generic_fetch:unsupported:../crypto/evp/evp_fetch.c:386:Global default library context, Algorithm (${alg} : 0), Properties (<null>)\n`);
  const pem = String(key.export({ type: 'pkcs8', format: 'pem' }));
  const text = pem + (flags.has('text') ? keyText(key, false) : '');
  const target = values.get('out');
  if (target) {
    writeFile(ctx, target, text, 0o600);
    return { stdout: '', stderr, exitCode: 0 };
  }
  return { stdout: text, stderr, exitCode: 0 };
}
