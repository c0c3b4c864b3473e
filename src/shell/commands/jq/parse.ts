/**
 * The jq language's lexer and parser (jqlang/jq src/lexer.l, src/parser.y): pipes, `,`, `//`,
 * `as $x |` bindings, `def f: …;` and `def f(g): …;`, `reduce`/`foreach`, `if`/`elif`/`else`,
 * `try`/`catch`, `and`/`or`, comparisons and arithmetic with jq's precedence, paths (`.a`, `."a"`,
 * `.[e]`, `.[e:e]`, `.[]`, `?`), `..`, literals, `[…]`, `{…}` (with `{a}`, `{$x}`, `{(e): v}`,
 * `{"a": v}`), string interpolation `"\(e)"` and `@format "…"`, `$__loc__` excepted.
 */

export type Ast =
  | { t: 'identity' }
  | { t: 'recurse' }
  | { t: 'literal'; v: unknown }
  | { t: 'str'; parts: Array<string | Ast>; format?: string }
  | { t: 'format'; name: string }
  | { t: 'field'; target: Ast; name: string; opt: boolean }
  | { t: 'index'; target: Ast; index: Ast; opt: boolean }
  | { t: 'slice'; target: Ast; from?: Ast; to?: Ast; opt: boolean }
  | { t: 'iterate'; target: Ast; opt: boolean }
  | { t: 'try'; body: Ast; handler?: Ast }
  | { t: 'pipe'; left: Ast; right: Ast }
  | { t: 'comma'; left: Ast; right: Ast }
  | { t: 'alt'; left: Ast; right: Ast }
  | { t: 'assign'; op: string; left: Ast; right: Ast }
  | { t: 'binop'; op: string; left: Ast; right: Ast }
  | { t: 'and' | 'or'; left: Ast; right: Ast }
  | { t: 'neg'; body: Ast }
  | { t: 'array'; body?: Ast }
  | { t: 'object'; entries: Array<{ key: Ast; value?: Ast }> }
  | { t: 'var'; name: string }
  | { t: 'bind'; source: Ast; pattern: Pattern; body: Ast }
  | { t: 'reduce'; source: Ast; pattern: Pattern; init: Ast; update: Ast }
  | { t: 'foreach'; source: Ast; pattern: Pattern; init: Ast; update: Ast; extract?: Ast }
  | { t: 'if'; cond: Ast; then: Ast; else?: Ast }
  | { t: 'call'; name: string; args: Ast[] }
  | { t: 'def'; name: string; params: string[]; body: Ast; rest: Ast };

export type Pattern = { t: 'var'; name: string } | { t: 'array'; items: Pattern[] } | { t: 'object'; entries: Array<{ key: string | Ast; value: Pattern }> };

export class JqSyntaxError extends Error {}

type Tok = { k: 'num'; v: number } | { k: 'str'; parts: Array<string | Tok[]> } | { k: 'id'; v: string } | { k: 'field'; v: string } | { k: 'var'; v: string } | { k: 'format'; v: string } | { k: 'op'; v: string };

const OPS = ['|=', '+=', '-=', '*=', '/=', '%=', '//=', '==', '!=', '<=', '>=', '//', '..', 'and', '|', ',', '+', '-', '*', '/', '%', '=', '<', '>', '.', '[', ']', '(', ')', '{', '}', ':', ';', '?', '$'];

