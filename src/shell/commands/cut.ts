/**
 * cut — GNU coreutils src/cut.c: -f fields with -d (default TAB; lines without the delimiter are
 * printed whole unless -s), -c/-b byte positions (GNU cut has no multibyte support: -c is -b, and a
 * list may split a UTF-8 sequence, cut.c cut_bytes), lists like `1,3-5,7-`, --output-delimiter,
 * --complement.
 */
import { byteChars, normalizeBytes } from '../../util/bytes.js';
import type { CommandFn } from '../types.js';
import { getopt, has, Out, readInput, splitLines, value } from './util.js';

type Range = [number, number];

/** set-fields.c: a number at UINTMAX_MAX or past it is refused, in positions' or fields' words. */
const UINTMAX_MAX = 2n ** 64n - 1n;

function parseList(list: string, positions: boolean): Range[] | string {
  const ranges: Range[] = [];
  for (const part of list.split(/[, ]/)) {
    const m = /^(\d*)(-?)(\d*)$/.exec(part);
    if (!m || part === '' || part === '-') return part === '-' ? 'invalid range with no endpoint: -' : `invalid field value ‘${part}’`;
    for (const n of [m[1]!, m[3]!]) {
      if (n !== '' && BigInt(n) >= UINTMAX_MAX) return positions ? `byte/character offset ‘${n}’ is too large` : `field number ‘${n}’ is too large`;
    }
    const lo = m[1] === '' ? 1 : Number(m[1]);
    const hi = m[2] === '' ? lo : m[3] === '' ? Infinity : Number(m[3]);
    if (lo === 0 || (m[3] !== '' && Number(m[3]) === 0)) return 'fields and positions are numbered from 1';
    if (hi < lo) return 'invalid decreasing range';
    ranges.push([lo, hi]);
  }
  return ranges;
}

export const cut: CommandFn = (ctx) => {
  const p = getopt('cut', ctx.argv.slice(1), {
    short: 'd:f:c:b:sn',
    long: {
      delimiter: { key: 'd', arg: true },
      fields: { key: 'f', arg: true },
      characters: { key: 'c', arg: true },
      bytes: { key: 'b', arg: true },
      'only-delimited': { key: 's', arg: false },
      'output-delimiter': { key: 'O', arg: true },
      complement: { key: 'C', arg: false },
    },
  });
  const usage = (msg: string): ReturnType<CommandFn> => ({ stdout: '', stderr: `cut: ${msg}\nTry 'cut --help' for more information.\n`, exitCode: 1 });
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'cut --help' for more information.\n`, exitCode: 1 };
  const o = p.opts;
  const modes = ['f', 'c', 'b'].filter((k) => has(o, k));
  if (modes.length === 0) return usage('you must specify a list of bytes, characters, or fields');
  if (modes.length > 1) return usage('only one list may be specified');
  const mode = modes[0]!;
  const list = parseList(value(o, mode)!, mode !== 'f');
  if (typeof list === 'string') return usage(list);
  const delim = value(o, 'd') ?? '\t';
  if (has(o, 'd') && mode !== 'f') return usage('an input delimiter may be specified only when operating on fields');
  if ([...delim].length !== 1) return usage('the delimiter must be a single character');
  const outDelim = value(o, 'O') ?? (mode === 'f' ? delim : '');
  const complement = has(o, 'C');
  const selected = (i: number): boolean => list.some(([lo, hi]) => i >= lo && i <= hi) !== complement;
  const out = new Out();
  for (const f of o.operands.length > 0 ? o.operands : ['-']) {
    const r = readInput(ctx, f);
    if (!r.ok) {
      out.err(`cut: ${f}: ${r.error}`);
      continue;
    }
    for (const line of splitLines(r.text)) {
      if (mode === 'f') {
        if (!line.includes(delim)) {
          if (!has(o, 's')) out.out(`${line}\n`);
          continue;
        }
        out.out(`${line.split(delim).filter((_, i) => selected(i + 1)).join(outDelim)}\n`);
      } else {
        const chars = byteChars(line);
        if (value(o, 'O') !== undefined) {
          // With an output delimiter, adjacent selected positions form one run.
          const runs: string[] = [];
          let cur = '';
          chars.forEach((c, i) => {
            if (selected(i + 1)) cur += c;
            else if (cur !== '') {
              runs.push(cur);
              cur = '';
            }
          });
          if (cur !== '') runs.push(cur);
          out.out(normalizeBytes(`${runs.join(outDelim)}\n`));
        } else out.out(normalizeBytes(`${chars.filter((_, i) => selected(i + 1)).join('')}\n`));
      }
    }
  }
  return out.result();
};
