/**
 * C printf-style formatting shared by awk's printf/sprintf and the printf command: conversions
 * d i o u x X c s f F e E g G %, flags `-+ #0`, width and precision (including `*`), following
 * glibc's output for each conversion.
 */

import { BudgetExceeded, LINE_OUTPUT } from '../budget.js';

/**
 * One argument: as a floating-point number, as text, and (when the caller reads integers its own
 * way, as bash's printf does with strtoimax) as a 64-bit integer for the integer conversions.
 */
export type FormatArg = { num: () => number; str: () => string; isNum?: boolean; int?: () => bigint; width?: () => number };

/** The integer an argument stands for: the caller's reading, else the number truncated (awk prints big values whole). */
function intOf(a: FormatArg | undefined): bigint {
  if (!a) return 0n;
  if (a.int) return a.int();
  const v = a.num();
  return Number.isFinite(v) ? BigInt(Math.trunc(v)) : 0n;
}

/**
 * A double has at most 1074 fraction digits (2^-1074 is the smallest subnormal), so every digit
 * past them is 0: glibc prints them, and so do we, without arithmetic on them.
 */
const MAX_FRACTION_DIGITS = 1074;

/** The bits of a finite double: value = mant × 2^exp exactly. */
function decompose(x: number): { mant: bigint; exp: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const bexp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (bexp === 0) return { mant, exp: -1074 };
  mant |= 1n << 52n;
  return { mant, exp: bexp - 1075 };
}

/**
 * `x.toFixed(p)` for any precision (JavaScript stops at 100): the exact decimal value of the
 * double rounded half-to-even at `p` digits, as glibc's printf prints `%.999f`. x ≥ 0, finite.
 */
export function fixedDigits(x: number, p: number): string {
  if (p <= 100) return x.toFixed(p);
  const q = Math.min(p, MAX_FRACTION_DIGITS);
  const { mant, exp } = decompose(x);
  const ten = 10n ** BigInt(q);
  let scaled: bigint;
  if (exp >= 0) scaled = (mant << BigInt(exp)) * ten;
  else {
    const num = mant * ten;
    const den = 1n << BigInt(-exp);
    scaled = num / den;
    const r = (num % den) * 2n;
    if (r > den || (r === den && (scaled & 1n) === 1n)) scaled++;
  }
  const digits = scaled.toString().padStart(q + 1, '0');
  return `${digits.slice(0, -q)}.${digits.slice(-q)}${'0'.repeat(p - q)}`;
}

/** `x.toExponential(p)` for any precision: digits past JavaScript's 100 are read from the exact value. */
function expDigits(x: number, p: number): string {
  if (p <= 100) return x.toExponential(p);
  if (x === 0) return `0.${'0'.repeat(p)}e+0`;
  const e = Math.floor(Math.log10(x));
  // the exact digits from the fixed form, shifted so that one digit precedes the point
  let s = fixedDigits(x / 1, Math.min(MAX_FRACTION_DIGITS, Math.max(0, p - e + 1)));
  s = s.replace('.', '').replace(/^0+/, '');
  const lead = e;
  const body = (s + '0'.repeat(p + 2)).slice(0, p + 1);
  return `${body[0]}.${body.slice(1)}e${lead < 0 ? '-' : '+'}${Math.abs(lead)}`;
}

/**
 * A field width or precision that alone would write more than any line may (`%.999999999f`):
 * glibc would print a gigabyte; the simulator ends the line with its output limit instead.
 */
function checkSize(n: number): void {
  if (n > LINE_OUTPUT) throw new BudgetExceeded('output');
}

function pad(s: string, width: number, left: boolean, zero: boolean): string {
  if (s.length >= width) return s;
  if (left) return s.padEnd(width);
  if (zero) {
    const m = /^([-+ ]|0[xX])?/.exec(s)!;
    const sign = m[0];
    return sign + s.slice(sign.length).padStart(width - sign.length, '0');
  }
  return s.padStart(width);
}

/** %e with a two-digit minimum exponent, as C prints it. */
export function expFormat(v: number, prec: number, upper: boolean): string {
  let s = expDigits(v, prec);
  s = s.replace(/e([+-])(\d)$/, 'e$10$2');
  return upper ? s.toUpperCase() : s;
}

/** %g: shortest of %e/%f per C's rules, trailing zeros removed unless `#`. */
export function gFormat(v: number, precIn: number, upper: boolean, alt = false): string {
  if (!Number.isFinite(v)) return nonFinite(v, upper);
  const prec = precIn === 0 ? 1 : precIn;
  if (v === 0) return alt ? fixedDigits(0, prec - 1) : '0';
  const exp = Math.floor(Math.log10(Math.abs(v)));
  // Recompute the exponent after rounding to `prec` significant digits.
  const rounded = Number(v.toExponential(Math.min(100, prec - 1)));
  const x = rounded === 0 ? exp : Math.floor(Math.log10(Math.abs(rounded)));
  let s: string;
  if (x < -4 || x >= prec) {
    s = expFormat(v, prec - 1, upper);
    if (!alt) s = s.replace(/\.?0+(e)/i, '$1');
  } else {
    s = fixedDigits(v, Math.max(0, prec - 1 - x));
    if (!alt && s.includes('.')) s = s.replace(/\.?0+$/, '');
  }
  return s;
}

