/**
 * cat — GNU coreutils src/cat.c: concatenate files or stdin (`-`), with -n (number all lines,
 * `%6d\t`), -b (number non-blank), -E (`$` at line end), -s (squeeze blank lines), -T (tabs as
 * ^I), -v (nonprinting bytes as ^X, ^? and M-…), -A (-vET), -e (-vE), -t (-vT), -u ignored.
 * In busybox containers busybox's coreutils/cat.c: options -nbvteAu, "can't open 'F'" and
 * "read error" for a directory (busybox.ts); any of -vteA goes through its catv, byte by byte,
 * numbering lines `%6u  ` (two blanks, no tab).
 */
import { encodeBytes } from '../../util/bytes.js';
import type { CommandFn } from '../types.js';
import { busyboxOpts, cantOpen, isBusybox } from './busybox.js';
import { getopt, has, Out, readInput, type ParsedOpts } from './util.js';

/**
 * One byte as `cat -v` shows it (GNU src/cat.c's nonprinting branch, BusyBox libbb/printable.c
 * visible(): the same): a byte above 0x7f as `M-` and its low seven bits shown so, a control byte
 * as `^` and the byte xor 0x40 (`^@`, `^[`, DEL `^?`), a tab as itself unless `tabs`, a newline
 * as itself after a `$` when `ends`.
 */
export function visibleByte(b: number, tabs: boolean, ends: boolean): string {
  if (b === 0x09 && !tabs) return '\t';
  if (b === 0x0a) return ends ? '$\n' : '\n';
  let c = b;
  let out = '';
  if (c >= 0x80) {
    c -= 0x80;
    out = 'M-';
  }
  if (c < 0x20 || c === 0x7f) return `${out}^${String.fromCharCode(c ^ 0x40)}`;
  return out + String.fromCharCode(c);
}

/** A text's bytes as `cat -v` shows them (visibleByte). */
export function visibleText(text: string, tabs: boolean, ends: boolean): string {
  let out = '';
  for (const b of encodeBytes(text)) out += visibleByte(b, tabs, ends);
  return out;
}

/**
 * BusyBox cat's catv (coreutils/cat.c): each byte through visible(), and with -n or -b the number
 * `%6u  ` before the first byte of each line (for -b not before a newline), the count going on
 * across files.
 */
function busyboxCatv(text: string, o: { tabs: boolean; ends: boolean; number: 'n' | 'b' | undefined }, state: { line: number; eolSeen: boolean }): string {
  let out = '';
  for (const b of encodeBytes(text)) {
    if (o.number !== undefined) {
      if (state.eolSeen && !(o.number === 'b' && b === 0x0a)) out += `${String(++state.line).padStart(6)}  `;
      state.eolSeen = b === 0x0a;
    }
    out += visibleByte(b, o.tabs, o.ends);
  }
  return out;
}

const SPEC = {
  short: 'nbEsTAvetu',
  long: {
    'show-nonprinting': { key: 'v', arg: false },
    number: { key: 'n', arg: false },
    'number-nonblank': { key: 'b', arg: false },
    'show-ends': { key: 'E', arg: false },
    'squeeze-blank': { key: 's', arg: false },
    'show-tabs': { key: 'T', arg: false },
    'show-all': { key: 'A', arg: false },
  },
};

export const cat: CommandFn = (ctx) => {
  const bb = isBusybox(ctx);
  let o: ParsedOpts;
  if (bb) {
    const p = busyboxOpts('cat', ctx.argv.slice(1), { short: 'etvAnbu' });
    if (!p.ok) return p.result;
    o = p.opts;
  } else {
    const p = getopt('cat', ctx.argv.slice(1), SPEC);
    if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'cat --help' for more information.\n`, exitCode: 1 };
    o = p.opts;
  }
  const numberNonBlank = has(o, 'b');
  const number = has(o, 'n') && !numberNonBlank;
  const ends = has(o, 'E') || has(o, 'A') || has(o, 'e');
  const tabs = has(o, 'T') || has(o, 'A') || has(o, 't');
  const nonprinting = has(o, 'v') || has(o, 'A') || has(o, 'e') || has(o, 't');
  const squeeze = has(o, 's');
  const plain = !number && !numberNonBlank && !ends && !tabs && !squeeze && !nonprinting;
  const out = new Out();
  const files = o.operands.length > 0 ? o.operands : ['-'];
  let lineNo = 0;
  let prevBlank = false;
  // busybox's catv: numbering state kept across files, the first line numbered
  const catv = bb && nonprinting ? { line: 0, eolSeen: number || numberNonBlank } : undefined;
  // GNU cat keeps numbering and squeezing state across files.
  for (const f of files) {
    const r = readInput(ctx, f);
    if (!r.ok) {
      out.err(!bb ? `cat: ${f}: ${r.error}` : r.error === 'Is a directory' ? 'cat: read error: Is a directory' : cantOpen('cat', f, r.error));
      continue;
    }
    if (plain) {
      out.out(r.text);
      continue;
    }
    if (catv) {
      out.out(busyboxCatv(r.text, { tabs, ends, number: numberNonBlank ? 'b' : number ? 'n' : undefined }, catv));
      continue;
    }
    const parts = r.text.split('\n');
    parts.forEach((line, idx) => {
      const last = idx === parts.length - 1;
      if (last && line === '') return;
      const blank = line === '' && !last;
      if (squeeze && blank && prevBlank) return;
      prevBlank = blank;
      let s = nonprinting ? visibleText(line, tabs, false) : tabs ? line.replace(/\t/g, '^I') : line;
      if (number || (numberNonBlank && line !== '')) s = `${String(++lineNo).padStart(6)}\t${s}`;
      if (!last) s += ends ? '$\n' : '\n';
      out.out(s);
    });
  }
  return out.result();
};
