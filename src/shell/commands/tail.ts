/**
 * tail — GNU coreutils src/tail.c: -n N (default 10), -n +N (from line N), -c, the obsolete
 * -N/+N forms, headers for several files. -f prints what exists and returns (the simulated
 * files do not grow while the command runs).
 */
import type { CommandFn } from '../types.js';
import { getopt, has, Out, readInput } from './util.js';
import { busyboxTools } from './flavour.js';

export const tail: CommandFn = (ctx) => {
  const args = ctx.argv.slice(1).map((a, i) => (i === 0 && /^[-+]\d+$/.test(a) ? `-n${a.startsWith('+') ? a : a.slice(1)}` : a));
  const p = getopt('tail', args, {
    short: 'n:c:fFqv',
    long: { lines: { key: 'n', arg: true }, bytes: { key: 'c', arg: true }, follow: { key: 'f', arg: false }, quiet: { key: 'q', arg: false }, verbose: { key: 'v', arg: false } },
  });
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'tail --help' for more information.\n`, exitCode: 1 };
  const o = p.opts;
  let mode: 'n' | 'c' = 'n';
  let spec = '10';
  for (const [k, v] of o.list) if (k === 'n' || k === 'c') [mode, spec] = [k, v];
  const m = /^([-+]?)(\d+)$/.exec(spec);
  if (!m) return { stdout: '', stderr: `tail: invalid number of ${mode === 'n' ? 'lines' : 'bytes'}: ‘${spec}’\n`, exitCode: 1 };
  const fromStart = m[1] === '+';
  const n = Number(m[2]);
  const files = o.operands.length > 0 ? o.operands : ['-'];
  const out = new Out();
  // busybox 1.35 (recorded): `can't open 'X'`, headers only when more than one file opened, and
  // `tail: no files` when none did
  const bb = busyboxTools(ctx);
  const read = files.map((f) => ({ f, r: readInput(ctx, f) }));
  const opened = read.filter((x) => x.r.ok).length;
  const headers = has(o, 'v') || ((bb ? opened : files.length) > 1 && !has(o, 'q'));
  let first = true;
  for (const { f, r } of read) {
    if (!r.ok) {
      if (bb) out.err(r.error === 'Is a directory' ? 'tail: read error: Is a directory' : `tail: can't open '${f}': ${r.error}`);
      else out.err(r.error === 'Is a directory' ? `tail: error reading '${f}': Is a directory` : `tail: cannot open '${f}' for reading: ${r.error}`);
      continue;
    }
    if (headers) out.out(`${first ? '' : '\n'}==> ${f === '-' ? 'standard input' : f} <==\n`);
    first = false;
    const t = r.text;
    if (mode === 'c') {
      out.out(fromStart ? t.slice(Math.max(0, n - 1)) : n === 0 ? '' : t.slice(-n));
      continue;
    }
    const pieces = t.split(/(?<=\n)/);
    if (pieces[pieces.length - 1] === '') pieces.pop();
    out.out((fromStart ? pieces.slice(Math.max(0, n - 1)) : n === 0 ? [] : pieces.slice(-n)).join(''));
  }
  if (bb && opened === 0) out.err('tail: no files');
  return out.result();
};
