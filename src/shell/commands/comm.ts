/**
 * comm — GNU coreutils src/comm.c: compares two sorted files line by line; column 1 lines only in
 * FILE1, column 2 only in FILE2 (one tab), column 3 in both (two tabs, less suppressed columns).
 * -1/-2/-3 suppress columns, --output-delimiter replaces the tab; unsorted input is warned about
 * once per file as `comm: file N is not in sorted order` and the exit status becomes 1.
 */
import type { CommandFn } from '../types.js';
import { getopt, has, Out, readInput, splitLines, usageError, value } from './util.js';

export const comm: CommandFn = (ctx) => {
  const p = getopt('comm', ctx.argv.slice(1), {
    short: '123z',
    long: {
      'check-order': { key: 'check', arg: false },
      'nocheck-order': { key: 'nocheck', arg: false },
      'output-delimiter': { key: 'delim', arg: true },
      total: { key: 'total', arg: false },
      'zero-terminated': { key: 'z', arg: false },
    },
  });
  if (!p.ok) return usageError('comm', p.error, '');
  const ops = p.opts.operands;
  if (ops.length < 2) {
    return usageError('comm', ops.length === 0 ? 'comm: missing operand' : `comm: missing operand after ‘${ops[0]}’`, '');
  }
  if (ops.length > 2) return usageError('comm', `comm: extra operand ‘${ops[2]}’`, '');
  const out = new Out();
  const texts: string[][] = [];
  for (const n of ops) {
    const r = readInput(ctx, n);
    if (!r.ok) {
      out.err(`comm: ${n}: ${r.error}`);
      return out.result();
    }
    texts.push(splitLines(r.text));
  }
  const show = [!has(p.opts, '1'), !has(p.opts, '2'), !has(p.opts, '3')];
  const delim = value(p.opts, 'delim') ?? '\t';
  const sep = delim === '' ? '\0' : delim;
  const check = !has(p.opts, 'nocheck');
  const [a, b] = [texts[0]!, texts[1]!];
  const counts = [0, 0, 0];
  const warned = [false, false];
  let disorder = false;
  const emit = (col: 0 | 1 | 2, line: string): void => {
    counts[col]!++;
    if (!show[col]) return;
    let prefix = '';
    if (col >= 1 && show[0]) prefix += sep;
    if (col === 2 && show[1]) prefix += sep;
    out.out(`${prefix}${line}\n`);
  };
  const cmp = (x: string, y: string): number => (Buffer.compare(Buffer.from(x), Buffer.from(y)));
  const order = (arr: string[], i: number, which: 0 | 1): void => {
    if (!check || warned[which] || i === 0) return;
    if (cmp(arr[i - 1]!, arr[i]!) > 0) {
      warned[which] = true;
      disorder = true;
      out.err(`comm: file ${which + 1} is not in sorted order`);
    }
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && cmp(a[i]!, b[j]!) < 0)) {
      order(a, i, 0);
      emit(0, a[i++]!);
    } else if (i >= a.length || cmp(a[i]!, b[j]!) > 0) {
      order(b, j, 1);
      emit(1, b[j++]!);
    } else {
      order(a, i, 0);
      order(b, j, 1);
      emit(2, a[i++]!);
      j++;
    }
  }
  if (has(p.opts, 'total')) out.out(`${counts[0]}${sep}${counts[1]}${sep}${counts[2]}${sep}total\n`);
  if (disorder) out.err('comm: input is not in sorted order');
  return out.result();
};
