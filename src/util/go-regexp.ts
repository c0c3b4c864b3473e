/**
 * Go's regexp.Compile for a pattern a user gives helm (`helm list --filter`, pkg/action/list.go):
 * the syntax errors come first, worded and positioned as Go's regexp/syntax parse.go reports them
 * (`error parsing regexp: missing closing ): \`(\``); a pattern Go accepts is then matched on the
 * simulator's linear-time RE2 engine (util/regex), never on V8's backtracking one.
 *
 * The checker follows parse.go's main loop with a small stack of what it has pushed: `(` and `|`
 * markers (Go's pseudo-operators) and operands, each operand a repeat (min, max and its operand)
 * or anything else with its children, which is what repeatIsValid walks. It checks, in Go's
 * order: Perl flag groups and named captures (parsePerlFlags), `)` without `(`
 * (parseRightParen), character classes (parseClass, parseNamedClass, parseUnicodeClass), escapes
 * (parseEscape), repetitions (repeat: nested operators, a missing operand, counts above 1000 or
 * whose nested product is), and an unclosed `(` at the end.
 */
import { LinearRegExp } from './regex/index.js';

/** An operand on the parse stack, or one of Go's pseudo-operators. */
type Item = { t: '(' } | { t: '|' } | { t: 'rep'; min: number; max: number; sub: Item } | { t: 'x'; subs: Item[] };

export class GoRegexpError extends Error {
  constructor(code: string, expr: string) {
    super(`error parsing regexp: ${code}: \`${expr}\``);
  }
}

const MAX_REPEAT = 1000;
/** parse.go maxHeight: deeper nesting fails with ErrNestingDepth. */
const MAX_HEIGHT = 1000;

/** unicode.Categories keys (Go 1.25), as canonicalName leaves them. */
const CATEGORIES = new Set(['C', 'Cc', 'Cf', 'Co', 'Cs', 'L', 'Ll', 'Lm', 'Lo', 'Lt', 'Lu', 'M', 'Mc', 'Me', 'Mn', 'N', 'Nd', 'Nl', 'No', 'P', 'Pc', 'Pd', 'Pe', 'Pf', 'Pi', 'Po', 'Ps', 'S', 'Sc', 'Sk', 'Sm', 'So', 'Z', 'Zl', 'Zp', 'Zs']);

/** parse.go canonicalName: first letter upper, the rest lower, without `_`, `-` and spaces. */
function canonicalName(name: string): string {
  const s = name.replace(/[_\- ]/g, '');
  return s.slice(0, 1).toUpperCase() + s.slice(1).toLowerCase();
}

/**
 * The ASCII members of a Unicode class name as Go's unicodeTable resolves it (categories, Any,
 * Assigned, ASCII, scripts; scripts and categories checked against JavaScript's own Unicode
 * tables), or undefined for a name Go does not know. Release names are ASCII, so the ASCII
 * members are all a match can use.
 */
function unicodeClassAscii(name: string): string | undefined {
  const c = canonicalName(name);
  const members = (re: RegExp): string => {
    let out = '';
    for (let i = 0; i < 128; i++) if (re.test(String.fromCharCode(i))) out += String.fromCharCode(i);
    return out;
  };
  if (c === 'Any' || c === 'Ascii' || c === 'Assigned') return members(/[\s\S]/);
  if (c === 'Lc') return members(/\p{LC}/u);
  if (CATEGORIES.has(c) || CATEGORIES.has(name)) return members(new RegExp(`\\p{gc=${CATEGORIES.has(name) ? name : c}}`, 'u'));
  for (const n of [name, c]) {
    try {
      return members(new RegExp(`\\p{Script=${n}}`, 'u'));
    } catch {
      /* not a script JavaScript knows under this spelling */
    }
  }
  return undefined;
}

