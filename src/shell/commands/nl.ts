/**
 * nl — GNU coreutils src/nl.c: numbers lines. Body style -b a|t|n (default t: non-empty lines),
 * -w width (6), -s separator (TAB), -n ln|rn|rz (rn), -v start (1), -i increment (1). An
 * unnumbered line is preceded by width + separator-length spaces. Section delimiters (\:) are
 * not emulated.
 */
import type { CommandFn } from '../types.js';
import { getopt, Out, readInput, splitLines, usageError } from './util.js';

export const nl: CommandFn = (ctx) => {
  const p = getopt('nl', ctx.argv.slice(1), {
    short: 'b:w:s:n:v:i:',
    long: {
      'body-numbering': { key: 'b', arg: true },
      'number-width': { key: 'w', arg: true },
      'number-separator': { key: 's', arg: true },
      'number-format': { key: 'n', arg: true },
      'starting-line-number': { key: 'v', arg: true },
      'line-increment': { key: 'i', arg: true },
    },
  });
  if (!p.ok) return usageError('nl', p.error, '');
  let style = 't';
  let width = 6;
  let sep = '\t';
  let fmt = 'rn';
  let start = 1;
  let incr = 1;
  for (const [k, v] of p.opts.list) {
    if (k === 'b') {
      if (!['a', 't', 'n'].includes(v)) return usageError('nl', `nl: invalid body numbering style: ‘${v}’`, '');
      style = v;
    } else if (k === 'w') {
      if (!/^\d+$/.test(v) || Number(v) < 1) return { stdout: '', stderr: `nl: invalid line number field width: ‘${v}’${/^\d+$/.test(v) ? ': Numerical result out of range' : ''}\n`, exitCode: 1 };
      width = Number(v);
    } else if (k === 's') sep = v;
    else if (k === 'n') {
      if (!['ln', 'rn', 'rz'].includes(v)) return usageError('nl', `nl: invalid line numbering format: ‘${v}’`, '');
      fmt = v;
    } else if (k === 'v' || k === 'i') {
      if (!/^-?\d+$/.test(v)) {
        const what = k === 'v' ? 'starting line number' : 'line number increment';
        return { stdout: '', stderr: `nl: invalid ${what}: ‘${v}’\n`, exitCode: 1 };
      }
      if (k === 'v') start = Number(v);
      else incr = Number(v);
    }
  }
  const out = new Out();
  let n = start;
  const names = p.opts.operands.length > 0 ? p.opts.operands : ['-'];
  for (const name of names) {
    const r = readInput(ctx, name);
    if (!r.ok) {
      out.err(`nl: ${name}: ${r.error}`);
      continue;
    }
    for (const line of splitLines(r.text)) {
      const number = style === 'a' || (style === 't' && line !== '');
      if (!number) {
        out.out(`${' '.repeat(width + sep.length)}${line}\n`);
        continue;
      }
      const s = String(Math.abs(n));
      const neg = n < 0 ? '-' : '';
      const num =
        fmt === 'ln' ? (neg + s).padEnd(width) : fmt === 'rn' ? (neg + s).padStart(width) : neg + s.padStart(width - neg.length, '0');
      out.out(`${num}${sep}${line}\n`);
      n += incr;
    }
  }
  return out.result();
};
