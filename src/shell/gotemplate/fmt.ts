/**
 * Go's fmt package for template values (golang src/fmt/print.go, format.go; strconv/ftoa.go):
 * `%v` of maps as `map[a:1 b:2]` with sorted keys, slices as `[a b]`, floats in `%g`'s shortest
 * form (`1e+06`), flags `+-# 0`, width and precision, and fmt's complaints inline:
 * `%!d(string=x)`, `%!s(MISSING)`, `%!(EXTRA int=1)`, `%!(NOVERB)`.
 */
import { goQuote } from '../../util/go-quote.js';
import { GoFunc, GoNum, GoStruct, GoTime, type GoValue, isMap, sortedKeys, typeName } from './value.js';

interface Spec {
  plus: boolean;
  minus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  width: number | undefined;
  prec: number | undefined;
}

const NO_FLAGS: Spec = { plus: false, minus: false, sharp: false, space: false, zero: false, width: undefined, prec: undefined };

function pad(s: string, f: Spec, zeroOk = true): string {
  const w = f.width ?? 0;
  const n = [...s].length;
  if (n >= w) return s;
  if (f.minus) return s + ' '.repeat(w - n);
  if (f.zero && zeroOk) {
    const sign = /^[+-]/.test(s) ? s[0]! : '';
    return sign + '0'.repeat(w - n) + s.slice(sign.length);
  }
  return ' '.repeat(w - n) + s;
}

/** Digits and decimal exponent of the shortest representation that round-trips. */
function shortestDigits(v: number): { digits: string; exp: number } {
  const [m, e] = Math.abs(v).toExponential().split('e') as [string, string];
  return { digits: m.replace('.', ''), exp: Number(e) };
}

function expForm(mant: string, exp: number, upper: boolean): string {
  const sign = exp < 0 ? '-' : '+';
  const e = String(Math.abs(exp)).padStart(2, '0');
  return `${mant}${upper ? 'E' : 'e'}${sign}${e}`;
}

/** strconv.FormatFloat(v, fmt, prec, 64) for e, f, g (prec -1 = shortest). */
export function formatFloat(v: number, verb: 'e' | 'E' | 'f' | 'F' | 'g' | 'G', prec: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  const neg = v < 0 || Object.is(v, -0);
  const a = Math.abs(v);
  let body: string;
  switch (verb) {
    case 'e':
    case 'E': {
      if (prec < 0) {
        const { digits, exp } = shortestDigits(a);
        body = expForm(digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits, exp, verb === 'E');
      } else {
        const [m, e] = tieToEven(a, a.toExponential(prec), 'e', prec).split('e') as [string, string];
        body = expForm(m, Number(e), verb === 'E');
      }
      break;
    }
    case 'f':
    case 'F':
      if (prec < 0) {
        const { digits, exp } = shortestDigits(a);
        body = fixedFromDigits(digits, exp, Math.max(digits.length - exp - 1, 0));
      } else body = tieToEven(a, a.toFixed(prec), 'f', prec);
      break;
    default: {
      let digits: string;
      let exp: number;
      let eprec: number;
      if (prec < 0) {
        ({ digits, exp } = shortestDigits(a));
        eprec = 6;
      } else {
        const p = prec === 0 ? 1 : prec;
        const [m, e] = a.toExponential(p - 1).split('e') as [string, string];
        digits = m.replace('.', '').replace(/0+$/, '') || '0';
        exp = Number(e);
        eprec = p;
        if (eprec > digits.length && digits.length >= exp + 1) eprec = digits.length;
      }
      if (a === 0) {
        digits = '0';
        exp = 0;
      }
      if (exp < -4 || exp >= eprec) {
        body = expForm(digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits, exp, verb === 'G');
      } else {
        body = fixedFromDigits(digits, exp, Math.max(digits.length - exp - 1, 0));
      }
    }
  }
  return neg ? `-${body}` : body;
}

/**
 * Round |v| to `decimals` places after the first significant digit (exp form) or after the
 * point (fixed form) the way strconv does: exact ties go to the even digit, where JavaScript's
 * toFixed/toExponential round them up.
 */
