/**
 * md5sum, sha1sum, sha224sum, sha256sum, sha384sum, sha512sum — GNU coreutils src/digest.c:
 * `HASH  NAME` per file (`-` for stdin; -b prints `HASH *NAME`), --tag for BSD style, and -c to
 * verify a list: `NAME: OK` / `NAME: FAILED` / `NAME: FAILED open or read`, then the summary
 * warnings on stderr (`WARNING: 1 computed checksum did NOT match`, ...). --quiet hides OK lines,
 * --status prints nothing, --strict/-w handle improperly formatted lines.
 */
import { encodeBytes } from '../../util/bytes.js';
import { createHash } from 'node:crypto';
import type { CommandContext, CommandFn, CommandResult } from '../types.js';
import { getopt, has, Out, readInput, splitLines, usageError } from './util.js';
import { busyboxOpts, busyboxUsageError, cantOpen, isBusybox } from './busybox.js';

const ALGOS: Record<string, { algo: string; tag: string; hexLen: number }> = {
  md5sum: { algo: 'md5', tag: 'MD5', hexLen: 32 },
  sha1sum: { algo: 'sha1', tag: 'SHA1', hexLen: 40 },
  sha224sum: { algo: 'sha224', tag: 'SHA224', hexLen: 56 },
  sha256sum: { algo: 'sha256', tag: 'SHA256', hexLen: 64 },
  sha384sum: { algo: 'sha384', tag: 'SHA384', hexLen: 96 },
  sha512sum: { algo: 'sha512', tag: 'SHA512', hexLen: 128 },
};