function lex(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  const readString = (): Tok => {
    // at the opening quote
    i++;
    const parts: Array<string | Tok[]> = [];
    let cur = '';
    while (i < src.length && src[i] !== '"') {
      const c = src[i]!;
      if (c === '\\') {
        const n = src[i + 1];
        if (n === '(') {
          // interpolation: lex until the matching paren
          let depth = 1;
          let j = i + 2;
          let inStr = false;
          for (; j < src.length && depth > 0; j++) {
            if (inStr) {
              if (src[j] === '\\') j++;
              else if (src[j] === '"') inStr = false;
            } else if (src[j] === '"') inStr = true;
            else if (src[j] === '(') depth++;
            else if (src[j] === ')') depth--;
          }
          if (depth > 0) throw new JqSyntaxError('unterminated string');
          if (cur) parts.push(cur);
          cur = '';
          parts.push(lex(src.slice(i + 2, j - 1)));
          i = j;
          continue;
        }
        const esc: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\', '/': '/' };
        if (n === 'u') {
          cur += String.fromCharCode(parseInt(src.slice(i + 2, i + 6), 16));
          i += 6;
          continue;
        }
        if (n === undefined || !(n in esc)) throw new JqSyntaxError(`invalid escape at line 1, column ${i + 2}`);
        cur += esc[n];
        i += 2;
        continue;
      }
      cur += c;
      i++;
    }
    if (i >= src.length) throw new JqSyntaxError('unterminated string');
    i++;
    if (cur || parts.length === 0) parts.push(cur);
    return { k: 'str', parts };
  };
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (c === '"') {
      out.push(readString());
      continue;
    }
    const num = /^(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(src.slice(i));
    if (num && !(c === '.' && out.length && out[out.length - 1]!.k !== 'op')) {
      out.push({ k: 'num', v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    if (c === '.' && /[A-Za-z_]/.test(src[i + 1] ?? '')) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i + 1))!;
      out.push({ k: 'field', v: m[0] });
      i += 1 + m[0].length;
      continue;
    }
    if (c === '.' && src[i + 1] === '"') {
      i++;
      const s = readString();
      out.push({ k: 'field', v: (s as { parts: Array<string | Tok[]> }).parts.map((p) => (typeof p === 'string' ? p : '')).join('') });
      continue;
    }
    if (src.startsWith('$__loc__', i)) {
      out.push({ k: 'var', v: '__loc__' });
      i += 8;
      continue;
    }
    if (c === '$' && /[A-Za-z_]/.test(src[i + 1] ?? '')) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i + 1))!;
      out.push({ k: 'var', v: m[0] });
      i += 1 + m[0].length;
      continue;
    }
    if (c === '@') {
      const m = /^[A-Za-z0-9_]+/.exec(src.slice(i + 1));
      if (!m) throw new JqSyntaxError('syntax error, unexpected INVALID_CHARACTER');
      out.push({ k: 'format', v: m[0] });
      i += 1 + m[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*/.exec(src.slice(i));
    if (id) {
      out.push({ k: 'id', v: id[0] });
      i += id[0].length;
      continue;
    }
    const op = OPS.find((o) => /[a-z]/.test(o[0]!) ? false : src.startsWith(o, i));
    if (!op) throw new JqSyntaxError(`syntax error, unexpected INVALID_CHARACTER (Unix shell quoting issues?)`);
    out.push({ k: 'op', v: op });
    i += op.length;
  }
  return out;
}

const KEYWORDS = new Set(['and', 'or', 'not_kw', 'as', 'def', 'if', 'then', 'elif', 'else', 'end', 'reduce', 'foreach', 'try', 'catch', 'label', 'import', 'include', '__loc__']);

class Parser {
  private i = 0;
  constructor(private readonly toks: Tok[]) {}

  private peek(): Tok | undefined {
    return this.toks[this.i];
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t?.k === 'op' && t.v === v;
  }
  private isId(v: string): boolean {
    const t = this.peek();
    return t?.k === 'id' && t.v === v;
  }
  private expectOp(v: string): void {
    if (!this.isOp(v)) throw this.unexpected();
    this.i++;
  }
  private expectId(v: string): void {
    if (!this.isId(v)) throw this.unexpected();
    this.i++;
  }
  unexpected(): JqSyntaxError {
    const t = this.peek();
    if (!t) return new JqSyntaxError('syntax error, unexpected $end (Unix shell quoting issues?)');
    const shown = t.k === 'op' ? `'${t.v}'` : t.k === 'id' ? (KEYWORDS.has(t.v) ? t.v : `IDENT`) : t.k === 'num' ? 'LITERAL' : t.k === 'str' ? 'QQSTRING_START' : t.k === 'field' ? 'FIELD' : t.k === 'var' ? '$' : 'FORMAT';
    return new JqSyntaxError(`syntax error, unexpected ${shown} (Unix shell quoting issues?)`);
  }

