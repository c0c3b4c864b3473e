/**
 * diff (GNU diffutils 3.8, src/diff.c): two files (`-` is stdin) in the normal format or, with
 * -u / -U N / --unified[=N], the unified one (`--- FILE\tTIME` headers from the Vfs mtimes, or
 * --label), -q (`Files A and B differ`), -s (`Files A and B are identical`); a directory against
 * a file compares the file of the same name in it; two directories list `Only in …` and
 * `Common subdirectories: …` and compare common files (recursively with -r), each pair headed by
 * `diff OPTIONS A B`. Exit status 0 same, 1 different, 2 trouble.
 */
import { resolvePath } from '../../sim/node/vfs.js';
import type { CommandFn } from '../types.js';
import { diffTime, normalDiff, unifiedHunks } from '../../util/diff.js';
import { getopt, has, Out, value, values } from './util.js';

interface Opts {
  unified?: number;
  brief: boolean;
  same: boolean;
  recursive: boolean;
  newFile: boolean;
  labels: string[];
  /** The switches as typed, for `diff -ru A B` headers. */
  switches: string;
}

export const diff: CommandFn = (ctx) => {
  const p = getopt('diff', ctx.argv.slice(1), {
    short: 'uU:qsrNaiwbB',
    long: {
      unified: { key: 'unified', arg: false },
      brief: { key: 'q', arg: false },
      'report-identical-files': { key: 's', arg: false },
      recursive: { key: 'r', arg: false },
      'new-file': { key: 'N', arg: false },
      text: { key: 'a', arg: false },
      label: { key: 'label', arg: true },
    },
  });
  const out = new Out();
  if (!p.ok) {
    out.err(`${p.error}\ndiff: Try 'diff --help' for more information.`, 2);
    return out.result();
  }
  const ops = p.opts.operands;
  if (ops.length < 2) {
    out.err(`diff: ${ops.length === 0 ? 'missing operand after \'diff\'' : `missing operand after '${ops[0]}'`}\ndiff: Try 'diff --help' for more information.`, 2);
    return out.result();
  }
  if (ops.length > 2) {
    out.err(`diff: extra operand '${ops[2]}'\ndiff: Try 'diff --help' for more information.`, 2);
    return out.result();
  }
  const u = value(p.opts, 'U');
  if (u !== undefined && !/^\d+$/.test(u)) {
    out.err(`diff: invalid context length '${u}'\ndiff: Try 'diff --help' for more information.`, 2);
    return out.result();
  }
  const o: Opts = {
    ...(u !== undefined ? { unified: Number(u) } : has(p.opts, 'u') || has(p.opts, 'unified') ? { unified: 3 } : {}),
    brief: has(p.opts, 'q'),
    same: has(p.opts, 's'),
    recursive: has(p.opts, 'r'),
    newFile: has(p.opts, 'N'),
    labels: values(p.opts, 'label'),
    switches: ctx.argv.slice(1).filter((a) => a.startsWith('-') && a !== '-' && !ops.includes(a)).join(' '),
  };
  const fs = ctx.fs;
  const kind = (name: string): 'file' | 'dir' | 'stdin' | undefined => {
    if (name === '-') return 'stdin';
    const abs = resolvePath(ctx.cwd, name);
    return fs.isDir(abs) ? 'dir' : fs.isFile(abs) ? 'file' : undefined;
  };
  const read = (name: string): string => (name === '-' ? ctx.stdin : (fs.tryRead(resolvePath(ctx.cwd, name)) ?? ''));
  const time = (name: string): number => (name === '-' ? ctx.now() : fs.mtime(resolvePath(ctx.cwd, name)));
  const join = (dir: string, n: string): string => `${dir.replace(/\/+$/, '')}/${n}`;
  let status = 0;
  const files = (a: string, b: string, header: boolean): void => {
    const at = read(a);
    const bt = read(b);
    if (at === bt) {
      if (o.same) out.out(`Files ${a} and ${b} are identical\n`);
      return;
    }
    status = Math.max(status, 1);
    if (o.brief) {
      out.out(`Files ${a} and ${b} differ\n`);
      return;
    }
    if (header) out.out(`diff ${o.switches ? `${o.switches} ` : ''}${a} ${b}\n`);
    if (o.unified !== undefined) {
      const la = o.labels[0] ?? `${a}\t${diffTime(time(a))}`;
      const lb = o.labels[1] ?? `${b}\t${diffTime(time(b))}`;
      out.out(`--- ${la}\n+++ ${lb}\n${unifiedHunks(at, bt, o.unified)}`);
    } else out.out(normalDiff(at, bt));
  };
  const missing = (name: string): void => {
    out.err(`diff: ${name}: No such file or directory`, 2);
    status = 2;
  };
  const dirs = (a: string, b: string): void => {
    const la = fs.list(resolvePath(ctx.cwd, a));
    const lb = fs.list(resolvePath(ctx.cwd, b));
    for (const n of [...new Set([...la, ...lb])].sort()) {
      const pa = join(a, n);
      const pb = join(b, n);
      const ka = la.includes(n) ? kind(pa) : undefined;
      const kb = lb.includes(n) ? kind(pb) : undefined;
      if (!ka || !kb) {
        if (o.newFile && (ka === 'file' || kb === 'file')) {
          files(ka ? pa : '/dev/null', kb ? pb : '/dev/null', true);
          continue;
        }
        out.out(`Only in ${ka ? a.replace(/\/+$/, '') : b.replace(/\/+$/, '')}: ${n}\n`);
        status = Math.max(status, 1);
      } else if (ka === 'dir' && kb === 'dir') {
        if (o.recursive) dirs(pa, pb);
        else out.out(`Common subdirectories: ${pa} and ${pb}\n`);
      } else if (ka === 'dir' || kb === 'dir') {
        out.out(`File ${pa} is a ${ka === 'dir' ? 'directory' : 'regular file'} while file ${pb} is a ${kb === 'dir' ? 'directory' : 'regular file'}\n`);
        status = Math.max(status, 1);
      } else files(pa, pb, true);
    }
  };
  let [a, b] = ops as [string, string];
  const ka = kind(a);
  const kb = kind(b);
  if (!ka) missing(a);
  if (!kb) missing(b);
  if (!ka || !kb) {
    out.exitCode = 2;
    return out.result();
  }
  if (ka === 'dir' && kb === 'dir') dirs(a, b);
  else {
    // a directory against a file: the file of the same name in the directory
    if (ka === 'dir') a = join(a, b.slice(b.lastIndexOf('/') + 1));
    if (kb === 'dir') b = join(b, a.slice(a.lastIndexOf('/') + 1));
    if (!kind(a)) missing(a);
    else if (!kind(b)) missing(b);
    else files(a, b, false);
  }
  out.exitCode = status;
  return out.result();
};
