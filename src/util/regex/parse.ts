/**
 * Parser for the regular expressions the simulator matches with its own linear-time engine
 * (engine.ts): JavaScript's syntax as the shell's POSIX translator emits it and scenario files
 * write it, and RE2's (Go's regexp/syntax: `(?P<name>…)`, `(?i)` flag groups, `\A`, `\z`,
 * `[[:alpha:]]` inside classes), which CoreDNS, kubectl's JSONPath `=~`, sprig and crictl use.
 *
 * Lookarounds are accepted only around a single character or class (`(?<![A-Za-z0-9_])`,
 * `\b(?=\w)`): they become assertions on the neighbouring character, which keeps matching
 * linear. Anything longer is refused as RE2 refuses every lookaround.
 */

/** A set of UTF-16 code units: sorted inclusive [lo, hi] pairs, negated when `neg`. */
export interface CharSet {
  ranges: number[];
  neg: boolean;
}

export type AssertKind = 'bol' | 'eol' | 'bot' | 'eot' | 'wordb' | 'nwordb';

export type Node =
  | { t: 'empty' }
  | { t: 'set'; set: CharSet; fold: boolean }
  | { t: 'any'; dotAll: boolean }
  | { t: 'cat'; items: Node[] }
  | { t: 'alt'; items: Node[] }
  | { t: 'group'; index: number | undefined; body: Node }
  | { t: 'repeat'; min: number; max: number; greedy: boolean; body: Node }
  | { t: 'assert'; kind: AssertKind; multiline: boolean }
  /** The next (ahead) or previous (behind) character is (neg: is not) in the set; none at an edge counts as not in it. */
  | { t: 'look'; behind: boolean; neg: boolean; set: CharSet; fold: boolean }
  | { t: 'backref'; index: number; fold: boolean };

export interface Parsed {
  node: Node;
  /** Number of capturing groups (group 0, the whole match, not counted). */
  groups: number;
  names: Map<string, number>;
  hasBackrefs: boolean;
}

export type Dialect = 'js' | 're2';

export class RegexSyntaxError extends Error {}

/** RE2's limit on repetition counts (regexp/syntax maxRepeat); POSIX's RE_DUP_MAX is larger. */
export const MAX_REPEAT = 1000;

const WORD: number[] = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
const DIGIT: number[] = [0x30, 0x39];
/** JavaScript's \s: WhiteSpace and LineTerminator. */
const SPACE: number[] = [0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff];
/** RE2's \s is ASCII only: [\t\n\f\r ]. */
const RE2_SPACE: number[] = [0x09, 0x0a, 0x0c, 0x0d, 0x20, 0x20];

const POSIX_CLASSES: Record<string, number[]> = {
  alpha: [0x41, 0x5a, 0x61, 0x7a],
  digit: DIGIT,
  alnum: [0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a],
  upper: [0x41, 0x5a],
  lower: [0x61, 0x7a],
  space: [0x09, 0x0d, 0x20, 0x20],
  blank: [0x09, 0x09, 0x20, 0x20],
  punct: [0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e],
  print: [0x20, 0x7e],
  graph: [0x21, 0x7e],
  cntrl: [0x00, 0x1f, 0x7f, 0x7f],
  xdigit: [0x30, 0x39, 0x41, 0x46, 0x61, 0x66],
  word: WORD,
  ascii: [0x00, 0x7f],
};

/** Sort and merge ranges. */
export function normalize(ranges: number[]): number[] {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i]!, ranges[i + 1]!]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of pairs) {
    const n = out.length;
    if (n > 0 && lo <= out[n - 1]! + 1) out[n - 1] = Math.max(out[n - 1]!, hi);
    else out.push(lo, hi);
  }
  return out;
}

/** The complement of normalized ranges within the UTF-16 code units. */
function complement(ranges: number[]): number[] {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < ranges.length; i += 2) {
    if (ranges[i]! > next) out.push(next, ranges[i]! - 1);
    next = ranges[i + 1]! + 1;
  }
  if (next <= 0xffff) out.push(next, 0xffff);
  return out;
}

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
}

class Parser {
  private i = 0;
  private groups = 0;
  private readonly names = new Map<string, number>();
  private backrefs = false;