function tieToEven(a: number, text: string, form: 'e' | 'f', prec: number): string {
  const exact = a.toPrecision(100).replace(/e.*$/, '');
  const [intPart, frac = ''] = exact.split('.');
  const digits = (intPart! + frac).replace(/^0+/, '');
  const lead = form === 'e' ? 1 : intPart === '0' ? -(frac.length - frac.replace(/^0+/, '').length) : intPart!.length;
  const keep = form === 'e' ? prec + 1 : lead + prec;
  const tail = digits.slice(keep).replace(/0+$/, '');
  if (tail !== '5' || keep < 0) return text;
  const last = keep === 0 ? 0 : Number(digits[keep - 1]);
  if (last % 2 === 1) return text; // rounding up reaches the even digit, as JavaScript did
  // JavaScript rounded up to an odd digit; strconv keeps the even one below
  return form === 'e' ? a.toExponential(prec).replace(/\d(?=e)/, (d) => String(Number(d) - 1)) : fixDown(text);
}

/** Decrease the last digit of a toFixed result by one (it ended in an odd digit after rounding up). */
function fixDown(text: string): string {
  return text.replace(/\d$/, (d) => String(Number(d) - 1));
}

function fixedFromDigits(digits: string, exp: number, decimals: number): string {
  // value = 0.d1d2d3… × 10^(exp+1)
  const dp = exp + 1;
  let intPart: string;
  let frac: string;
  if (dp <= 0) {
    intPart = '0';
    frac = '0'.repeat(-dp) + digits;
  } else if (dp >= digits.length) {
    intPart = digits + '0'.repeat(dp - digits.length);
    frac = '';
  } else {
    intPart = digits.slice(0, dp);
    frac = digits.slice(dp);
  }
  frac = frac.padEnd(decimals, '0').slice(0, decimals);
  return decimals > 0 ? `${intPart}.${frac}` : intPart;
}

function fmtInt(n: number, verb: string, f: Spec): string {
  const neg = n < 0;
  const a = Math.abs(n);
  let digits: string;
  let prefix = '';
  switch (verb) {
    case 'b':
      digits = a.toString(2);
      if (f.sharp) prefix = '0b';
      break;
    case 'o':
    case 'O':
      digits = a.toString(8);
      if (verb === 'O') prefix = '0o';
      else if (f.sharp && digits !== '0') prefix = '0';
      break;
    case 'x':
      digits = a.toString(16);
      if (f.sharp) prefix = '0x';
      break;
    case 'X':
      digits = a.toString(16).toUpperCase();
      if (f.sharp) prefix = '0X';
      break;
    default:
      digits = String(a);
  }
  if (f.prec !== undefined) {
    if (f.prec === 0 && a === 0) digits = '';
    digits = digits.padStart(f.prec, '0');
  }
  const sign = neg ? '-' : f.plus ? '+' : f.space ? ' ' : '';
  if (f.zero && !f.minus && f.prec === undefined && f.width !== undefined) {
    const w = f.width - sign.length - prefix.length;
    return sign + prefix + digits.padStart(w, '0');
  }
  return pad(sign + prefix + digits, f, false);
}

function fmtFloatVerb(v: number, verb: string, f: Spec): string {
  let s: string;
  const prec = f.prec ?? -1;
  switch (verb) {
    case 'v':
    case 'g':
    case 'G':
      s = formatFloat(v, verb === 'G' ? 'G' : 'g', prec);
      break;
    case 'e':
    case 'E':
      s = formatFloat(v, verb, f.prec ?? 6);
      break;
    default:
      s = formatFloat(v, 'f', f.prec ?? 6);
  }
  if (f.plus && !s.startsWith('-') && !s.startsWith('+')) s = `+${s}`;
  else if (f.space && !s.startsWith('-')) s = ` ${s}`;
  if (s === '+Inf' && !f.plus) s = s.slice(1);
  return pad(s, f, Number.isFinite(v));
}

function hexString(s: string, upper: boolean): string {
  const hex = [...Buffer.from(s, 'utf8')].map((b) => b.toString(16).padStart(2, '0')).join('');
  return upper ? hex.toUpperCase() : hex;
}

function badVerb(verb: string, v: GoValue): string {
  if (v === null || v === undefined) return `%!${verb}(<nil>)`;
  return `%!${verb}(${typeName(v)}=${printArg(v, 'v', NO_FLAGS)})`;
}