  program(): Ast {
    const e = this.pipe();
    if (this.peek()) throw this.unexpected();
    return e;
  }

  /** pipe: `def`, `TERM as PATTERN | body`, `a | b` (lowest precedence, right associative). */
  pipe(): Ast {
    if (this.isId('def')) {
      this.i++;
      const nameTok = this.peek();
      if (nameTok?.k !== 'id') throw this.unexpected();
      this.i++;
      const params: string[] = [];
      if (this.isOp('(')) {
        this.i++;
        for (;;) {
          const p = this.peek();
          if (p?.k === 'id') params.push(p.v);
          else if (p?.k === 'var') params.push(`$${p.v}`);
          else throw this.unexpected();
          this.i++;
          if (this.isOp(';')) {
            this.i++;
            continue;
          }
          this.expectOp(')');
          break;
        }
      }
      this.expectOp(':');
      const body = this.pipe();
      this.expectOp(';');
      return { t: 'def', name: nameTok.v, params, body, rest: this.pipe() };
    }
    const left = this.comma();
    if (this.isId('as')) {
      this.i++;
      const pattern = this.pattern();
      this.expectOp('|');
      return { t: 'bind', source: left, pattern, body: this.pipe() };
    }
    if (this.isOp('|')) {
      this.i++;
      return { t: 'pipe', left, right: this.pipe() };
    }
    return left;
  }

  pattern(): Pattern {
    const t = this.peek();
    if (t?.k === 'var') {
      this.i++;
      return { t: 'var', name: t.v };
    }
    if (this.isOp('[')) {
      this.i++;
      const items: Pattern[] = [];
      while (!this.isOp(']')) {
        items.push(this.pattern());
        if (this.isOp(',')) this.i++;
      }
      this.i++;
      return { t: 'array', items };
    }
    if (this.isOp('{')) {
      this.i++;
      const entries: Array<{ key: string | Ast; value: Pattern }> = [];
      while (!this.isOp('}')) {
        const k = this.peek();
        if (k?.k === 'var') {
          this.i++;
          entries.push({ key: k.v, value: { t: 'var', name: k.v } });
        } else {
          const key = k?.k === 'id' ? (this.i++, k.v) : k?.k === 'str' ? this.strTok() : this.parenKey();
          this.expectOp(':');
          entries.push({ key, value: this.pattern() });
        }
        if (this.isOp(',')) this.i++;
      }
      this.i++;
      return { t: 'object', entries };
    }
    throw this.unexpected();
  }

  private parenKey(): Ast {
    this.expectOp('(');
    const e = this.pipe();
    this.expectOp(')');
    return e;
  }

  comma(): Ast {
    let left = this.alt();
    while (this.isOp(',')) {
      this.i++;
      left = { t: 'comma', left, right: this.alt() };
    }
    return left;
  }

  alt(): Ast {
    const left = this.assign();
    if (this.isOp('//')) {
      this.i++;
      return { t: 'alt', left, right: this.alt() };
    }
    return left;
  }

  assign(): Ast {
    const left = this.or();
    const t = this.peek();
    if (t?.k === 'op' && ['=', '|=', '+=', '-=', '*=', '/=', '%=', '//='].includes(t.v)) {
      this.i++;
      return { t: 'assign', op: t.v, left, right: this.alt() };
    }
    return left;
  }

  or(): Ast {
    let left = this.and();
    while (this.isId('or')) {
      this.i++;
      left = { t: 'or', left, right: this.and() };
    }
    return left;
  }

  and(): Ast {
    let left = this.compare();
    while (this.isId('and')) {
      this.i++;
      left = { t: 'and', left, right: this.compare() };
    }
    return left;
  }