function digest(algo: string, text: string): string {
  return createHash(algo).update(encodeBytes(text)).digest('hex');
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

function check(ctx: CommandContext, cmd: string, spec: { algo: string; tag: string; hexLen: number }, names: string[], o: { quiet: boolean; status: boolean; warn: boolean; strict: boolean; ignoreMissing: boolean }): CommandResult {
  const out = new Out();
  let code = 0;
  for (const name of names) {
    const r = readInput(ctx, name);
    const shown = name === '-' ? "'standard input'" : name;
    if (!r.ok) {
      out.err(`${cmd}: ${name}: ${r.error}`);
      code = 1;
      continue;
    }
    let bad = 0;
    let failed = 0;
    let unreadable = 0;
    let good = 0;
    const lines = splitLines(r.text);
    lines.forEach((line, idx) => {
      const m =
        new RegExp(`^([0-9a-fA-F]{${spec.hexLen}}) [ *](.+)$`).exec(line) ??
        (() => {
          const t = new RegExp(`^${spec.tag} \\((.+)\\) = ([0-9a-fA-F]{${spec.hexLen}})$`).exec(line);
          return t ? ([t[0], t[2], t[1]] as unknown as RegExpExecArray) : null;
        })();
      if (!m) {
        bad++;
        if (o.warn) out.err(`${cmd}: ${shown}: ${idx + 1}: improperly formatted ${spec.tag} checksum line`);
        return;
      }
      const [, hex, file] = m as unknown as [string, string, string];
      const fr = readInput(ctx, file);
      if (!fr.ok) {
        if (o.ignoreMissing && fr.error === 'No such file or directory') return;
        unreadable++;
        if (!o.status) {
          out.err(`${cmd}: ${file}: ${fr.error}`);
          out.out(`${file}: FAILED open or read\n`);
        }
        return;
      }
      if (digest(spec.algo, fr.text) === hex.toLowerCase()) {
        good++;
        if (!o.quiet && !o.status) out.out(`${file}: OK\n`);
      } else {
        failed++;
        if (!o.status) out.out(`${file}: FAILED\n`);
      }
    });
    if (good + failed + unreadable === 0) {
      out.err(`${cmd}: ${shown}: no properly formatted checksum lines found`);
      code = 1;
      continue;
    }
    if (!o.status) {
      if (bad > 0) out.err(`${cmd}: WARNING: ${bad} ${plural(bad, 'line is', 'lines are')} improperly formatted`);
      if (unreadable > 0) out.err(`${cmd}: WARNING: ${unreadable} listed ${plural(unreadable, 'file', 'files')} could not be read`);
      if (failed > 0) out.err(`${cmd}: WARNING: ${failed} computed ${plural(failed, 'checksum', 'checksums')} did NOT match`);
    }
    if (failed > 0 || unreadable > 0 || (o.strict && bad > 0)) code = 1;
  }
  return { ...out.result(), exitCode: code };
}

/**
 * The busybox image's applet (coreutils/md5_sha1_sum.c, busybox 1.36.1): getopt32 "scwbt" (-s and
 * -w only with -c), `HASH  NAME` lines, hash_file's open_or_warn `can't open 'NAME': ERROR` and
 * `can't read 'NAME': Is a directory`; -c prints `NAME: OK`/`NAME: FAILED` and one summary,
 * `WARNING: F of T computed checksums did NOT match`; status 1 on any failure.
 */
function busyboxSum(ctx: CommandContext, cmd: string, spec: { algo: string }): CommandResult {
  const p = busyboxOpts(cmd, ctx.argv.slice(1), { short: 'scwbt' });
  if (!p.ok) return p.result;
  const check = has(p.opts, 'c');
  // getopt32's "s?c:w?c": -s and -w need -c, else the usage
  if (!check && (has(p.opts, 's') || has(p.opts, 'w'))) return busyboxUsageError(cmd);
  const out = new Out();
  let status = 0;
  const hashFile = (name: string): string | undefined => {
    const r = readInput(ctx, name);
    if (!r.ok) {
      out.err(r.error === 'Is a directory' ? `${cmd}: can't read '${name}': Is a directory` : cantOpen(cmd, name, r.error));
      return undefined;
    }
    return digest(spec.algo, r.text);
  };
  for (const name of p.opts.operands.length > 0 ? p.opts.operands : ['-']) {
    if (!check) {
      const h = hashFile(name);
      if (h === undefined) status = 1;
      else out.out(`${h}  ${name}\n`);
      continue;
    }
    const list = readInput(ctx, name);
    if (!list.ok) {
      out.err(cantOpen(cmd, name, list.error));
      return { ...out.result(), exitCode: 1 };
    }
    let total = 0;
    let failed = 0;
    for (const line of splitLines(list.text)) {
      total++;
      const sp = line.indexOf(' ');
      if (sp < 0) {
        if (has(p.opts, 'w')) out.err(`${cmd}: invalid format`);
        failed++;
        status = 1;
        continue;
      }
      let file = line.slice(sp + 1);
      if (file.startsWith(' ') || file.startsWith('*')) file = file.slice(1);
      const h = hashFile(file);
      const ok = h !== undefined && h === line.slice(0, sp);
      if (!has(p.opts, 's')) out.out(`${file}: ${ok ? 'OK' : 'FAILED'}\n`);
      if (!ok) {
        failed++;
        status = 1;
      }
    }
    if (failed && !has(p.opts, 's')) out.err(`${cmd}: WARNING: ${failed} of ${total} computed checksums did NOT match`);
    if (total === 0) {
      status = 1;
      out.err(`${cmd}: ${name}: no checksum lines found`);
    }
  }
  return { ...out.result(), exitCode: status };
}

function makeSum(cmd: string): CommandFn {
  const spec = ALGOS[cmd]!;
  return (ctx) => {
    if (isBusybox(ctx)) return busyboxSum(ctx, cmd, spec);
    const p = getopt(cmd, ctx.argv.slice(1), {
      short: 'bctwz',
      long: {
        binary: { key: 'b', arg: false },
        check: { key: 'c', arg: false },
        tag: { key: 'tag', arg: false },
        text: { key: 't', arg: false },
        zero: { key: 'z', arg: false },
        'ignore-missing': { key: 'ignore-missing', arg: false },
        quiet: { key: 'quiet', arg: false },
        status: { key: 'status', arg: false },
        strict: { key: 'strict', arg: false },
        warn: { key: 'w', arg: false },
      },
    });
    if (!p.ok) return usageError(cmd, p.error, '');
    const names = p.opts.operands.length > 0 ? p.opts.operands : ['-'];
    if (has(p.opts, 'c')) {
      return check(ctx, cmd, spec, names, {
        quiet: has(p.opts, 'quiet'),
        status: has(p.opts, 'status'),
        warn: has(p.opts, 'w'),
        strict: has(p.opts, 'strict'),
        ignoreMissing: has(p.opts, 'ignore-missing'),
      });
    }
    const out = new Out();
    const binary = has(p.opts, 'b');
    for (const n of names) {
      const r = readInput(ctx, n);
      if (!r.ok) {
        out.err(`${cmd}: ${n}: ${r.error}`);
        continue;
      }
      const hex = digest(spec.algo, r.text);
      if (has(p.opts, 'tag')) out.out(`${spec.tag} (${n}) = ${hex}\n`);
      else out.out(`${hex} ${binary ? '*' : ' '}${n}\n`);
    }
    return out.result();
  };
}

export const md5sum = makeSum('md5sum');
export const sha1sum = makeSum('sha1sum');
export const sha224sum = makeSum('sha224sum');
export const sha256sum = makeSum('sha256sum');
export const sha384sum = makeSum('sha384sum');
export const sha512sum = makeSum('sha512sum');
