/**
 * wc — GNU coreutils src/wc.c: lines, words, bytes (-l -w -c -m -L), a `total` line for several
 * files, and wc's column width rule (compute_number_width): digits of the total size of the
 * regular files, at least 7 when reading a pipe, and no padding at all for a single count of a
 * single input. In busybox containers busybox's coreutils/wc.c: every count `%9u` after the first
 * `%9u` (a lone count of at most one file unpadded), one space apart, and a `total` line whenever
 * more than one operand was given, even if some failed to open.
 */
import { byteLength } from '../../util/bytes.js';
import type { CommandFn } from '../types.js';
import { busyboxOpts, isBusybox } from './busybox.js';
import { getopt, has, Out, readInput, type OptResult } from './util.js';

interface Counts {
  lines: number;
  words: number;
  chars: number;
  bytes: number;
  maxLine: number;
}

function count(t: string): Counts {
  const lines = (t.match(/\n/g) ?? []).length;
  const words = (t.match(/[^ \t\n\r\f\v]+/g) ?? []).length;
  let maxLine = 0;
  for (const l of t.split('\n')) maxLine = Math.max(maxLine, l.replace(/\t/g, '        ').length);
  return { lines, words, chars: [...t].length, bytes: byteLength(t), maxLine };
}

export const wc: CommandFn = (ctx) => {
  const bb = isBusybox(ctx);
  let p: OptResult;
  if (bb) {
    const b = busyboxOpts('wc', ctx.argv.slice(1), { short: 'lwmcL' });
    if (!b.ok) return b.result;
    p = b;
  } else {
    p = getopt('wc', ctx.argv.slice(1), {
      short: 'lwcmL',
      long: { lines: { key: 'l', arg: false }, words: { key: 'w', arg: false }, bytes: { key: 'c', arg: false }, chars: { key: 'm', arg: false }, 'max-line-length': { key: 'L', arg: false } },
    });
  }
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'wc --help' for more information.\n`, exitCode: 1 };
  const o = p.opts;
  let sel = { l: has(o, 'l'), w: has(o, 'w'), m: has(o, 'm'), c: has(o, 'c'), L: has(o, 'L') };
  if (!sel.l && !sel.w && !sel.m && !sel.c && !sel.L) sel = { l: true, w: true, m: false, c: true, L: false };
  const nSel = Object.values(sel).filter(Boolean).length;
  const files = o.operands.length > 0 ? o.operands : ['-'];
  const out = new Out();
  const results: Array<{ name: string; c: Counts } | { name: string; error: string }> = files.map((f) => {
    const r = readInput(ctx, f);
    return r.ok ? { name: f, c: count(r.text) } : { name: f, error: r.error };
  });
  let width = 1;
  const firstFailed = files.length === 1 && nSel === 1;
  if (!firstFailed) {
    let minimum = 1;
    let total = 0;
    for (const r of results) {
      if ('error' in r) continue;
      if (r.name === '-') minimum = 7;
      else total += r.c.bytes;
    }
    width = Math.max(minimum, String(total).length);
  }
  const fmt = (c: Counts, name: string): string => {
    const cols: number[] = [];
    if (sel.l) cols.push(c.lines);
    if (sel.w) cols.push(c.words);
    if (sel.m) cols.push(c.chars);
    if (sel.c) cols.push(c.bytes);
    if (sel.L) cols.push(c.maxLine);
    if (bb) {
      const nums = cols.map((n, i) => (i === 0 && files.length === 1 && nSel === 1 ? String(n) : String(n).padStart(9))).join(' ');
      return o.operands.length === 0 ? `${nums}\n` : `${nums} ${name}\n`;
    }
    const nums = cols.map((n) => String(n).padStart(width)).join(' ');
    return name === '-' && files.length === 1 && o.operands.length === 0 ? `${nums}\n` : `${nums} ${name === '-' && o.operands.length === 0 ? '' : name}\n`.replace(/ \n$/, '\n');
  };
  const total: Counts = { lines: 0, words: 0, chars: 0, bytes: 0, maxLine: 0 };
  for (const r of results) {
    if ('error' in r) {
      out.err(`wc: ${r.name}: ${r.error}`);
      if (r.error === 'Is a directory') out.out(fmt({ lines: 0, words: 0, chars: 0, bytes: 0, maxLine: 0 }, r.name));
      continue;
    }
    out.out(fmt(r.c, r.name));
    total.lines += r.c.lines;
    total.words += r.c.words;
    total.chars += r.c.chars;
    total.bytes += r.c.bytes;
    total.maxLine = Math.max(total.maxLine, r.c.maxLine);
  }
  if (files.length > 1) out.out(fmt(total, 'total'));
  return out.result();
};
