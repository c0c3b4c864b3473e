/**
 * paste — GNU coreutils src/paste.c: joins corresponding lines of files with TABs (or the
 * -d list, used cyclically, with \n \t \\ \0 escapes); -s joins all lines of each file in turn.
 * `-` is stdin; several `-` operands share it line by line.
 */
import type { CommandFn } from '../types.js';
import { getopt, has, Out, readInput, splitLines, usageError, value } from './util.js';

function delimList(spec: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < spec.length; i++) {
    const c = spec[i]!;
    if (c === '\\' && i + 1 < spec.length) {
      const n = spec[++i]!;
      out.push(n === 'n' ? '\n' : n === 't' ? '\t' : n === '0' ? '' : n === 'b' ? '\b' : n === 'f' ? '\f' : n === 'r' ? '\r' : n === 'v' ? '\v' : n);
    } else out.push(c);
  }
  return out;
}

export const paste: CommandFn = (ctx) => {
  const p = getopt('paste', ctx.argv.slice(1), {
    short: 'd:sz',
    long: { delimiters: { key: 'd', arg: true }, serial: { key: 's', arg: false }, 'zero-terminated': { key: 'z', arg: false } },
  });
  if (!p.ok) return usageError('paste', p.error, '');
  const d = value(p.opts, 'd');
  if (d !== undefined && /\\$/.test(d) && !/\\\\$/.test(d)) {
    return { stdout: '', stderr: `paste: delimiter list ends with an unescaped backslash: ${d}\n`, exitCode: 1 };
  }
  const delims = d === undefined ? ['\t'] : d === '' ? [''] : delimList(d);
  const names = p.opts.operands.length > 0 ? p.opts.operands : ['-'];
  const out = new Out();
  const stdinLines = splitLines(ctx.stdin);
  let stdinPos = 0;
  const files: Array<string[] | 'stdin'> = [];
  for (const n of names) {
    if (n === '-') {
      files.push('stdin');
      continue;
    }
    const r = readInput(ctx, n);
    if (!r.ok) {
      out.err(`paste: ${n}: ${r.error}`);
      return out.result();
    }
    files.push(splitLines(r.text));
  }
  if (has(p.opts, 's')) {
    for (const f of files) {
      const lines = f === 'stdin' ? stdinLines.slice(stdinPos) : f;
      if (f === 'stdin') stdinPos = stdinLines.length;
      if (lines.length === 0) continue;
      let s = lines[0]!;
      for (let i = 1; i < lines.length; i++) s += delims[(i - 1) % delims.length]! + lines[i]!;
      out.out(`${s}\n`);
    }
    return out.result();
  }
  const pos = files.map(() => 0);
  for (;;) {
    let any = false;
    const cells: string[] = [];
    for (let k = 0; k < files.length; k++) {
      const f = files[k]!;
      let cell = '';
      if (f === 'stdin') {
        if (stdinPos < stdinLines.length) {
          cell = stdinLines[stdinPos++]!;
          any = true;
        }
      } else if (pos[k]! < f.length) {
        cell = f[pos[k]!]!;
        pos[k]!++;
        any = true;
      }
      cells.push(cell);
    }
    if (!any) break;
    let s = cells[0]!;
    for (let k = 1; k < cells.length; k++) s += delims[(k - 1) % delims.length]! + cells[k]!;
    out.out(`${s}\n`);
  }
  return out.result();
};
