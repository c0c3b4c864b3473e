/**
 * `openssl dgst` and the digest-named commands (`openssl sha256`, `md5`, `sha1`), OpenSSL 3.0
 * apps/dgst.c: one line per input, `NAME(file)= hex` (`-r`: `hex *file`, `-c`: colon-separated
 * bytes), `-binary` writes the raw digest. The digest named on the command line prints under its
 * OpenSSL 3 name (`SHA2-256`); without one, dgst uses SHA-256 under its legacy name `SHA256`, as
 * the real 3.0.19 binary does (recorded in testdata/dgst.txt).
 *
 * Pipes carry text: a command writing binary (this one with -binary, `pkey -outform der`) writes a
 * byte string (one char per byte), and dgst reads input whose chars all fit in a byte as those
 * bytes — so `openssl x509 -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256`
 * computes kubeadm's discovery hash. (Text with Latin-1 letters would hash as Latin-1, not UTF-8.)
 */
import { createHash } from 'node:crypto';
import type { CommandContext, CommandResult } from '../../types.js';
import { fail, parseOpts, readFile } from './args.js';

/** OpenSSL option → [node digest, the name dgst prints]. */
const DIGESTS: Record<string, [string, string]> = {
  md5: ['md5', 'MD5'],
  sha1: ['sha1', 'SHA1'],
  sha224: ['sha224', 'SHA2-224'],
  sha256: ['sha256', 'SHA2-256'],
  sha384: ['sha384', 'SHA2-384'],
  sha512: ['sha512', 'SHA2-512'],
};

/** The bytes a piped or stored string stands for (see the module comment). */
export function bytesOf(text: string): Buffer {
  return /^[\u0000-\u00ff]*$/.test(text) ? Buffer.from(text, 'latin1') : Buffer.from(text, 'utf8');
}

const TID = '40C7C49B9D7F0000';

function digestLines(ctx: CommandContext, argv: readonly string[], cmd: string, fixed?: string): CommandResult {
  const o = parseOpts(cmd, argv, { values: ['out'], flags: ['hex', 'r', 'c', 'binary', ...Object.keys(DIGESTS)] });
  if (!o.ok) return o.result;
  const chosen = fixed ?? [...o.flags].reverse().find((f) => f in DIGESTS);
  const [alg, name] = chosen ? DIGESTS[chosen]! : ['sha256', 'SHA256'];
  const inputs: { label: string; bytes?: Buffer }[] = o.args.length
    ? o.args.map((f) => {
        const t = readFile(ctx, f);
        return { label: f, ...(t === undefined ? {} : { bytes: bytesOf(t) }) };
      })
    : [{ label: 'stdin', bytes: bytesOf(ctx.stdin) }];
  let out = '';
  let err = '';
  let exitCode = 0;
  for (const i of inputs) {
    if (!i.bytes) {
      err += `${i.label}: No such file or directory\n${TID}:error:80000002:system library:file_ctrl:No such file or directory:../crypto/bio/bss_file.c:297:calling fopen(${i.label}, r)\n${TID}:error:10080002:BIO routines:file_ctrl:system lib:../crypto/bio/bss_file.c:300:\n`;
      exitCode = 1;
      continue;
    }
    const d = createHash(alg).update(i.bytes).digest();
    if (o.flags.includes('binary')) out += d.toString('latin1');
    else if (o.flags.includes('c')) out += `${name}(${i.label})= ${[...d].map((b) => b.toString(16).padStart(2, '0')).join(':')}\n`;
    else if (o.flags.includes('r')) out += `${d.toString('hex')} *${i.label}\n`;
    else out += `${name}(${i.label})= ${d.toString('hex')}\n`;
  }
  return exitCode ? { ...fail(err), stdout: out } : { stdout: out, stderr: err, exitCode };
}

export function dgst(ctx: CommandContext, argv: readonly string[]): CommandResult {
  return digestLines(ctx, argv, 'dgst');
}

/** `openssl sha256 FILE` and friends: dgst with the digest fixed by the command's name. */
export function digestCommand(alg: keyof typeof DIGESTS & string): (ctx: CommandContext, argv: readonly string[]) => CommandResult {
  return (ctx, argv) => digestLines(ctx, argv, alg, alg);
}

export const DIGEST_COMMANDS = Object.keys(DIGESTS);