/** p.printArg: one operand under one verb. */
export function printArg(v: GoValue, verb: string, f: Spec = NO_FLAGS): string {
  if (v === null || v === undefined) {
    if (verb === 'T' || verb === 'v') return pad('<nil>', f, false);
    return badVerb(verb, v);
  }
  if (verb === 'T') return pad(typeName(v), f, false);
  if (typeof v === 'boolean') return verb === 't' || verb === 'v' ? pad(String(v), f, false) : badVerb(verb, v);
  if (v instanceof GoNum) {
    if (v.isInt) {
      switch (verb) {
        case 'v':
        case 'd':
        case 'b':
        case 'o':
        case 'O':
        case 'x':
        case 'X':
          return fmtInt(v.v, verb === 'v' ? 'd' : verb, f);
        case 'c':
          return pad(String.fromCodePoint(v.v), f, false);
        case 'q':
          return pad(`'${String.fromCodePoint(v.v).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`, f, false);
        case 'U':
          return pad(`U+${v.v.toString(16).toUpperCase().padStart(4, '0')}`, f, false);
        default:
          return badVerb(verb, v);
      }
    }
    if ('vgGeEfF'.includes(verb)) return fmtFloatVerb(v.v, verb, f);
    return badVerb(verb, v);
  }
  if (typeof v === 'string') {
    switch (verb) {
      case 'v':
      case 's':
        return pad(f.prec !== undefined ? [...v].slice(0, f.prec).join('') : v, f);
      case 'q':
        return pad(f.sharp && !v.includes('`') ? `\`${v}\`` : goQuote(v), f);
      case 'x':
      case 'X':
        return pad(hexString(v, verb === 'X'), f);
      default:
        return badVerb(verb, v);
    }
  }
  if (v instanceof GoFunc) return verb === 'v' || verb === 'p' ? '0xc000000000' : badVerb(verb, v);
  // handleMethods: a time.Time is a Stringer for the string verbs
  if (v instanceof GoStruct) return `{${Object.values(v.fields).map((x) => printArg(x, verb, f)).join(' ')}}`;
  if (v instanceof GoTime) return 'vsxXq'.includes(verb) ? printArg(v.toString(), verb, f) : badVerb(verb, v);
  if (Array.isArray(v)) return `[${v.map((x) => printArg(x, verb, f)).join(' ')}]`;
  if (isMap(v)) return `map[${sortedKeys(v).map((k) => `${printArg(k, verb, f)}:${printArg(v[k], verb, f)}`).join(' ')}]`;
  return badVerb(verb, v);
}

/** fmt.Sprintf. */
export function sprintf(format: string, args: readonly GoValue[]): string {
  let out = '';
  let argNum = 0;
  let i = 0;
  while (i < format.length) {
    const ch = format[i]!;
    if (ch !== '%') {
      out += ch;
      i++;
      continue;
    }
    i++;
    const f: Spec = { ...NO_FLAGS };
    flags: for (; i < format.length; i++) {
      switch (format[i]) {
        case '+':
          f.plus = true;
          break;
        case '-':
          f.minus = true;
          f.zero = false;
          break;
        case '#':
          f.sharp = true;
          break;
        case ' ':
          f.space = true;
          break;
        case '0':
          f.zero = !f.minus;
          break;
        default:
          break flags;
      }
    }
    const num = (): number | undefined => {
      if (format[i] === '*') {
        i++;
        const a = args[argNum++];
        if (a instanceof GoNum && a.isInt) return a.v;
        out += '%!(BADWIDTH)';
        return undefined;
      }
      const m = /^\d+/.exec(format.slice(i));
      if (!m) return undefined;
      i += m[0].length;
      return Number(m[0]);
    };
    f.width = num();
    if (f.width !== undefined && f.width < 0) {
      f.minus = true;
      f.width = -f.width;
    }
    if (format[i] === '.') {
      i++;
      f.prec = num() ?? 0;
    }
    if (i >= format.length) {
      out += '%!(NOVERB)';
      break;
    }
    const verb = String.fromCodePoint(format.codePointAt(i)!);
    i += verb.length;
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (argNum >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    const arg = args[argNum++];
    if (verb === 'w') {
      out += badVerb(verb, arg);
      continue;
    }
    out += printArg(arg, verb, f);
  }
  if (argNum < args.length) {
    out += `%!(EXTRA ${args
      .slice(argNum)
      .map((a) => (a === null || a === undefined ? '<nil>' : `${typeName(a)}=${printArg(a, 'v')}`))
      .join(', ')})`;
  }
  return out;
}

/** fmt.Sprint: spaces between operands when neither side is a string. */
export function sprint(args: readonly GoValue[]): string {
  let out = '';
  args.forEach((a, i) => {
    if (i > 0 && typeof a !== 'string' && typeof args[i - 1] !== 'string') out += ' ';
    out += printArg(a, 'v');
  });
  return out;
}

/** fmt.Sprintln: spaces always, newline at the end. */
export function sprintln(args: readonly GoValue[]): string {
  return `${args.map((a) => printArg(a, 'v')).join(' ')}\n`;
}
