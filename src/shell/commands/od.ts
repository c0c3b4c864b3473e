/**
 * od — GNU coreutils src/od.c (9.x): the bytes of the files (or stdin) as octal, hex, decimal or
 * characters. Types: `-t [acdoux][1248CSIL][z]` and the traditional -a -b -c -d -i -l -o -s -x;
 * `-A d|o|x|n` for the offsets, `-j`/`-N` to skip and limit, `-w[N]` bytes per line (16; 32 with no
 * N), `-v` to show repeated lines instead of `*`. Fields line up across types as od.c's
 * width_per_block and pad_at spread the padding; every type after the first is indented by the
 * width of the offset. Floating-point types are not simulated.
 */
import { encodeBytes } from '../../util/bytes.js';
import type { CommandFn } from '../types.js';
import { getopt, Out, readInput } from './util.js';

type Kind = 'a' | 'c' | 'd' | 'o' | 'u' | 'x';

interface Spec {
  kind: Kind;
  size: number;
  /** od.c field_width: the digits of the widest value of that size. */
  width: number;
  /** `z`: the printable characters after the line, between `>` and `<`. */
  trailer: boolean;
}

const WIDTHS: Record<Kind, Record<number, number>> = {
  a: { 1: 3 },
  c: { 1: 3 },
  d: { 1: 4, 2: 6, 4: 11, 8: 20 },
  o: { 1: 3, 2: 6, 4: 11, 8: 22 },
  u: { 1: 3, 2: 5, 4: 10, 8: 20 },
  x: { 1: 2, 2: 4, 4: 8, 8: 16 },
};

/** od.c's charname: the -a names of the control characters and space. */
const CHARNAME = ['nul', 'soh', 'stx', 'etx', 'eot', 'enq', 'ack', 'bel', 'bs', 'ht', 'nl', 'vt', 'ff', 'cr', 'so', 'si', 'dle', 'dc1', 'dc2', 'dc3', 'dc4', 'nak', 'syn', 'etb', 'can', 'em', 'sub', 'esc', 'fs', 'gs', 'rs', 'us', 'sp'];

const C_ESCAPES: Record<number, string> = { 0: '\\0', 7: '\\a', 8: '\\b', 12: '\\f', 10: '\\n', 13: '\\r', 9: '\\t', 11: '\\v' };

const SIZE_LETTERS: Record<string, number> = { C: 1, S: 2, I: 4, L: 8 };

/** decode_format_string: one -t argument, which may hold several types (`-t x1z`, `-t cx1`). */
function parseTypes(arg: string): Spec[] | string {
  const out: Spec[] = [];
  let i = 0;
  while (i < arg.length) {
    const kind = arg[i]! as Kind;
    if (!'acdoux'.includes(kind)) {
      if ('fF'.includes(kind)) return 'floating-point types are not simulated by cka-lab';
      return `invalid character '${arg[i]}' in type string \u2018${arg}\u2019`;
    }
    i++;
    let size = 1;
    if (kind !== 'a' && kind !== 'c') {
      size = 4;
      const letter = arg[i];
      if (letter !== undefined && SIZE_LETTERS[letter] !== undefined) {
        size = SIZE_LETTERS[letter]!;
        i++;
      } else {
        const m = /^\d+/.exec(arg.slice(i));
        if (m) {
          size = Number(m[0]);
          i += m[0].length;
          if (WIDTHS[kind][size] === undefined) return `invalid type string \u2018${arg}\u2019;\nthis system doesn't provide a ${size}-byte integral type`;
        }
      }
    }
    let trailer = false;
    if (arg[i] === 'z') {
      trailer = true;
      i++;
    }
    out.push({ kind, size, width: WIDTHS[kind][size]!, trailer });
  }
  return out;
}

const TRADITIONAL: Record<string, string> = { a: 'a', b: 'o1', c: 'c', d: 'u2', i: 'd4', l: 'd8', o: 'o2', s: 'd2', x: 'x2' };

/** One field's text: the value of `size` little-endian bytes. */
function field(spec: Spec, bytes: Uint8Array): string {
  if (spec.kind === 'a') {
    const c = bytes[0]! & 0x7f;
    return c === 127 ? 'del' : c <= 32 ? CHARNAME[c]! : String.fromCharCode(c);
  }
  if (spec.kind === 'c') {
    const c = bytes[0]!;
    return C_ESCAPES[c] ?? (c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : c.toString(8).padStart(3, '0'));
  }
  let v = 0n;
  for (let k = spec.size - 1; k >= 0; k--) v = (v << 8n) | BigInt(bytes[k] ?? 0);
  if (spec.kind === 'd' && v >= 1n << BigInt(spec.size * 8 - 1)) v -= 1n << BigInt(spec.size * 8);
  if (spec.kind === 'o') return v.toString(8).padStart(spec.width, '0');
  if (spec.kind === 'x') return v.toString(16).padStart(spec.width, '0');
  return v.toString();
}

/** od.c pad_at: the padding still to come before field i of `fields`. */
function padAt(fields: number, i: number, pad: number): number {
  return Math.floor(pad / fields) * i + Math.floor(((pad % fields) * i) / fields);
}