/** parse.go parseUnicodeClass at `\p`/`\P`: the text consumed and the ASCII class it stands for. */
function unicodeClass(t: string): { seq: string; cls: string } {
  let seq: string;
  let name: string;
  let neg = t[1] === 'P';
  if (t[2] !== '{') {
    const ch = [...t.slice(2)][0] ?? '';
    seq = t.slice(0, 2 + ch.length);
    name = ch;
  } else {
    const end = t.indexOf('}');
    if (end < 0) throw new GoRegexpError('invalid character class range', t);
    seq = t.slice(0, end + 1);
    name = t.slice(3, end);
  }
  if (name.startsWith('^')) {
    neg = !neg;
    name = name.slice(1);
  }
  const members = unicodeClassAscii(name);
  if (members === undefined) throw new GoRegexpError('invalid character class range', seq);
  const esc = [...members].map((ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
  // a class with no ASCII member matches no release name; a negated one of none matches any
  const cls = neg ? (esc ? `[^${esc}]` : '[\\s\\S]') : esc ? `[${esc}]` : '[^\\s\\S]';
  return { seq, cls };
}

const POSIX = new Set(['alnum', 'alpha', 'ascii', 'blank', 'cntrl', 'digit', 'graph', 'lower', 'print', 'punct', 'space', 'upper', 'word', 'xdigit']);
const PERL_CLASS = /^\\[dDsSwW]/;
const isAlnum = (c: string): boolean => /^[0-9A-Za-z]$/.test(c);
const unhex = (c: string | undefined): number => (c !== undefined && /^[0-9A-Fa-f]$/.test(c) ? parseInt(c, 16) : -1);

/** parse.go parseEscape: the length of the escape at the start of `s` (which begins with `\`). */
function escapeLength(s: string): number {
  const t = s.slice(1);
  if (t === '') throw new GoRegexpError('trailing backslash at end of expression', '');
  const c = [...t][0]!;
  let i = 1 + c.length;
  const bad = (): never => {
    throw new GoRegexpError('invalid escape sequence', s.slice(0, i));
  };
  if (c.codePointAt(0)! < 0x80 && !isAlnum(c)) return i;
  if (c >= '1' && c <= '7') {
    // a lone non-zero digit would be a backreference, which RE2 refuses
    if (!/[0-7]/.test(s[i] ?? '')) return bad();
  }
  if (c >= '0' && c <= '7') {
    for (let k = 1; k < 3 && /[0-7]/.test(s[i] ?? ''); k++) i++;
    return i;
  }
  if (c === 'x') {
    if (i >= s.length) return bad();
    const d = s[i]!;
    i++;
    if (d === '{') {
      let n = 0;
      let v = 0;
      for (;;) {
        if (i >= s.length) return bad();
        const h = s[i]!;
        i++;
        if (h === '}') break;
        if (unhex(h) < 0) return bad();
        v = v * 16 + unhex(h);
        if (v > 0x10ffff) return bad();
        n++;
      }
      if (n === 0) return bad();
      return i;
    }
    const y = s[i];
    if (y !== undefined) i++;
    if (unhex(d) < 0 || unhex(y) < 0) return bad();
    return i;
  }
  if ('afnrtv'.includes(c)) return i;
  return bad();
}

/** repeatIsValid: the repeat counts along any path multiply to at most MAX_REPEAT. */
function repeatIsValid(re: Item, n: number): boolean {
  let budget = n;
  if (re.t === 'rep') {
    let m = re.max;
    if (m === 0) return true;
    if (m < 0) m = re.min;
    if (m > budget) return false;
    if (m > 0) budget = Math.floor(budget / m);
    return repeatIsValid(re.sub, budget);
  }
  if (re.t === 'x') return re.subs.every((s) => repeatIsValid(s, budget));
  return true;
}

/** parse.go parseRepeat at `{`: min, max (-1 for none) and the text after `}`, or undefined when `{` is a literal. */
function parseRepeat(s: string): { min: number; max: number; rest: string } | undefined {
  const m = /^\{(0|[1-9][0-9]*)(?:(,)(0|[1-9][0-9]*)?)?\}/.exec(s);
  if (!m) return undefined;
  const big = (d: string): number => (d.length > 8 ? -1 : Number(d));
  let min = big(m[1]!);
  let max = m[2] === undefined ? min : m[3] === undefined ? -1 : big(m[3]);
  if (m[3] !== undefined && max < 0) min = -1;
  if (m[2] === undefined && min < 0) max = -1;
  return { min, max, rest: s.slice(m[0].length) };
}

/** The operands above the topmost pseudo-operator, collapsed into one (concat/alternate). */
function collapse(stack: Item[]): void {
  let i = stack.length;
  while (i > 0 && stack[i - 1]!.t !== '(' && stack[i - 1]!.t !== '|') i--;
  const subs = stack.splice(i);
  stack.push(subs.length === 1 ? subs[0]! : { t: 'x', subs });
}

/**
 * Check a pattern as Go's regexp/syntax.Parse(s, Perl) does; returns the pattern translated for
 * the RE2 engine (`\Q…\E` quoted, `\p` classes as their ASCII members) or throws Go's error.
 */
export function checkGoSyntax(s: string): string {
  const stack: Item[] = [];
  let out = '';
  let t = s;
  let lastRepeat = '';
  let depth = 0;
  const operand = (sub: Item = { t: 'x', subs: [] }): void => void stack.push(sub);
  while (t !== '') {
    let repeat = '';
    const c = t[0]!;
    if (c === '(') {
      if (t[1] === '?') {
        const named = (t.length > 4 && t[2] === 'P' && t[3] === '<') || (t.length > 3 && t[2] === '<');
        if (named) {
          const start = t[2] === 'P' ? 4 : 3;
          const end = t.indexOf('>');
          if (end < 0) throw new GoRegexpError('invalid named capture', t);
          const name = t.slice(start, end);
          if (name === '' || !/^[A-Za-z0-9_]+$/.test(name)) throw new GoRegexpError('invalid named capture', t.slice(0, end + 1));
          // the engine needs no names to match: an unnamed group (Go allows duplicate names)
          stack.push({ t: '(' });
          if (++depth > MAX_HEIGHT) throw new GoRegexpError('expression nests too deeply', s);
          out += '(';
          t = t.slice(end + 1);
        } else {
          let i = 2;
          let sign = 1;
          let sawFlag = false;
          let done = false;
          while (i < t.length) {
            const f = t[i]!;
            i++;
            if ('imsU'.includes(f)) sawFlag = true;
            else if (f === '-') {
              if (sign < 0) break;
              sign = -1;
              sawFlag = false;
            } else if (f === ':' || f === ')') {
              if (sign < 0 && !sawFlag) break;
              if (f === ':') {
                stack.push({ t: '(' });
                if (++depth > MAX_HEIGHT) throw new GoRegexpError('expression nests too deeply', s);
              }
              done = true;
              break;
            } else break;
          }
          if (!done) throw new GoRegexpError('invalid or unsupported Perl syntax', t.slice(0, i));
          out += t.slice(0, i);
          t = t.slice(i);
        }
      } else {
        stack.push({ t: '(' });
        if (++depth > MAX_HEIGHT) throw new GoRegexpError('expression nests too deeply', s);
        out += '(';
        t = t.slice(1);
      }
    } else if (c === '|') {
      collapse(stack);
      stack.push({ t: '|' });
      out += '|';
      t = t.slice(1);
    } else if (c === ')') {
      collapse(stack);
      // drop `|` markers down to the `(`: an alternation is one operand
      const alts: Item[] = [];
      while (stack.length > 0 && stack.at(-1)!.t !== '(') {
        const x = stack.pop()!;
        if (x.t !== '|') alts.push(x);
      }
      if (stack.length === 0) throw new GoRegexpError('unexpected )', s);
      stack.pop();
      depth--;
      operand({ t: 'x', subs: alts });
      out += ')';
      t = t.slice(1);
    } else if (c === '[') {
      const end = classEnd(t, s);
      out += translateClass(t.slice(0, end));
      t = t.slice(end);
      operand();
    } else if (c === '*' || c === '+' || c === '?' || c === '{') {
      let min = 0;
      let max = 0;
      let after: string;
      if (c === '{') {
        const r = parseRepeat(t);
        if (!r) {
          operand();
          out += '\\{';
          t = t.slice(1);
          lastRepeat = '';
          continue;
        }
        if (r.min < 0 || r.min > MAX_REPEAT || r.max > MAX_REPEAT || (r.max >= 0 && r.min > r.max)) throw new GoRegexpError('invalid repeat count', t.slice(0, t.length - r.rest.length));
        ({ min, max } = r);
        after = r.rest;
      } else after = t.slice(1);
      if (after[0] === '?') after = after.slice(1);
      if (lastRepeat !== '') throw new GoRegexpError('invalid nested repetition operator', lastRepeat.slice(0, lastRepeat.length - after.length));
      const top = stack.at(-1);
      if (!top || top.t === '(' || top.t === '|') throw new GoRegexpError('missing argument to repetition operator', t.slice(0, t.length - after.length));
      const rep: Item = { t: 'rep', min: c === '{' ? min : 0, max: c === '{' ? max : 0, sub: top };
      stack[stack.length - 1] = rep;
      if (c === '{' && (min >= 2 || max >= 2) && !repeatIsValid(rep, MAX_REPEAT)) throw new GoRegexpError('invalid repeat count', t.slice(0, t.length - after.length));
      out += t.slice(0, t.length - after.length);
      repeat = t;
      t = after;
    } else if (c === '\\') {
      const n = t[1];
      if (n === 'A' || n === 'b' || n === 'B' || n === 'z') {
        operand();
        // grouped, so that a repetition of an assertion (which Go allows) stays valid for the engine
        out += `(?:${t.slice(0, 2)})`;
        t = t.slice(2);
      } else if (n === 'C') throw new GoRegexpError('invalid escape sequence', t.slice(0, 2));
      else if (n === 'Q') {
        const e = t.indexOf('\\E', 2);
        const lit = e < 0 ? t.slice(2) : t.slice(2, e);
        for (const ch of lit) {
          operand();
          out += ch.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
        }
        t = e < 0 ? '' : t.slice(e + 2);
      } else if (n === 'p' || n === 'P') {
        const u = unicodeClass(t);
        operand();
        out += u.cls;
        t = t.slice(u.seq.length);
      } else if (PERL_CLASS.test(t)) {
        operand();
        out += t.slice(0, 2);
        t = t.slice(2);
      } else {
        const len = escapeLength(t);
        operand();
        out += t.slice(0, len);
        t = t.slice(len);
      }
    } else {
      const ch = [...t][0]!;
      operand();
      out += ch === '^' || ch === '$' ? `(?:${ch})` : ch;
      t = t.slice(ch.length);
    }
    lastRepeat = repeat;
  }
  collapse(stack);
  if (stack.some((x) => x.t === '(')) throw new GoRegexpError('missing closing )', s);
  return out;
}

/** parse.go parseClass from `[`: the length of the class, after checking what Go checks inside it. */
function classEnd(t: string, whole: string): number {
  let i = 1;
  if (t[i] === '^') i++;
  let first = true;
  const classChar = (): number => {
    if (i >= t.length) throw new GoRegexpError('missing closing ]', t);
    if (t[i] === '\\') {
      const len = escapeLength(t.slice(i));
      const code = escapeValue(t.slice(i, i + len));
      i += len;
      return code;
    }
    const ch = [...t.slice(i)][0]!;
    i += ch.length;
    return ch.codePointAt(0)!;
  };
  while (i >= t.length || t[i] !== ']' || first) {
    first = false;
    if (t[i] === '[' && t[i + 1] === ':') {
      const e = t.indexOf(':]', i + 2);
      if (e >= 0) {
        const name = t.slice(i, e + 2);
        if (!POSIX.has(name.slice(2, -2).replace(/^\^/, ''))) throw new GoRegexpError('invalid character class range', name);
        i = e + 2;
        continue;
      }
    }
    if (t[i] === '\\' && (t[i + 1] === 'p' || t[i + 1] === 'P')) {
      i += unicodeClass(t.slice(i)).seq.length;
      continue;
    }
    if (PERL_CLASS.test(t.slice(i))) {
      i += 2;
      continue;
    }
    const start = i;
    const lo = classChar();
    if (i + 1 < t.length && t[i] === '-' && t[i + 1] !== ']') {
      i++;
      const hi = classChar();
      if (hi < lo) throw new GoRegexpError('invalid character class range', t.slice(start, i));
    }
  }
  void whole;
  return i + 1;
}

/** The code point an escape inside a class stands for (for range order). */
function escapeValue(esc: string): number {
  const c = esc[1]!;
  if (c === 'x') return parseInt(esc.slice(2).replace(/[{}]/g, ''), 16);
  if (c >= '0' && c <= '7') return parseInt(esc.slice(1), 8);
  const named: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };
  return named[c] ?? c.codePointAt(0)!;
}

/** A class in the engine's RE2 syntax: its `\p` members spelled out in ASCII. */
function translateClass(cls: string): string {
  return cls.replace(/\\[pP](?:\{[^}]*\}|.)/gu, (m) => {
    const inner = unicodeClass(m).cls;
    // inside a class, a negated or empty set cannot be spliced in; use its members' complement
    return inner.startsWith('[^') || inner === '[\\s\\S]' ? '' : inner.slice(1, -1);
  });
}

/** A compiled pattern: `matches(text)` as Go's Regexp.MatchString (a match anywhere). */
export interface GoRegexp {
  matches(text: string): boolean;
  /** The linear-time engine's pattern, when it can run what Go accepted. */
  re: LinearRegExp | undefined;
}

/** regexp.Compile: Go's syntax error as a GoRegexpError, else a matcher on the linear-time engine. */
export function compileGoRegexp(pattern: string, flags = ''): GoRegexp {
  const translated = checkGoSyntax(pattern);
  let re: LinearRegExp | undefined;
  try {
    re = new LinearRegExp(translated, flags, 're2');
  } catch {
    // a pattern Go accepts that the engine cannot run (rare constructs): it selects nothing
    re = undefined;
  }
  return { matches: (text) => (re ? re.test(text) : false), re };
}
