/**
 * `openssl ecparam` (OpenSSL 3.0 apps/ecparam.c): `-name CURVE` writes the curve's parameters
 * (`EC PARAMETERS`, the named curve's OID) unless `-noout`, `-text` describes them, `-genkey` adds a
 * new key in SEC 1 form (`EC PRIVATE KEY`, the file mode 0600). The lab keeps P-256 only, under
 * the names 3.0 accepts for it (`prime256v1`, `P-256`; `secp256r1` with its `using curve name`
 * notice); the key comes from the session's seeded random source (sim/pki/ec.ts). Messages recorded
 * from /usr/bin/openssl 3.0.19 (Debian 12).
 */
import type { CommandContext, CommandResult } from '../../types.js';
import { generateP256Key, PRIME256V1_OID } from '../../../sim/pki/ec.js';
import { oid, pemEncode } from '../../../sim/pki/der.js';
import { fail, parseOpts, writeFile } from './args.js';

const TID = '40C7C49B9D7F0000';

/** OpenSSL's names for P-256 (ec_curve.c curve_list and the NIST alias table); the value is the notice, if any. */
const P256_NAMES: Record<string, string> = { prime256v1: '', 'P-256': '', secp256r1: 'using curve name prime256v1 instead of secp256r1\n' };
/** Curves OpenSSL knows that the lab does not generate. */
const OTHER_CURVES = ['secp384r1', 'secp521r1', 'P-384', 'P-521', 'secp256k1', 'prime192v1', 'secp224r1', 'P-224', 'P-192'];

export const INVALID_CURVE = `${TID}:error:0800008D:elliptic curve routines:group_new_from_name:invalid curve:../crypto/ec/ec_lib.c:1490:\n`;

/** Whether `name` is a name of P-256; undefined when OpenSSL knows it as another curve (not simulated). */
export function isP256(name: string): boolean | undefined {
  if (name in P256_NAMES) return true;
  return OTHER_CURVES.includes(name) ? undefined : false;
}

export function ecparam(ctx: CommandContext, argv: readonly string[]): CommandResult {
  const o = parseOpts('ecparam', argv, { values: ['name', 'out', 'outform', 'param_enc', 'conv_form'], flags: ['genkey', 'noout', 'text', 'check'] });
  if (!o.ok) return o.result;
  const name = o.values.get('name');
  if (name === undefined) return fail('Unable to load parameters from <NULL>\n');
  const p256 = isP256(name);
  if (p256 === undefined) return fail(`cka-lab: the lab generates P-256 keys only (prime256v1); ${name} is not simulated\n`);
  if (!p256) return fail(`unable to generate key\n${INVALID_CURVE}`);
  let out = '';
  if (o.flags.includes('text')) out += 'EC-Parameters: (256 bit)\nASN1 OID: prime256v1\nNIST CURVE: P-256\n';
  if (!o.flags.includes('noout')) out += pemEncode(oid(PRIME256V1_OID), 'EC PARAMETERS');
  let mode = 0o644;
  if (o.flags.includes('genkey')) {
    out += String(generateP256Key(ctx.cluster?.random).export({ type: 'sec1', format: 'pem' }));
    mode = 0o600;
  }
  const target = o.values.get('out');
  if (target) {
    writeFile(ctx, target, out, mode);
    out = '';
  }
  // the check's verdict is a diagnostic (stderr), as are the alias notices
  return { stdout: out, stderr: P256_NAMES[name]! + (o.flags.includes('check') ? 'checking elliptic curve parameters: ok\n' : ''), exitCode: 0 };
}