function address(radix: string, n: number): string {
  if (radix === 'n') return '';
  if (radix === 'x') return n.toString(16).padStart(6, '0');
  if (radix === 'd') return String(n).padStart(7, '0');
  return n.toString(8).padStart(7, '0');
}

export const od: CommandFn = (ctx) => {
  // -w takes its number only attached (`-w8`, `--width=8`): getopt's optional argument
  let width = 16;
  const args: string[] = [];
  for (const [i, a] of ctx.argv.slice(1).entries()) {
    const m = /^(?:-w|--width(?:=|$))(.*)$/.exec(a);
    if (!m || ctx.argv.slice(1, i + 1).includes('--')) {
      args.push(a);
      continue;
    }
    if (m[1] !== '' && !/^\d+$/.test(m[1]!)) return { stdout: '', stderr: `od: invalid -w argument '${m[1]}'\n`, exitCode: 1 };
    width = m[1] === '' ? 32 : Number(m[1]);
  }
  const p = getopt('od', args, {
    short: 'A:j:N:t:vabcdilosx',
    long: {
      'address-radix': { key: 'A', arg: true },
      'skip-bytes': { key: 'j', arg: true },
      'read-bytes': { key: 'N', arg: true },
      format: { key: 't', arg: true },
      'output-duplicates': { key: 'v', arg: false },
    },
  });
  const out = new Out();
  // a usage error adds the --help line; a bad argument (od.c's die calls) does not
  const fail = (msg: string): ReturnType<CommandFn> => ({ stdout: '', stderr: `od: ${msg}\n`, exitCode: 1 });
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'od --help' for more information.\n`, exitCode: 1 };
  let radix = 'o';
  let skip = 0;
  let limit: number | undefined;
  let dups = false;
  const specs: Spec[] = [];
  for (const [k, v] of p.opts.list) {
    if (k === 'A') {
      if (!'doxn'.includes(v) || v.length !== 1) return fail(`invalid output address radix '${v}'; it must be one character from [doxn]`);
      radix = v;
    } else if (k === 'j' || k === 'N') {
      if (!/^\d+$/.test(v)) return fail(`invalid -${k} argument '${v}'`);
      if (k === 'j') skip = Number(v);
      else limit = Number(v);
    } else if (k === 't') {
      const r = parseTypes(v);
      if (typeof r === 'string') return fail(r);
      specs.push(...r);
    } else if (k === 'v') dups = true;
    else specs.push(...(parseTypes(TRADITIONAL[k]!) as Spec[]));
  }
  if (specs.length === 0) specs.push(...(parseTypes('o2') as Spec[]));
  // the line width must hold whole fields of every type, else the lcm of their sizes (all powers of 2: the largest)
  const lcm = Math.max(...specs.map((s) => s.size));
  if (width === 0 || width % lcm !== 0) {
    out.err(`od: warning: invalid width ${width}; using ${lcm} instead`, 0);
    width = lcm;
  }

  const names = p.opts.operands.length ? p.opts.operands : ['-'];
  let text = '';
  for (const n of names) {
    const r = readInput(ctx, n);
    if (!r.ok) out.err(r.error === 'Is a directory' ? `od: ${n}: read error: Is a directory` : `od: ${n}: ${r.error}`);
    else text += r.text;
  }
  let bytes = encodeBytes(text);
  if (skip > bytes.length) {
    out.err('od: cannot skip past end of combined input');
    return out.result();
  }
  bytes = bytes.subarray(skip, limit === undefined ? undefined : skip + limit);

  const widthPerBlock = Math.max(...specs.map((s) => (s.width + 1) * (width / s.size)));
  const addrPad = radix === 'n' ? 0 : radix === 'x' ? 6 : 7;
  let text$ = '';
  let prev: Uint8Array | undefined;
  let starred = false;
  for (let off = 0; off < bytes.length; off += width) {
    const block = bytes.subarray(off, off + width);
    const full = block.length === width;
    if (!dups && full && prev && prev.every((b, i) => b === block[i])) {
      if (!starred) text$ += '*\n';
      starred = true;
      continue;
    }
    starred = false;
    prev = full ? block : undefined;
    specs.forEach((spec, si) => {
      let line = si === 0 ? address(radix, skip + off) : ' '.repeat(addrPad);
      const fields = width / spec.size;
      const used = Math.ceil(block.length / spec.size);
      const blank = fields - used;
      const pad = widthPerBlock - spec.width * fields;
      let padRemaining = pad;
      for (let i = fields; i > blank; i--) {
        const next = padAt(fields, i - 1, pad);
        const idx = fields - i;
        const cell = new Uint8Array(spec.size);
        cell.set(block.subarray(idx * spec.size, idx * spec.size + spec.size));
        line += field(spec, cell).padStart(padRemaining - next + spec.width);
        padRemaining = next;
      }
      if (spec.trailer) {
        // od.c (9.1) space-pads the blank fields at their unpadded width, then the trailer
        line += ' '.repeat(blank * (spec.width + 1));
        line += `  >${[...block].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('')}<`;
      }
      text$ += `${line}\n`;
    });
  }
  if (radix !== 'n') text$ += `${address(radix, skip + bytes.length)}\n`;
  out.out(text$);
  return out.result();
};
