/**
 * md5sum, sha1sum, sha224sum, sha256sum, sha384sum, sha512sum (GNU coreutils src/digest.c):
 * `HASH  FILE` per file (stdin as `-`), and `-c FILE` checking lines of that form: `FILE: OK`,
 * `FILE: FAILED`, `FILE: FAILED open or read`, then the WARNING summary on stderr; `--quiet`
 * drops the OK lines, `--status` prints nothing. Contents are hashed as their UTF-8 bytes.
 */
import { createHash } from 'node:crypto';
import type { CommandFn } from '../types.js';
import { getopt, has, Out, readInput, usageError } from './util.js';

const ALGOS: Record<string, { algo: string; label: string; hexLen: number }> = {
  md5sum: { algo: 'md5', label: 'MD5', hexLen: 32 },
  sha1sum: { algo: 'sha1', label: 'SHA1', hexLen: 40 },
  sha224sum: { algo: 'sha224', label: 'SHA224', hexLen: 56 },
  sha256sum: { algo: 'sha256', label: 'SHA256', hexLen: 64 },
  sha384sum: { algo: 'sha384', label: 'SHA384', hexLen: 96 },
  sha512sum: { algo: 'sha512', label: 'SHA512', hexLen: 128 },
};

/** coreutils quote(): a name with blanks or shell metacharacters in single quotes. */
const quoteName = (n: string): string => (/^[A-Za-z0-9._/+-]+$/.test(n) ? n : `'${n}'`);

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

function digest(cmd: string): CommandFn {
  const a = ALGOS[cmd]!;
  return (ctx) => {
    const p = getopt(cmd, ctx.argv.slice(1), { short: 'bctwz', long: { binary: { key: 'b', arg: false }, check: { key: 'c', arg: false }, text: { key: 't', arg: false }, warn: { key: 'w', arg: false }, quiet: { key: 'quiet', arg: false }, status: { key: 'status', arg: false }, strict: { key: 'strict', arg: false }, tag: { key: 'tag', arg: false }, zero: { key: 'z', arg: false }, 'ignore-missing': { key: 'ignore-missing', arg: false } } });
    if (!p.ok) return usageError(cmd, p.error, '');
    const hash = (text: string): string => createHash(a.algo).update(Buffer.from(text, 'utf8')).digest('hex');
    const out = new Out();
    const names = p.opts.operands.length ? p.opts.operands : ['-'];
    if (!has(p.opts, 'c')) {
      for (const n of names) {
        const r = readInput(ctx, n);
        if (!r.ok) {
          out.err(`${cmd}: ${n}: ${r.error}`);
          continue;
        }
        out.out(has(p.opts, 'tag') ? `${a.label} (${n}) = ${hash(r.text)}\n` : `${hash(r.text)}  ${n}\n`);
      }
      return out.result();
    }
    const quiet = has(p.opts, 'quiet');
    const status = has(p.opts, 'status');
    for (const list of names) {
      const r = readInput(ctx, list);
      if (!r.ok) {
        out.err(`${cmd}: ${list}: ${r.error}`);
        continue;
      }
      let good = 0;
      let failed = 0;
      let unreadable = 0;
      let malformed = 0;
      const line = new RegExp(`^([0-9a-fA-F]{${a.hexLen}}) [ *](.*)$`);
      for (const l of r.text.split('\n')) {
        if (l === '') continue;
        const m = line.exec(l);
        if (!m) {
          malformed++;
          continue;
        }
        const file = m[2]!;
        const f = readInput(ctx, file);
        if (!f.ok) {
          if (has(p.opts, 'ignore-missing') && f.error === 'No such file or directory') continue;
          if (!status) out.err(`${cmd}: ${file}: ${f.error}`);
          if (!status) out.out(`${file}: FAILED open or read\n`);
          unreadable++;
          out.exitCode = 1;
          continue;
        }
        if (hash(f.text) === m[1]!.toLowerCase()) {
          good++;
          if (!quiet && !status) out.out(`${file}: OK\n`);
        } else {
          failed++;
          out.exitCode = 1;
          if (!status) out.out(`${file}: FAILED\n`);
        }
      }
      if (good + failed + unreadable === 0) {
        out.err(`${cmd}: ${quoteName(list === '-' ? 'standard input' : list)}: no properly formatted checksum lines found`);
        continue;
      }
      if (!status) {
        if (malformed) out.err(`${cmd}: WARNING: ${plural(malformed, 'line is', 'lines are')} improperly formatted`, out.exitCode);
        if (unreadable) out.err(`${cmd}: WARNING: ${plural(unreadable, 'listed file could not be read', 'listed files could not be read')}`);
        if (failed) out.err(`${cmd}: WARNING: ${plural(failed, 'computed checksum did NOT match', 'computed checksums did NOT match')}`);
      }
    }
    return out.result();
  };
}

export const md5sum = digest('md5sum');
export const sha1sum = digest('sha1sum');
export const sha224sum = digest('sha224sum');
export const sha256sum = digest('sha256sum');
export const sha384sum = digest('sha384sum');
export const sha512sum = digest('sha512sum');