  constructor(
    private readonly src: string,
    private readonly dialect: Dialect,
    private flags: Flags,
  ) {}

  parse(): Parsed {
    const node = this.alternation();
    if (this.i < this.src.length) throw new RegexSyntaxError(this.src[this.i] === ')' ? 'unmatched )' : `unexpected ${this.src[this.i]}`);
    return { node, groups: this.groups, names: this.names, hasBackrefs: this.backrefs };
  }

  private peek(k = 0): string | undefined {
    return this.src[this.i + k];
  }

  private alternation(): Node {
    const items = [this.sequence()];
    while (this.peek() === '|') {
      this.i++;
      items.push(this.sequence());
    }
    return items.length === 1 ? items[0]! : { t: 'alt', items };
  }

  private sequence(): Node {
    const items: Node[] = [];
    const saved = { ...this.flags };
    for (;;) {
      const c = this.peek();
      if (c === undefined || c === '|' || c === ')') break;
      const atom = this.atom();
      if (atom === undefined) continue;
      items.push(this.quantified(atom));
    }
    // an inline `(?i)` lasts to the end of the enclosing group
    this.flags = saved;
    return items.length === 0 ? { t: 'empty' } : items.length === 1 ? items[0]! : { t: 'cat', items };
  }

  private quantified(atom: Node): Node {
    for (;;) {
      const c = this.peek();
      let min: number;
      let max: number;
      if (c === '*') [min, max] = [0, Infinity];
      else if (c === '+') [min, max] = [1, Infinity];
      else if (c === '?') [min, max] = [0, 1];
      else if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
        if (!m) {
          if (this.dialect === 're2') return atom; // RE2: a `{` that is no repetition is literal
          return atom;
        }
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
        if (max < min) throw new RegexSyntaxError('numbers out of order in {} quantifier');
        if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) throw new RegexSyntaxError('invalid repeat count');
        this.i += m[0].length - 1;
      } else return atom;
      this.i++;
      let greedy = true;
      if (this.peek() === '?') {
        greedy = false;
        this.i++;
      }
      if (atom.t === 'assert' || atom.t === 'look') {
        if (this.dialect === 're2') throw new RegexSyntaxError('missing argument to repetition operator');
      } else if (atom.t === 'repeat' && this.dialect === 'js') throw new RegexSyntaxError('nothing to repeat');
      atom = { t: 'repeat', min, max, greedy, body: atom };
    }
  }

  private set(ranges: number[], neg = false): Node {
    return { t: 'set', set: { ranges: normalize(ranges), neg }, fold: this.flags.i };
  }

  /** One atom; undefined for a flag group `(?i)` that matches nothing. */
  private atom(): Node | undefined {
    const c = this.src[this.i]!;
    switch (c) {
      case '(':
        return this.group();
      case '[':
        return this.bracket();
      case '.':
        this.i++;
        return { t: 'any', dotAll: this.flags.s };
      case '^':
        this.i++;
        return { t: 'assert', kind: 'bol', multiline: this.flags.m };
      case '$':
        this.i++;
        return { t: 'assert', kind: 'eol', multiline: this.flags.m };
      case '\\':
        return this.escape();
      case '*':
      case '+':
      case '?':
        throw new RegexSyntaxError('nothing to repeat');
      case '{':
        if (/^\{\d+(,\d*)?\}/.test(this.src.slice(this.i))) throw new RegexSyntaxError('nothing to repeat');
        this.i++;
        return this.set([0x7b, 0x7b]);
      default: {
        this.i++;
        const code = c.charCodeAt(0);
        return this.set([code, code]);
      }
    }
  }

  private group(): Node | undefined {
    const rest = this.src.slice(this.i);
    let index: number | undefined;
    if (rest.startsWith('(?:')) this.i += 3;
    else if (/^\(\?<?[=!]/.test(rest)) return this.look(rest);
    else if (/^\(\?P?<[A-Za-z_][A-Za-z0-9_]*>/.test(rest)) {
      if (rest.startsWith('(?P') && this.dialect !== 're2') throw new RegexSyntaxError('invalid group');
      const m = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest)!;
      index = ++this.groups;
      if (this.names.has(m[1]!)) throw new RegexSyntaxError('duplicate capture group name');
      this.names.set(m[1]!, index);
      this.i += m[0].length;
    } else if (rest.startsWith('(?')) {
      const m = /^\(\?([imsU]*)(?:-([imsU]*))?([:)])/.exec(rest);
      if (!m || this.dialect !== 're2') throw new RegexSyntaxError('invalid or unsupported Perl syntax');
      const on = m[1] ?? '';
      const off = m[2] ?? '';
      this.i += m[0].length;
      const apply = (f: Flags): Flags => ({ i: off.includes('i') ? false : on.includes('i') || f.i, m: off.includes('m') ? false : on.includes('m') || f.m, s: off.includes('s') ? false : on.includes('s') || f.s });
      if (m[3] === ')') {
        this.flags = apply(this.flags);
        return undefined;
      }
      const saved = this.flags;
      this.flags = apply(saved);
      const body = this.alternation();
      this.flags = saved;
      if (this.peek() !== ')') throw new RegexSyntaxError('missing )');
      this.i++;
      return { t: 'group', index: undefined, body };
    } else {
      this.i++;
      index = ++this.groups;
    }
    const body = this.alternation();
    if (this.peek() !== ')') throw new RegexSyntaxError('missing )');
    this.i++;
    return { t: 'group', index, body };
  }

  /** `(?=X)`, `(?!X)`, `(?<=X)`, `(?<!X)` with X one character or class. */
  private look(rest: string): Node {
    if (this.dialect === 're2') throw new RegexSyntaxError('invalid or unsupported Perl syntax');
    const behind = rest[2] === '<';
    const neg = rest[behind ? 3 : 2] === '!';
    this.i += behind ? 4 : 3;
    const inner = this.peek() === ')' ? undefined : this.atom();
    if (this.peek() !== ')' || inner === undefined || (inner.t !== 'set' && inner.t !== 'any')) throw new RegexSyntaxError('lookaround longer than one character is not supported');
    this.i++;
    const set: CharSet = inner.t === 'set' ? inner.set : inner.dotAll ? { ranges: [0, 0xffff], neg: false } : { ranges: [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029], neg: true };
    return { t: 'look', behind, neg, set, fold: inner.t === 'set' ? inner.fold : false };
  }

  /** A backslash escape outside brackets. */
  private escape(): Node {
    const n = this.src[this.i + 1];
    if (n === undefined) throw new RegexSyntaxError('trailing backslash');
    const cls = this.classEscape(n);
    if (cls) {
      this.i += 2;
      return this.set(cls.ranges, cls.neg);
    }
    switch (n) {
      case 'b':
      case 'B':
        this.i += 2;
        return { t: 'assert', kind: n === 'b' ? 'wordb' : 'nwordb', multiline: false };
      case 'A':
      case 'z':
        if (this.dialect === 're2') {
          this.i += 2;
          return { t: 'assert', kind: n === 'A' ? 'bot' : 'eot', multiline: false };
        }
        break;
    }
    if (/[1-9]/.test(n)) {
      if (this.dialect === 're2') throw new RegexSyntaxError('invalid escape sequence');
      const m = /^\d+/.exec(this.src.slice(this.i + 1))!;
      this.i += 1 + m[0].length;
      this.backrefs = true;
      return { t: 'backref', index: Number(m[0]), fold: this.flags.i };
    }
    const code = this.charEscape();
    return this.set([code, code]);
  }

  /** \d \D \w \W \s \S: the ranges, or undefined for another escape. */
  private classEscape(n: string): CharSet | undefined {
    const sp = this.dialect === 're2' ? RE2_SPACE : SPACE;
    switch (n) {
      case 'd':
        return { ranges: DIGIT, neg: false };
      case 'D':
        return { ranges: DIGIT, neg: true };
      case 'w':
        return { ranges: WORD, neg: false };
      case 'W':
        return { ranges: WORD, neg: true };
      case 's':
        return { ranges: sp, neg: false };
      case 'S':
        return { ranges: sp, neg: true };
    }
    return undefined;
  }

  /** A single-character escape at src[i] === '\\'; advances past it and returns the code unit. */
  private charEscape(): number {
    const n = this.src[this.i + 1]!;
    this.i += 2;
    const simple: Record<string, number> = { n: 10, t: 9, r: 13, f: 12, v: 11, a: 7, '0': 0 };
    if (n === '0' && /[0-7]/.test(this.peek() ?? '') && this.dialect === 're2') throw new RegexSyntaxError('invalid escape sequence');
    if (simple[n] !== undefined && !(n === 'a' && this.dialect === 'js')) return simple[n]!;
    if (n === 'x') {
      const braced = this.dialect === 're2' ? /^\{([0-9a-fA-F]{1,4})\}/.exec(this.src.slice(this.i)) : null;
      if (braced) {
        this.i += braced[0].length;
        return parseInt(braced[1]!, 16);
      }
      const m = /^[0-9a-fA-F]{2}/.exec(this.src.slice(this.i));
      if (m) {
        this.i += 2;
        return parseInt(m[0], 16);
      }
      if (this.dialect === 're2') throw new RegexSyntaxError('invalid escape sequence');
      return 0x78;
    }
    if (n === 'u' && this.dialect === 'js') {
      const m = /^[0-9a-fA-F]{4}/.exec(this.src.slice(this.i));
      if (m) {
        this.i += 4;
        return parseInt(m[0], 16);
      }
      return 0x75;
    }
    if (n === 'c' && this.dialect === 'js' && /[A-Za-z]/.test(this.peek() ?? '')) {
      this.i++;
      return this.src.charCodeAt(this.i - 1) % 32;
    }
    if (this.dialect === 're2' && /[A-Za-z0-9]/.test(n)) throw new RegexSyntaxError('invalid escape sequence');
    return n.charCodeAt(0);
  }

  /** `[...]`: JavaScript classes, with `[:name:]` inside them in RE2. */
  private bracket(): Node {
    this.i++;
    let neg = false;
    if (this.peek() === '^') {
      neg = true;
      this.i++;
    }
    const ranges: number[] = [];
    let first = true;
    for (;;) {
      const c = this.peek();
      if (c === undefined) throw new RegexSyntaxError('missing ]');
      if (c === ']' && !(first && this.dialect === 're2')) break;
      first = false;
      if (c === '[' && this.peek(1) === ':' && this.dialect === 're2') {
        const end = this.src.indexOf(':]', this.i + 2);
        const name = end < 0 ? '' : this.src.slice(this.i + 2, end);
        const negCls = name.startsWith('^');
        const cls = POSIX_CLASSES[negCls ? name.slice(1) : name];
        if (!cls) throw new RegexSyntaxError('invalid character class range');
        ranges.push(...(negCls ? complement(normalize(cls)) : cls));
        this.i = end + 2;
        continue;
      }
      let lo: number;
      if (c === '\\') {
        const n = this.peek(1);
        if (n === undefined) throw new RegexSyntaxError('trailing backslash');
        const cls = this.classEscape(n);
        if (cls) {
          ranges.push(...(cls.neg ? complement(normalize(cls.ranges)) : cls.ranges));
          this.i += 2;
          continue;
        }
        if (n === 'b' && this.dialect === 'js') {
          this.i += 2;
          lo = 8;
        } else lo = this.charEscape();
      } else {
        lo = c.charCodeAt(0);
        this.i++;
      }
      if (this.peek() === '-' && this.peek(1) !== undefined && this.peek(1) !== ']') {
        const save = this.i;
        this.i++;
        let hi: number;
        if (this.peek() === '\\') {
          const n = this.peek(1)!;
          if (this.classEscape(n)) {
            // `[a-\d]`: the dash is literal (Annex B)
            this.i = save;
            ranges.push(lo, lo);
            continue;
          }
          hi = n === 'b' && this.dialect === 'js' ? ((this.i += 2), 8) : this.charEscape();
        } else {
          hi = this.src.charCodeAt(this.i);
          this.i++;
        }
        if (hi < lo) throw new RegexSyntaxError('range out of order in character class');
        ranges.push(lo, hi);
        continue;
      }
      ranges.push(lo, lo);
    }
    this.i++;
    return this.set(ranges, neg);
  }
}

/** Parse `src` in `dialect` with JavaScript-style flags (`i`, `m`, `s`; others are ignored here). */
export function parseRegex(src: string, dialect: Dialect, flags = ''): Parsed {
  return new Parser(src, dialect, { i: flags.includes('i'), m: flags.includes('m'), s: flags.includes('s') }).parse();
}
