/**
 * tail — GNU coreutils src/tail.c: -n N (default 10), -n +N (from line N), -c (bytes), the obsolete
 * -N/+N forms, headers for several files. -f prints what exists and returns (the simulated
 * files do not grow while the command runs). In busybox containers busybox's coreutils/tail.c:
 * every file is opened first ("can't open 'F'" for each that fails, `tail: no files` when none
 * opened), then the opened ones are printed, with headers when more than one opened.
 */
import { sliceBytes } from '../../util/bytes.js';
import type { CommandFn } from '../types.js';
import { busyboxOpts, cantOpen, isBusybox } from './busybox.js';
import { busyboxCount, countError, gnuCount } from './size-suffix.js';
import { getopt, has, Out, readInput, type OptResult, type ReadResult } from './util.js';

export const tail: CommandFn = (ctx) => {
  const args = ctx.argv.slice(1).map((a, i) => (i === 0 && /^[-+]\d+$/.test(a) ? `-n${a.startsWith('+') ? a : a.slice(1)}` : a));
  const bb = isBusybox(ctx);
  let p: OptResult;
  if (bb) {
    const b = busyboxOpts('tail', args, { short: 'fc:n:qs:vF' });
    if (!b.ok) return b.result;
    p = b;
  } else {
    p = getopt('tail', args, {
      short: 'n:c:fFqv',
      long: { lines: { key: 'n', arg: true }, bytes: { key: 'c', arg: true }, follow: { key: 'f', arg: false }, quiet: { key: 'q', arg: false }, verbose: { key: 'v', arg: false } },
    });
  }
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'tail --help' for more information.\n`, exitCode: 1 };
  const o = p.opts;
  let mode: 'n' | 'c' = 'n';
  let spec = '10';
  for (const [k, v] of o.list) if (k === 'n' || k === 'c') [mode, spec] = [k, v];
  const fromStart = spec.startsWith('+');
  const count = (bb ? busyboxCount : gnuCount)(/^[-+]/.test(spec) ? spec.slice(1) : spec);
  if (!count.ok) return { stdout: '', stderr: countError('tail', spec, mode, bb, count.overflow), exitCode: 1 };
  const n = count.n;
  let files = o.operands.length > 0 ? o.operands : ['-'];
  const out = new Out();
  const read = new Map<string, ReadResult>();
  if (bb) {
    const opened: string[] = [];
    for (const f of files) {
      const r = readInput(ctx, f);
      if (!r.ok && r.error !== 'Is a directory') out.err(cantOpen('tail', f, r.error));
      else opened.push(f);
      read.set(f, r);
    }
    if (opened.length === 0) {
      out.err('tail: no files');
      return out.result();
    }
    files = opened;
  }
  const headers = has(o, 'v') || (files.length > 1 && !has(o, 'q'));
  let first = true;
  for (const f of files) {
    const r = read.get(f) ?? readInput(ctx, f);
    if (!r.ok && bb) {
      out.err('tail: read error: Is a directory');
      continue;
    }
    if (!r.ok) {
      out.err(r.error === 'Is a directory' ? `tail: error reading '${f}': Is a directory` : `tail: cannot open '${f}' for reading: ${r.error}`);
      continue;
    }
    if (headers) out.out(`${first ? '' : '\n'}==> ${f === '-' ? 'standard input' : f} <==\n`);
    first = false;
    const t = r.text;
    if (mode === 'c') {
      // bytes, not characters (tail.c reads bytes): `tail -c 3` may start inside a UTF-8 sequence
      out.out(fromStart ? sliceBytes(t, Math.max(0, n - 1)) : n === 0 ? '' : sliceBytes(t, -n));
      continue;
    }
    const pieces = t.split(/(?<=\n)/);
    if (pieces[pieces.length - 1] === '') pieces.pop();
    out.out((fromStart ? pieces.slice(Math.max(0, n - 1)) : n === 0 ? [] : pieces.slice(-n)).join(''));
  }
  return out.result();
};