  compare(): Ast {
    const left = this.additive();
    const t = this.peek();
    if (t?.k === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.v)) {
      this.i++;
      return { t: 'binop', op: t.v, left, right: this.additive() };
    }
    return left;
  }

  additive(): Ast {
    let left = this.multiplicative();
    for (;;) {
      const t = this.peek();
      if (t?.k === 'op' && (t.v === '+' || t.v === '-')) {
        this.i++;
        left = { t: 'binop', op: t.v, left, right: this.multiplicative() };
      } else return left;
    }
  }

  multiplicative(): Ast {
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      if (t?.k === 'op' && (t.v === '*' || t.v === '/' || t.v === '%')) {
        this.i++;
        left = { t: 'binop', op: t.v, left, right: this.unary() };
      } else return left;
    }
  }

  unary(): Ast {
    if (this.isOp('-')) {
      this.i++;
      return { t: 'neg', body: this.postfix() };
    }
    return this.postfix();
  }

  postfix(): Ast {
    let e = this.primary();
    for (;;) {
      const t = this.peek();
      if (t?.k === 'field') {
        this.i++;
        e = { t: 'field', target: e, name: t.v, opt: this.optional() };
      } else if (t?.k === 'op' && t.v === '.' && this.toks[this.i + 1]?.k === 'str') {
        this.i++;
        e = { t: 'field', target: e, name: this.strTok().parts.map((p) => (typeof p === 'string' ? p : '')).join(''), opt: this.optional() };
      } else if (t?.k === 'op' && (t.v === '[' || (t.v === '.' && this.toks[this.i + 1]?.k === 'op' && (this.toks[this.i + 1] as { v: string }).v === '['))) {
        if (t.v === '.') this.i++;
        e = this.bracket(e);
      } else if (t?.k === 'op' && t.v === '?') {
        this.i++;
        e = { t: 'try', body: e };
      } else if (this.isId('as') || !t) return e;
      else return e;
    }
  }

  private optional(): boolean {
    if (this.isOp('?')) {
      this.i++;
      return true;
    }
    return false;
  }

  private bracket(target: Ast): Ast {
    this.expectOp('[');
    if (this.isOp(']')) {
      this.i++;
      return { t: 'iterate', target, opt: this.optional() };
    }
    if (this.isOp(':')) {
      this.i++;
      const to = this.pipe();
      this.expectOp(']');
      return { t: 'slice', target, to, opt: this.optional() };
    }
    const index = this.pipe();
    if (this.isOp(':')) {
      this.i++;
      const to = this.isOp(']') ? undefined : this.pipe();
      this.expectOp(']');
      return { t: 'slice', target, from: index, ...(to ? { to } : {}), opt: this.optional() };
    }
    this.expectOp(']');
    return { t: 'index', target, index, opt: this.optional() };
  }

  private strTok(): { t: 'str'; parts: Array<string | Ast> } {
    const t = this.peek();
    if (t?.k !== 'str') throw this.unexpected();
    this.i++;
    return { t: 'str', parts: t.parts.map((p) => (typeof p === 'string' ? p : new Parser(p).program())) };
  }

  primary(): Ast {
    const t = this.peek();
    if (!t) throw this.unexpected();
    if (t.k === 'num') {
      this.i++;
      return { t: 'literal', v: t.v };
    }
    if (t.k === 'str') return this.strTok();
    if (t.k === 'format') {
      this.i++;
      if (this.peek()?.k === 'str') return { ...this.strTok(), format: t.v };
      return { t: 'format', name: t.v };
    }
    if (t.k === 'field') {
      this.i++;
      return { t: 'field', target: { t: 'identity' }, name: t.v, opt: this.optional() };
    }
    if (t.k === 'var') {
      this.i++;
      return { t: 'var', name: t.v };
    }
    if (t.k === 'op') {
      switch (t.v) {
        case '.':
          this.i++;
          if (this.peek()?.k === 'str') return { t: 'field', target: { t: 'identity' }, name: this.strTok().parts.map((p) => (typeof p === 'string' ? p : '')).join(''), opt: this.optional() };
          if (this.isOp('[')) return this.bracket({ t: 'identity' });
          return { t: 'identity' };
        case '..':
          this.i++;
          return { t: 'recurse' };
        case '(': {
          this.i++;
          const e = this.pipe();
          this.expectOp(')');
          return e;
        }
        case '[': {
          this.i++;
          if (this.isOp(']')) {
            this.i++;
            return { t: 'array' };
          }
          const body = this.pipe();
          this.expectOp(']');
          return { t: 'array', body };
        }
        case '{':
          return this.object();
        case '$':
          throw this.unexpected();
      }
      throw this.unexpected();
    }
    // identifiers: keywords and calls
    switch (t.v) {
      case 'if': {
        this.i++;
        const cond = this.pipe();
        this.expectId('then');
        const then = this.pipe();
        return { t: 'if', cond, then, ...this.elsePart() };
      }
      case 'try': {
        this.i++;
        const body = this.postfix();
        if (this.isId('catch')) {
          this.i++;
          return { t: 'try', body, handler: this.postfix() };
        }
        return { t: 'try', body };
      }
      case 'reduce':
      case 'foreach': {
        this.i++;
        const source = this.postfix();
        this.expectId('as');
        const pattern = this.pattern();
        this.expectOp('(');
        const init = this.pipe();
        this.expectOp(';');
        const update = this.pipe();
        let extract: Ast | undefined;
        if (t.v === 'foreach' && this.isOp(';')) {
          this.i++;
          extract = this.pipe();
        }
        this.expectOp(')');
        return t.v === 'reduce' ? { t: 'reduce', source, pattern, init, update } : { t: 'foreach', source, pattern, init, update, ...(extract ? { extract } : {}) };
      }
      case 'def':
        return this.pipe();
    }
    if (t.v === 'null' || t.v === 'true' || t.v === 'false') {
      this.i++;
      return { t: 'literal', v: t.v === 'null' ? null : t.v === 'true' };
    }
    if (KEYWORDS.has(t.v) || ['then', 'elif', 'else', 'end', 'catch'].includes(t.v)) throw this.unexpected();
    this.i++;
    const args: Ast[] = [];
    if (this.isOp('(')) {
      this.i++;
      for (;;) {
        args.push(this.pipe());
        if (this.isOp(';')) {
          this.i++;
          continue;
        }
        this.expectOp(')');
        break;
      }
    }
    return { t: 'call', name: t.v, args };
  }

  private elsePart(): { else?: Ast } {
    if (this.isId('elif')) {
      this.i++;
      const cond = this.pipe();
      this.expectId('then');
      const then = this.pipe();
      return { else: { t: 'if', cond, then, ...this.elsePart() } };
    }
    if (this.isId('else')) {
      this.i++;
      const e = this.pipe();
      this.expectId('end');
      return { else: e };
    }
    this.expectId('end');
    return {};
  }

  private object(): Ast {
    this.expectOp('{');
    const entries: Array<{ key: Ast; value?: Ast }> = [];
    while (!this.isOp('}')) {
      const t = this.peek();
      let key: Ast;
      if (t?.k === 'var') {
        this.i++;
        entries.push({ key: { t: 'literal', v: t.v }, value: { t: 'var', name: t.v } });
      } else {
        if (t?.k === 'id') {
          this.i++;
          key = { t: 'literal', v: t.v };
        } else if (t?.k === 'str') key = this.strTok();
        else if (t?.k === 'num') {
          throw this.unexpected();
        } else if (t?.k === 'format') {
          this.i++;
          key = { ...this.strTok(), format: t.v };
        } else key = this.parenKey();
        if (this.isOp(':')) {
          this.i++;
          entries.push({ key, value: this.objectValue() });
        } else entries.push({ key });
      }
      if (this.isOp(',')) this.i++;
      else if (!this.isOp('}')) throw this.unexpected();
    }
    this.i++;
    return { t: 'object', entries };
  }

  /** An object value: a pipe-free expression (`{a: 1 | 2}` is not allowed unparenthesized). */
  private objectValue(): Ast {
    let left = this.alt();
    while (this.isOp('|')) {
      this.i++;
      left = { t: 'pipe', left, right: this.alt() };
    }
    return left;
  }
}

export function parseJq(src: string): Ast {
  const toks = lex(src);
  if (toks.length === 0) return { t: 'identity' };
  return new Parser(toks).program();
}
