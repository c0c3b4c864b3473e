/**
 * column — util-linux text-utils/column.c: -t builds a table from whitespace-separated (or -s
 * SEP) input, padding every column but the last to its widest cell plus two spaces (-o sets the
 * separator); empty lines are dropped. Without -t, lines are passed through in one column.
 */
import type { CommandFn } from '../types.js';
import { getopt, has, Out, readInput, splitLines, value } from './util.js';

export const column: CommandFn = (ctx) => {
  const p = getopt('column', ctx.argv.slice(1), {
    short: 'ts:o:nNc:x',
    long: { table: { key: 't', arg: false }, separator: { key: 's', arg: true }, 'output-separator': { key: 'o', arg: true } },
  });
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'column --help' for more information.\n`, exitCode: 1 };
  const o = p.opts;
  const out = new Out();
  const lines: string[] = [];
  for (const f of o.operands.length > 0 ? o.operands : ['-']) {
    const r = readInput(ctx, f);
    if (!r.ok) {
      out.err(`column: ${f}: ${r.error}`);
      continue;
    }
    for (const l of splitLines(r.text)) lines.push(l);
  }
  const nonEmpty = lines.filter((l) => l.trim() !== '');
  if (!has(o, 't')) {
    out.out(nonEmpty.map((l) => `${l}\n`).join(''));
    return out.result();
  }
  const seps = value(o, 's');
  const osep = value(o, 'o') ?? '  ';
  const rows = nonEmpty.map((l) => {
    if (seps === undefined) return l.trim().split(/[ \t]+/);
    const cells: string[] = [];
    let cur = '';
    for (const c of l) {
      if (seps.includes(c)) {
        cells.push(cur);
        cur = '';
      } else cur += c;
    }
    cells.push(cur);
    return cells;
  });
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, [...c].length)));
  for (const r of rows) {
    out.out(`${r.map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat((widths[i] ?? 0) - [...c].length) + osep)).join('')}\n`);
  }
  return out.result();
};