function nonFinite(v: number, upper: boolean): string {
  const s = Number.isNaN(v) ? '-nan' : v > 0 ? 'inf' : '-inf';
  return upper ? s.toUpperCase() : s;
}

/**
 * Format `fmt` with args. Returns the text and how many args were consumed (the printf command
 * reuses the format while arguments remain). Missing args are 0 / "".
 */
export function formatC(fmt: string, args: FormatArg[], start = 0): { text: string; used: number } {
  let out = '';
  let ai = start;
  const next = (): FormatArg | undefined => args[ai++];
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i]!;
    if (c !== '%') {
      out += c;
      continue;
    }
    const m = /^([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?(hh|h|ll|l|L|q|j|z|t)?([diouxXcsfFeEgGaA%])/.exec(fmt.slice(i + 1));
    if (!m) {
      out += '%';
      continue;
    }
    i += m[0].length;
    const flags = m[1] ?? '';
    let width = 0;
    const star = (): number => {
      const a = next();
      return a === undefined ? 0 : a.width ? a.width() : Math.trunc(a.num());
    };
    if (m[2] === '*') width = star();
    else if (m[2]) width = Number(m[2]);
    let left = flags.includes('-');
    if (width < 0) {
      left = true;
      width = -width;
    }
    let prec: number | undefined;
    if (m[3] !== undefined) prec = m[3] === '*' ? star() : Number(m[3] || '0');
    if (prec !== undefined && prec < 0) prec = undefined;
    checkSize(width);
    checkSize(prec ?? 0);
    const conv = m[5]!;
    const zero = flags.includes('0') && !left;
    const plus = flags.includes('+');
    const space = flags.includes(' ');
    const alt = flags.includes('#');
    const sign = (v: number, s: string): string => (v < 0 || Object.is(v, -0) ? s : plus ? `+${s}` : space ? ` ${s}` : s);
    switch (conv) {
      case '%':
        out += '%';
        break;
      case 'd':
      case 'i': {
        const v = intOf(next());
        let digits = (v < 0n ? -v : v).toString();
        if (prec !== undefined) digits = prec === 0 && v === 0n ? '' : digits.padStart(prec, '0');
        out += pad(sign(Number(v), v < 0n ? `-${digits}` : digits), width, left, zero && prec === undefined);
        break;
      }
      case 'o':
      case 'u':
      case 'x':
      case 'X': {
        let v = intOf(next());
        if (v < 0n) v = (1n << 64n) + v;
        let digits = conv === 'o' ? v.toString(8) : conv === 'u' ? v.toString() : v.toString(16);
        if (conv === 'X') digits = digits.toUpperCase();
        if (prec !== undefined) digits = prec === 0 && v === 0n ? '' : digits.padStart(prec, '0');
        if (alt && v !== 0n && (conv === 'x' || conv === 'X')) digits = `0${conv}${digits}`;
        if (alt && conv === 'o' && !digits.startsWith('0')) digits = `0${digits}`;
        out += pad(digits, width, left, zero && prec === undefined);
        break;
      }
      case 'c': {
        const a = next();
        const s = a === undefined ? '' : a.isNum ? String.fromCharCode(Math.trunc(a.num()) & 0xff) : [...a.str()][0] ?? '';
        out += pad(s, width, left, false);
        break;
      }
      case 's': {
        let s = next()?.str() ?? '';
        if (prec !== undefined) s = s.slice(0, prec);
        out += pad(s, width, left, false);
        break;
      }
      case 'f':
      case 'F':
      case 'e':
      case 'E':
      case 'g':
      case 'G':
      case 'a':
      case 'A': {
        const v = next()?.num() ?? 0;
        const p = prec ?? 6;
        let s: string;
        if (!Number.isFinite(v)) s = nonFinite(v, conv === conv.toUpperCase());
        else if (conv === 'f' || conv === 'F') s = fixedDigits(Math.abs(v), p);
        else if (conv === 'e' || conv === 'E') s = expFormat(Math.abs(v), p, conv === 'E');
        else s = gFormat(Math.abs(v), p, conv === 'G', alt);
        if (Number.isFinite(v) && (v < 0 || Object.is(v, -0))) s = `-${s}`;
        else if (Number.isFinite(v)) s = sign(v, s);
        out += pad(s, width, left, zero && Number.isFinite(v));
        break;
      }
    }
  }
  return { text: out, used: ai - start };
}
