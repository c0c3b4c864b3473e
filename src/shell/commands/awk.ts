/**
 * awk — a small but real interpreter for the POSIX awk language, matching mawk 1.3.4 (Debian and
 * Ubuntu's default `awk`) where implementations differ: number output (integers within int range
 * print as integers, others with OFMT %.6g), error wording (`awk: line 1: syntax error at or near
 * }`, `awk: cannot open f (No such file or directory)`, exit 2).
 *
 * Supported: -F, -v, -f, `var=value` operands; BEGIN/END, expression and /regex/ patterns, range
 * patterns; fields ($0 rebuilt with OFS when a field or NF is assigned), NR NF FNR FS OFS ORS
 * RS(newline) FILENAME SUBSEP RSTART RLENGTH CONVFMT OFMT ENVIRON; all operators incl. `in`, ~,
 * ?:, ^, ++/--, compound assignment; arrays, delete, for-in; if/while/do/for, break, continue,
 * next, exit, user functions with return; print/printf with > and >> to files; getline (plain,
 * var, < file); builtins length substr index split sub gsub match sprintf tolower toupper int
 * sqrt exp log sin cos atan2 rand srand system(no-op 0) close(no-op).
 */
import { resolvePath } from '../../sim/node/vfs.js';
import type { CommandContext, CommandFn, CommandResult } from '../types.js';
import { formatC, gFormat, type FormatArg } from './format.js';
import { compilePosix, withFlags } from '../../util/posix-regex.js';
import { budgetOf } from './types.js';
import { BudgetExceeded, type LineBudget } from '../budget.js';
import { readInput } from './util.js';

// ---------- lexer ----------

type Tok =
  | { t: 'num'; v: number; line: number }
  | { t: 'str'; v: string; line: number }
  | { t: 'ere'; v: string; line: number }
  | { t: 'name'; v: string; line: number }
  | { t: 'funcname'; v: string; line: number }
  | { t: 'builtin'; v: string; line: number }
  | { t: 'kw'; v: string; line: number }
  | { t: 'op'; v: string; line: number }
  | { t: 'nl'; v: string; line: number }
  | { t: 'eof'; v: string; line: number };

const KEYWORDS = new Set(['BEGIN', 'END', 'function', 'func', 'if', 'else', 'while', 'for', 'do', 'break', 'continue', 'next', 'nextfile', 'exit', 'return', 'delete', 'in', 'getline', 'print', 'printf']);
const BUILTINS = new Set(['length', 'substr', 'index', 'split', 'sub', 'gsub', 'match', 'sprintf', 'tolower', 'toupper', 'int', 'sqrt', 'exp', 'log', 'sin', 'cos', 'atan2', 'rand', 'srand', 'system', 'close', 'fflush']);
const OPS = ['+=', '-=', '*=', '/=', '%=', '^=', '==', '<=', '>=', '!=', '++', '--', '&&', '||', '>>', '!~', '{', '}', '(', ')', '[', ']', ';', ',', '+', '-', '*', '/', '%', '^', '!', '>', '<', '|', '?', ':', '~', '$', '='];

class AwkSyntaxError extends Error {}

function lex(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  let line = 1;
  const regexAllowed = (): boolean => {
    const p = toks[toks.length - 1];
    if (!p) return true;
    if (p.t === 'num' || p.t === 'str' || p.t === 'name' || p.t === 'ere' || p.t === 'builtin') return false;
    if (p.t === 'op' && (p.v === ')' || p.v === ']' || p.v === '$' || p.v === '++' || p.v === '--')) return false;
    return true;
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '\\' && src[i + 1] === '\n') {
      i += 2;
      line++;
      continue;
    }
    if (c === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (c === '\n') {
      toks.push({ t: 'nl', v: '\n', line });
      line++;
      i++;
      continue;
    }
    if (c === '"') {
      let s = '';
      i++;
      for (;;) {
        if (i >= src.length || src[i] === '\n') throw new AwkSyntaxError(`line ${line}: runaway string constant "${s.slice(0, 10)} ...`);
        const d = src[i]!;
        if (d === '"') break;
        if (d === '\\') {
          const n = src[i + 1] ?? '';
          const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', '/': '/', a: '\x07', b: '\b', f: '\f', v: '\v' };
          const oct = /^[0-7]{1,3}/.exec(src.slice(i + 1));
          if (oct) {
            s += String.fromCharCode(parseInt(oct[0], 8));
            i += 1 + oct[0].length;
            continue;
          }
          if (n === '\n') {
            i += 2;
            line++;
            continue;
          }
          s += map[n] ?? `\\${n}`;
          i += 2;
          continue;
        }
        s += d;
        i++;
      }
      i++;
      toks.push({ t: 'str', v: s, line });
      continue;
    }
    if (c === '/' && regexAllowed()) {
      let s = '';
      i++;
      let inBracket = false;
      for (;;) {
        if (i >= src.length || src[i] === '\n') throw new AwkSyntaxError(`line ${line}: runaway regular expression /${s.slice(0, 10)} ...`);
        const d = src[i]!;
        if (d === '\\' && i + 1 < src.length) {
          s += d + src[i + 1];
          i += 2;
          continue;
        }
        if (d === '[' && !inBracket) inBracket = true;
        else if (d === ']' && inBracket && !s.endsWith('[') && !s.endsWith('[^')) inBracket = false;
        if (d === '/' && !inBracket) break;
        s += d;
        i++;
      }
      i++;
      toks.push({ t: 'ere', v: s, line });
      continue;
    }
    const num = /^(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)/.exec(src.slice(i));
    if (num) {
      toks.push({ t: 'num', v: Number(num[0]), line });
      i += num[0].length;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (word) {
      const w = word[0];
      i += w.length;
      if (KEYWORDS.has(w)) toks.push({ t: 'kw', v: w === 'func' ? 'function' : w, line });
      else if (BUILTINS.has(w)) toks.push({ t: 'builtin', v: w, line });
      else if (src[i] === '(') toks.push({ t: 'funcname', v: w, line });
      else toks.push({ t: 'name', v: w, line });
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new AwkSyntaxError(`line ${line}: syntax error at or near ${c}`);
    toks.push({ t: 'op', v: op, line });
    i += op.length;
  }
  toks.push({ t: 'eof', v: 'end of file', line: line + 1 });
  return toks;
}

// ---------- AST ----------

type Expr =
  | { k: 'num'; v: number }
  | { k: 'str'; v: string }
  | { k: 're'; src: string }
  | { k: 'var'; name: string }
  | { k: 'field'; e: Expr }
  | { k: 'idx'; name: string; subs: Expr[] }
  | { k: 'assign'; op: string; target: Expr; e: Expr }
  | { k: 'cond'; c: Expr; a: Expr; b: Expr }
  | { k: 'bin'; op: string; a: Expr; b: Expr }
  | { k: 'and' | 'or'; a: Expr; b: Expr }
  | { k: 'not'; e: Expr }
  | { k: 'neg' | 'plus'; e: Expr }
  | { k: 'match'; neg: boolean; a: Expr; re: Expr }
  | { k: 'in'; subs: Expr[]; name: string }
  | { k: 'incdec'; op: '++' | '--'; prefix: boolean; target: Expr }
  | { k: 'call'; name: string; args: Expr[] }
  | { k: 'builtin'; name: string; args: Expr[] }
  | { k: 'getline'; target?: Expr; file?: Expr }
  | { k: 'group'; e: Expr };

type Stmt =
  | { k: 'expr'; e: Expr }
  | { k: 'print'; args: Expr[]; redir?: { op: string; e: Expr } }
  | { k: 'printf'; args: Expr[]; redir?: { op: string; e: Expr } }
  | { k: 'if'; c: Expr; a: Stmt; b?: Stmt }
  | { k: 'while'; c: Expr; body: Stmt }
  | { k: 'do'; c: Expr; body: Stmt }
  | { k: 'for'; init?: Stmt; c?: Expr; step?: Stmt; body: Stmt }
  | { k: 'forin'; v: string; arr: string; body: Stmt }
  | { k: 'block'; body: Stmt[] }
  | { k: 'next' }
  | { k: 'exit'; e?: Expr }
  | { k: 'return'; e?: Expr }
  | { k: 'break' }
  | { k: 'continue' }
  | { k: 'delete'; name: string; subs?: Expr[] };

interface Rule {
  kind: 'begin' | 'end' | 'main';
  pattern?: Expr;
  pattern2?: Expr;
  action?: Stmt;
  inRange?: boolean;
}

interface Func {
  params: string[];
  body: Stmt;
}

interface Program {
  rules: Rule[];
  funcs: Map<string, Func>;
}

// ---------- parser ----------

class Parser {
  private p = 0;
  constructor(private readonly toks: Tok[]) {}

  private peek(o = 0): Tok {
    return this.toks[Math.min(this.p + o, this.toks.length - 1)]!;
  }
  private next(): Tok {
    return this.toks[this.p++] ?? this.toks[this.toks.length - 1]!;
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t.t === 'op' && t.v === v;
  }
  private isKw(v: string): boolean {
    const t = this.peek();
    return t.t === 'kw' && t.v === v;
  }
  private err(t: Tok = this.peek()): AwkSyntaxError {
    if (t.t === 'eof') return new AwkSyntaxError(`line ${t.line}: syntax error at or near end of file`);
    const shown = t.t === 'str' ? `"${t.v}"` : t.t === 'nl' ? 'end of line' : t.t === 'ere' ? `/${t.v}/` : String(t.v);
    return new AwkSyntaxError(`line ${t.line}: syntax error at or near ${shown}`);
  }
  private expectOp(v: string): void {
    if (!this.isOp(v)) {
      if (v === '}' && this.peek().t === 'eof') throw new AwkSyntaxError(`line ${this.peek().line}: missing } near end of file`);
      throw this.err();
    }
    this.p++;
  }
  private skipNl(): void {
    while (this.peek().t === 'nl') this.p++;
  }
  private skipTerms(): void {
    while (this.peek().t === 'nl' || this.isOp(';')) this.p++;
  }

  program(): Program {
    const rules: Rule[] = [];
    const funcs = new Map<string, Func>();
    this.skipTerms();
    while (this.peek().t !== 'eof') {
      if (this.isKw('BEGIN') || this.isKw('END')) {
        const kind = this.next().v === 'BEGIN' ? 'begin' : 'end';
        this.skipNl();
        if (!this.isOp('{')) throw this.err();
        rules.push({ kind, action: this.block() });
      } else if (this.isKw('function')) {
        this.p++;
        const nameTok = this.next();
        if (nameTok.t !== 'name' && nameTok.t !== 'funcname') throw this.err(nameTok);
        this.expectOp('(');
        const params: string[] = [];
        while (!this.isOp(')')) {
          const t = this.next();
          if (t.t !== 'name') throw this.err(t);
          params.push(t.v);
          if (this.isOp(',')) {
            this.p++;
            this.skipNl();
          }
        }
        this.p++;
        this.skipNl();
        funcs.set(nameTok.v, { params, body: this.block() });
      } else if (this.isOp('{')) {
        rules.push({ kind: 'main', action: this.block() });
      } else if (this.isOp('}')) {
        throw new AwkSyntaxError(`line ${this.peek().line}: extra '}'`);
      } else {
        const pattern = this.expr();
        let pattern2: Expr | undefined;
        if (this.isOp(',')) {
          this.p++;
          this.skipNl();
          pattern2 = this.expr();
        }
        const rule: Rule = { kind: 'main', pattern };
        if (pattern2) rule.pattern2 = pattern2;
        if (this.isOp('{')) rule.action = this.block();
        rules.push(rule);
      }
      if (!(this.peek().t === 'nl' || this.isOp(';') || this.peek().t === 'eof' || this.isOp('{') || this.toks[this.p - 1]?.v === '}')) throw this.err();
      this.skipTerms();
    }
    return { rules, funcs };
  }

  private block(): Stmt {
    this.expectOp('{');
    const body: Stmt[] = [];
    this.skipTerms();
    while (!this.isOp('}')) {
      if (this.peek().t === 'eof') throw new AwkSyntaxError(`line ${this.peek().line}: missing } near end of file`);
      body.push(this.stmt());
      this.skipTerms();
    }
    this.p++;
    return { k: 'block', body };
  }

  /** A simple statement must end with ; newline or before }. */
  private endSimple(): void {
    if (this.isOp(';') || this.peek().t === 'nl') {
      this.p++;
      return;
    }
    if (this.isOp('}') || this.peek().t === 'eof') return;
    throw this.err();
  }

  private stmt(): Stmt {
    const t = this.peek();
    if (t.t === 'op' && t.v === '{') return this.block();
    if (t.t === 'op' && t.v === ';') {
      this.p++;
      return { k: 'block', body: [] };
    }
    if (t.t === 'kw') {
      switch (t.v) {
        case 'if': {
          this.p++;
          this.expectOp('(');
          const c = this.expr();
          this.expectOp(')');
          this.skipNl();
          const a = this.stmt();
          const save = this.p;
          this.skipTerms();
          if (this.isKw('else')) {
            this.p++;
            this.skipNl();
            return { k: 'if', c, a, b: this.stmt() };
          }
          this.p = save;
          return { k: 'if', c, a };
        }
        case 'while': {
          this.p++;
          this.expectOp('(');
          const c = this.expr();
          this.expectOp(')');
          if (this.isOp(';')) {
            this.p++;
            return { k: 'while', c, body: { k: 'block', body: [] } };
          }
          this.skipNl();
          return { k: 'while', c, body: this.stmt() };
        }
        case 'do': {
          this.p++;
          this.skipNl();
          const body = this.stmt();
          this.skipTerms();
          if (!this.isKw('while')) throw this.err();
          this.p++;
          this.expectOp('(');
          const c = this.expr();
          this.expectOp(')');
          this.endSimple();
          return { k: 'do', c, body };
        }
        case 'for': {
          this.p++;
          this.expectOp('(');
          if (this.peek().t === 'name' && this.peek(1).t === 'kw' && this.peek(1).v === 'in' && this.peek(2).t === 'name' && this.peek(3).t === 'op' && this.peek(3).v === ')') {
            const v = this.next().v as string;
            this.p++;
            const arr = this.next().v as string;
            this.p++;
            this.skipNl();
            return { k: 'forin', v, arr, body: this.stmt() };
          }
          const s: Stmt = { k: 'for', body: { k: 'block', body: [] } };
          if (!this.isOp(';')) s.init = this.simpleStmt();
          this.expectOp(';');
          this.skipNl();
          if (!this.isOp(';')) s.c = this.expr();
          this.expectOp(';');
          this.skipNl();
          if (!this.isOp(')')) s.step = this.simpleStmt();
          this.expectOp(')');
          if (this.isOp(';')) {
            this.p++;
            return s;
          }
          this.skipNl();
          s.body = this.stmt();
          return s;
        }
        case 'break':
        case 'continue':
        case 'next':
        case 'nextfile':
          this.p++;
          this.endSimple();
          return t.v === 'break' ? { k: 'break' } : t.v === 'continue' ? { k: 'continue' } : { k: 'next' };
        case 'exit':
        case 'return': {
          this.p++;
          let e: Expr | undefined;
          if (!(this.isOp(';') || this.isOp('}') || this.peek().t === 'nl' || this.peek().t === 'eof')) e = this.expr();
          this.endSimple();
          const s: Stmt = t.v === 'exit' ? { k: 'exit' } : { k: 'return' };
          if (e) (s as { e?: Expr }).e = e;
          return s;
        }
        case 'delete': {
          this.p++;
          const n = this.next();
          if (n.t !== 'name') throw this.err(n);
          let subs: Expr[] | undefined;
          if (this.isOp('[')) {
            this.p++;
            subs = this.exprList(']');
          }
          this.endSimple();
          return subs ? { k: 'delete', name: n.v, subs } : { k: 'delete', name: n.v };
        }
      }
    }
    const s = this.simpleStmt();
    this.endSimple();
    return s;
  }

  private simpleStmt(): Stmt {
    if (this.isKw('print') || this.isKw('printf')) {
      const kind = this.next().v as 'print' | 'printf';
      let args: Expr[] = [];
      if (this.isOp('(')) {
        // `print (a, b)` or `print (a) b`: try a parenthesised list first.
        const save = this.p;
        this.p++;
        try {
          const list = this.exprList(')', true);
          if (this.isOp(';') || this.isOp('}') || this.isOp('>') || this.isOp('>>') || this.isOp('|') || this.peek().t === 'nl' || this.peek().t === 'eof') args = list;
          else {
            this.p = save;
            args = this.printArgs();
          }
        } catch {
          this.p = save;
          args = this.printArgs();
        }
      } else if (!(this.isOp(';') || this.isOp('}') || this.peek().t === 'nl' || this.peek().t === 'eof' || this.isOp('>') || this.isOp('>>'))) {
        args = this.printArgs();
      }
      const s: Extract<Stmt, { k: 'print' | 'printf' }> = { k: kind, args };
      if (this.isOp('>') || this.isOp('>>') || this.isOp('|')) {
        const op = this.next().v as string;
        s.redir = { op, e: this.concat(true) };
      }
      if (kind === 'printf' && args.length === 0) throw this.err();
      return s;
    }
    return { k: 'expr', e: this.expr() };
  }

  private printArgs(): Expr[] {
    const args = [this.expr(true)];
    while (this.isOp(',')) {
      this.p++;
      this.skipNl();
      args.push(this.expr(true));
    }
    return args;
  }

  private exprList(close: string, noGt = false): Expr[] {
    const list: Expr[] = [];
    this.skipNl();
    if (this.isOp(close)) {
      this.p++;
      return list;
    }
    for (;;) {
      list.push(this.expr(noGt && false));
      this.skipNl();
      if (this.isOp(',')) {
        this.p++;
        this.skipNl();
        continue;
      }
      this.expectOp(close);
      return list;
    }
  }

  expr(noGt = false): Expr {
    return this.ternary(noGt);
  }

  private isLvalue(e: Expr): boolean {
    return e.k === 'var' || e.k === 'field' || e.k === 'idx';
  }

  private ternary(noGt: boolean): Expr {
    const c = this.or(noGt);
    if (this.isOp('?')) {
      this.p++;
      this.skipNl();
      const a = this.ternary(noGt);
      this.skipNl();
      this.expectOp(':');
      this.skipNl();
      const b = this.ternary(noGt);
      return { k: 'cond', c, a, b };
    }
    const t = this.peek();
    if (t.t === 'op' && ['=', '+=', '-=', '*=', '/=', '%=', '^='].includes(t.v) && this.isLvalue(c)) {
      this.p++;
      this.skipNl();
      return { k: 'assign', op: t.v, target: c, e: this.ternary(noGt) };
    }
    return c;
  }

  private or(noGt: boolean): Expr {
    let a = this.and(noGt);
    while (this.isOp('||')) {
      this.p++;
      this.skipNl();
      a = { k: 'or', a, b: this.and(noGt) };
    }
    return a;
  }

  private and(noGt: boolean): Expr {
    let a = this.inExpr(noGt);
    while (this.isOp('&&')) {
      this.p++;
      this.skipNl();
      a = { k: 'and', a, b: this.inExpr(noGt) };
    }
    return a;
  }

  private inExpr(noGt: boolean): Expr {
    let a = this.matchExpr(noGt);
    while (this.isKw('in')) {
      this.p++;
      const n = this.next();
      if (n.t !== 'name') throw this.err(n);
      a = { k: 'in', subs: a.k === 'group' && a.e.k === 'bin' && a.e.op === ',' ? flattenComma(a.e) : [a], name: n.v };
    }
    return a;
  }

  private matchExpr(noGt: boolean): Expr {
    let a = this.comparison(noGt);
    while (this.isOp('~') || this.isOp('!~')) {
      const neg = this.next().v === '!~';
      a = { k: 'match', neg, a, re: this.comparison(noGt) };
    }
    return a;
  }

  private comparison(noGt: boolean): Expr {
    const a = this.concat(noGt);
    const t = this.peek();
    if (t.t === 'op' && ['<', '<=', '==', '!=', '>=', '>'].includes(t.v) && !(noGt && t.v === '>')) {
      this.p++;
      return { k: 'bin', op: t.v, a, b: this.concat(noGt) };
    }
    return a;
  }

  private startsOperand(): boolean {
    const t = this.peek();
    if (t.t === 'num' || t.t === 'str' || t.t === 'ere' || t.t === 'name' || t.t === 'funcname' || t.t === 'builtin') return true;
    if (t.t === 'op' && (t.v === '$' || t.v === '(' || t.v === '!' || t.v === '++' || t.v === '--' || t.v === '-' || t.v === '+')) return true;
    return false;
  }

  private concat(noGt: boolean): Expr {
    let a = this.additive();
    while (this.startsOperand() && !this.isOp('-') && !this.isOp('+') && !this.isOp('!')) {
      if (this.isKw('in')) break;
      a = { k: 'bin', op: 'concat', a, b: this.additive() };
    }
    void noGt;
    return a;
  }

  private additive(): Expr {
    let a = this.mul();
    while (this.isOp('+') || this.isOp('-')) {
      const op = this.next().v as string;
      a = { k: 'bin', op, a, b: this.mul() };
    }
    return a;
  }

  private mul(): Expr {
    let a = this.unary();
    while (this.isOp('*') || this.isOp('/') || this.isOp('%')) {
      const op = this.next().v as string;
      a = { k: 'bin', op, a, b: this.unary() };
    }
    return a;
  }

  private unary(): Expr {
    if (this.isOp('!')) {
      this.p++;
      return { k: 'not', e: this.unary() };
    }
    if (this.isOp('-')) {
      this.p++;
      return { k: 'neg', e: this.unary() };
    }
    if (this.isOp('+')) {
      this.p++;
      return { k: 'plus', e: this.unary() };
    }
    return this.power();
  }

  private power(): Expr {
    const a = this.postfix();
    if (this.isOp('^')) {
      this.p++;
      // Right associative; the exponent may carry a unary minus.
      const b = this.isOp('-') ? (this.p++, { k: 'neg' as const, e: this.power() }) : this.power();
      return { k: 'bin', op: '^', a, b };
    }
    return a;
  }

  private postfix(): Expr {
    if (this.isOp('++') || this.isOp('--')) {
      const op = this.next().v as '++' | '--';
      const target = this.postfix();
      if (!this.isLvalue(target)) throw this.err();
      return { k: 'incdec', op, prefix: true, target };
    }
    const e = this.primary();
    if ((this.isOp('++') || this.isOp('--')) && this.isLvalue(e)) {
      const op = this.next().v as '++' | '--';
      return { k: 'incdec', op, prefix: false, target: e };
    }
    return e;
  }

  private primary(): Expr {
    const t = this.next();
    switch (t.t) {
      case 'num':
        return { k: 'num', v: t.v };
      case 'str':
        return { k: 'str', v: t.v };
      case 'ere':
        return { k: 're', src: t.v };
      case 'name':
        if (this.isOp('[')) {
          this.p++;
          return { k: 'idx', name: t.v, subs: this.exprList(']') };
        }
        return { k: 'var', name: t.v };
      case 'funcname':
        this.expectOp('(');
        return { k: 'call', name: t.v, args: this.exprList(')') };
      case 'builtin': {
        if (this.isOp('(')) {
          this.p++;
          return { k: 'builtin', name: t.v, args: this.exprList(')') };
        }
        if (t.v === 'length') return { k: 'builtin', name: 'length', args: [] };
        throw this.err();
      }
      case 'kw':
        if (t.v === 'getline') {
          const g: Expr = { k: 'getline' };
          if (this.peek().t === 'name' || this.isOp('$')) g.target = this.postfix();
          if (this.isOp('<')) {
            this.p++;
            g.file = this.primary();
          }
          return g;
        }
        throw this.err(t);
      case 'op':
        if (t.v === '$') {
          return { k: 'field', e: this.isOp('++') || this.isOp('--') ? this.postfix() : this.primaryForField() };
        }
        if (t.v === '(') {
          const list = this.exprList(')');
          if (list.length === 1) return { k: 'group', e: list[0]! };
          if (list.length > 1 && this.isKw('in')) {
            return { k: 'group', e: list.slice(1).reduce<Expr>((acc, e) => ({ k: 'bin', op: ',', a: acc, b: e }), list[0]!) };
          }
          throw this.err();
        }
        if (t.v === '-') return { k: 'neg', e: this.unary() };
        if (t.v === '!') return { k: 'not', e: this.unary() };
        throw this.err(t);
      default:
        throw this.err(t);
    }
  }

  private primaryForField(): Expr {
    if (this.isOp('-')) {
      this.p++;
      return { k: 'neg', e: this.primaryForField() };
    }
    return this.primary();
  }
}

function flattenComma(e: Expr): Expr[] {
  if (e.k === 'bin' && e.op === ',') return [...flattenComma(e.a), e.b];
  return [e];
}

// ---------- values ----------

/** An awk value: a number, a string, or a "strnum" (input that looks numeric). */
type Val = { n: number; s?: undefined } | { s: string; n?: undefined; strnum?: boolean; num?: number };

const UNINIT: Val = { s: '', strnum: true, num: 0 };
const MAX_INT = 2147483647;

function looksNumeric(s: string): boolean {
  return /^[ \t\n]*[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)[ \t\n]*$/.test(s);
}

function strToNum(s: string): number {
  const m = /^[ \t\n]*([-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?))/.exec(s);
  if (m) return Number(m[1]);
  const inf = /^[ \t\n]*([-+])?(inf|nan)/i.exec(s);
  if (inf && inf[1]) return inf[2]!.toLowerCase() === 'inf' ? (inf[1] === '-' ? -Infinity : Infinity) : NaN;
  return 0;
}

function strnum(s: string): Val {
  return looksNumeric(s) ? { s, strnum: true, num: strToNum(s) } : { s };
}

function numToStr(n: number, fmt: string): string {
  if (Number.isInteger(n) && Math.abs(n) <= MAX_INT) return String(n === 0 ? 0 : n);
  if (Number.isNaN(n)) return '-nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  if (fmt === '%.6g') return gFormat(n, 6, false);
  return formatC(fmt, [{ num: () => n, str: () => String(n), isNum: true }]).text;
}

// ---------- interpreter ----------

class NextSignal {}
class ExitSignal {
  constructor(readonly code: number) {}
}
class BreakSignal {}
class ContinueSignal {}
class ReturnSignal {
  constructor(readonly v: Val) {}
}
class AwkRuntimeError extends Error {}

type Cell = { v: Val } | { arr: Map<string, Val> };

class Runtime {
  globals = new Map<string, Cell>();
  frames: Array<Map<string, Cell>> = [];
  record = '';
  fields: string[] | null = null;
  nf = 0;
  out = '';
  err = '';
  files = new Map<string, boolean>();
  regexCache = new Map<string, RegExp>();
  inputs: Array<{ name: string; text: string }> = [];
  inputIdx = 0;
  inputLines: string[] = [];
  inputPos = 0;
  getlineFiles = new Map<string, { lines: string[]; pos: number }>();
  seed = 0;
  prevSeed = 0;
  randState = 0;
  steps = 0;
  readonly budget: LineBudget;
  private readonly meter: { work: number };

  constructor(
    readonly prog: Program,
    readonly ctx: CommandContext,
  ) {
    this.budget = budgetOf(ctx);
    this.meter = this.budget.regexMeter();
  }

  // -- variables --
  private cell(name: string, create = true): Cell | undefined {
    const frame = this.frames[this.frames.length - 1];
    if (frame?.has(name)) return frame.get(name);
    let c = this.globals.get(name);
    if (!c && create) {
      c = { v: UNINIT };
      this.globals.set(name, c);
    }
    return c;
  }

  getVar(name: string): Val {
    if (name === 'NF') {
      this.split();
      return { n: this.nf };
    }
    const c = this.cell(name)!;
    if ('arr' in c) throw new AwkRuntimeError(`can't use array ${name} in scalar context`);
    return c.v;
  }

  setVar(name: string, v: Val): void {
    if (name === 'NF') {
      this.split();
      const n = Math.max(0, Math.trunc(this.num(v)));
      const f = this.fields!;
      while (f.length < n) f.push('');
      f.length = n;
      this.nf = n;
      this.rebuild();
      return;
    }
    const frame = this.frames[this.frames.length - 1];
    if (frame?.has(name)) {
      frame.set(name, { v });
      return;
    }
    const c = this.globals.get(name);
    if (c && 'arr' in c) throw new AwkRuntimeError(`can't assign to ${name}; it's an array name.`);
    this.globals.set(name, { v });
  }

  arr(name: string): Map<string, Val> {
    const frame = this.frames[this.frames.length - 1];
    const holder = frame?.has(name) ? frame : this.globals;
    const c = holder.get(name);
    if (c && 'arr' in c) return c.arr;
    if (c && 'v' in c && c.v !== UNINIT) throw new AwkRuntimeError(`can't use scalar ${name} as array`);
    const arr = new Map<string, Val>();
    holder.set(name, { arr });
    return arr;
  }

  str(v: Val, output = false): string {
    if (v.n !== undefined) return numToStr(v.n, output ? this.str(this.getVar('OFMT')) : this.str(this.getVar('CONVFMT')));
    return v.s;
  }

  num(v: Val): number {
    if (v.n !== undefined) return v.n;
    if (v.strnum && v.num !== undefined) return v.num;
    return strToNum(v.s);
  }

  bool(v: Val): boolean {
    if (v.n !== undefined) return v.n !== 0;
    if (v.strnum) return (v.num ?? 0) !== 0 || (v.s !== '' && !looksNumeric(v.s));
    return v.s !== '';
  }

  // -- fields --
  setRecord(s: string): void {
    this.record = s;
    this.fields = null;
  }

  split(): void {
    if (this.fields) return;
    this.fields = this.splitText(this.record, this.str(this.getVar('FS')));
    this.nf = this.fields.length;
  }

  splitText(s: string, fs: string): string[] {
    if (fs === ' ') {
      const t = s.replace(/^[ \t\n]+|[ \t\n]+$/g, '');
      return t === '' ? [] : t.split(/[ \t\n]+/);
    }
    if (s === '') return [];
    if (fs.length === 1 && fs !== '\\') return fs === '\t' ? s.split('\t') : s.split(fs === ' ' ? /[ \t\n]+/ : fs);
    return s.split(this.regex(fs));
  }

  field(i: number): Val {
    if (i < 0) throw new AwkRuntimeError(`negative field index $${i}`);
    if (i === 0) return strnum(this.record);
    this.split();
    const f = this.fields![i - 1];
    return f === undefined ? UNINIT : strnum(f);
  }

  setField(i: number, v: string): void {
    if (i < 0) throw new AwkRuntimeError(`negative field index $${i}`);
    if (i === 0) {
      this.setRecord(v);
      return;
    }
    this.split();
    const f = this.fields!;
    while (f.length < i) f.push('');
    f[i - 1] = v;
    this.nf = f.length;
    this.rebuild();
  }

  rebuild(): void {
    this.record = this.fields!.join(this.str(this.getVar('OFS')));
  }

  regex(src: string): RegExp {
    let re = this.regexCache.get(src);
    if (!re) {
      try {
        re = compilePosix(src, 'awk', '', this.meter);
      } catch {
        throw new AwkRuntimeError(`regular expression compile failed (missing operand)\n${src}`);
      }
      this.regexCache.set(src, re);
    }
    return re;
  }

  toRegex(e: Expr): RegExp {
    if (e.k === 're') return this.regex(e.src);
    return this.regex(this.str(this.eval(e)));
  }

  // -- evaluation --
  eval(e: Expr): Val {
    // four evaluations cost about one shell step: charged to the line's budget (budget.ts)
    if ((++this.steps & 3) === 0) this.budget.step();
    switch (e.k) {
      case 'num':
        return { n: e.v };
      case 'str':
        return { s: e.v };
      case 're':
        return { n: this.regex(e.src).test(this.record) ? 1 : 0 };
      case 'group':
        return this.eval(e.e);
      case 'var':
        return this.getVar(e.name);
      case 'field':
        return this.field(Math.trunc(this.num(this.eval(e.e))));
      case 'idx': {
        const key = this.subscript(e.subs);
        const a = this.arr(e.name);
        let v = a.get(key);
        if (v === undefined) {
          v = UNINIT;
          a.set(key, v);
        }
        return v;
      }
      case 'in':
        return { n: this.arr(e.name).has(this.subscript(e.subs)) ? 1 : 0 };
      case 'assign': {
        let v = this.eval(e.e);
        if (e.op !== '=') {
          const cur = this.num(this.eval(e.target));
          v = { n: arith(e.op.slice(0, -1), cur, this.num(v)) };
        } else if (v.s !== undefined) v = { ...v };
        this.assign(e.target, v);
        return v;
      }
      case 'cond':
        return this.bool(this.eval(e.c)) ? this.eval(e.a) : this.eval(e.b);
      case 'and':
        return { n: this.bool(this.eval(e.a)) && this.bool(this.eval(e.b)) ? 1 : 0 };
      case 'or':
        return { n: this.bool(this.eval(e.a)) || this.bool(this.eval(e.b)) ? 1 : 0 };
      case 'not':
        return { n: this.bool(this.eval(e.e)) ? 0 : 1 };
      case 'neg':
        return { n: -this.num(this.eval(e.e)) };
      case 'plus':
        return { n: this.num(this.eval(e.e)) };
      case 'match': {
        const s = this.str(this.eval(e.a));
        const ok = this.toRegex(e.re).test(s);
        return { n: ok !== e.neg ? 1 : 0 };
      }
      case 'incdec': {
        const old = this.num(this.eval(e.target));
        const nv = e.op === '++' ? old + 1 : old - 1;
        this.assign(e.target, { n: nv });
        return { n: e.prefix ? nv : old };
      }
      case 'bin': {
        if (e.op === 'concat') return { s: this.str(this.eval(e.a)) + this.str(this.eval(e.b)) };
        const a = this.eval(e.a);
        const b = this.eval(e.b);
        if (['<', '<=', '==', '!=', '>=', '>'].includes(e.op)) return { n: this.compare(e.op, a, b) ? 1 : 0 };
        if (e.op === ',') throw new AwkRuntimeError('syntax error');
        const bn = this.num(b);
        if ((e.op === '/' || e.op === '%') && bn === 0) throw new AwkRuntimeError(e.op === '/' ? 'division by zero' : 'division by zero in %');
        return { n: arith(e.op, this.num(a), bn) };
      }
      case 'call':
        return this.call(e.name, e.args);
      case 'builtin':
        return this.builtin(e.name, e.args);
      case 'getline':
        return this.getline(e);
    }
  }

  private compare(op: string, a: Val, b: Val): boolean {
    const numeric = (v: Val): boolean => v.n !== undefined || v.strnum === true;
    let c: number;
    if (numeric(a) && numeric(b)) {
      const x = this.num(a);
      const y = this.num(b);
      c = x < y ? -1 : x > y ? 1 : 0;
    } else {
      const x = this.str(a);
      const y = this.str(b);
      c = x < y ? -1 : x > y ? 1 : 0;
    }
    switch (op) {
      case '<':
        return c < 0;
      case '<=':
        return c <= 0;
      case '==':
        return c === 0;
      case '!=':
        return c !== 0;
      case '>=':
        return c >= 0;
      default:
        return c > 0;
    }
  }

  subscript(subs: Expr[]): string {
    return subs.map((s) => this.str(this.eval(s))).join(this.str(this.getVar('SUBSEP')));
  }

  assign(target: Expr, v: Val): void {
    if (target.k === 'var') this.setVar(target.name, v);
    else if (target.k === 'field') this.setField(Math.trunc(this.num(this.eval(target.e))), this.str(v));
    else if (target.k === 'idx') this.arr(target.name).set(this.subscript(target.subs), v);
    else if (target.k === 'group') this.assign(target.e, v);
  }

  private call(name: string, args: Expr[]): Val {
    const f = this.prog.funcs.get(name);
    if (!f) throw new AwkRuntimeError(`function ${name} never defined`);
    if (this.frames.length > 200) throw new AwkRuntimeError('function call nesting too deep');
    const frame = new Map<string, Cell>();
    f.params.forEach((p, i) => {
      const a = args[i];
      if (!a) {
        frame.set(p, { v: UNINIT });
        return;
      }
      if (a.k === 'var') {
        const c = this.cell(a.name, false);
        if (c && 'arr' in c) {
          frame.set(p, c);
          return;
        }
      }
      frame.set(p, { v: this.eval(a) });
    });
    this.frames.push(frame);
    try {
      this.exec(f.body);
    } catch (e) {
      if (e instanceof ReturnSignal) return e.v;
      throw e;
    } finally {
      this.frames.pop();
    }
    return UNINIT;
  }

  private builtin(name: string, args: Expr[]): Val {
    const s = (i: number): string => this.str(this.eval(args[i]!));
    const n = (i: number): number => this.num(this.eval(args[i]!));
    switch (name) {
      case 'length':
        if (args.length === 0) return { n: [...this.record].length };
        if (args[0]!.k === 'var') {
          const c = this.cell((args[0] as { name: string }).name, false);
          if (c && 'arr' in c) return { n: c.arr.size };
        }
        return { n: [...s(0)].length };
      case 'substr': {
        const str = [...s(0)];
        // mawk/POSIX: characters from position m (rounded) for n (rounded) characters.
        let start = Math.round(n(1));
        let len = args.length > 2 ? Math.round(n(2)) : Infinity;
        if (Number.isNaN(start)) start = 1;
        if (start < 1) {
          len += start - 1;
          start = 1;
        }
        if (len <= 0) return { s: '' };
        return { s: str.slice(start - 1, len === Infinity ? undefined : start - 1 + len).join('') };
      }
      case 'index': {
        const i = s(0).indexOf(s(1));
        return { n: i < 0 ? 0 : [...s(0).slice(0, i)].length + 1 };
      }
      case 'split': {
        const target = args[1];
        if (!target || target.k !== 'var') throw new AwkRuntimeError('split: second argument must be an array');
        const str = s(0);
        const fs = args[2] ? (args[2].k === 're' ? args[2].src : s(2)) : this.str(this.getVar('FS'));
        const parts = args[2]?.k === 're' ? (str === '' ? [] : str.split(this.regex(fs))) : this.splitText(str, fs);
        const arr = this.arr(target.name);
        arr.clear();
        parts.forEach((p, i) => arr.set(String(i + 1), strnum(p)));
        return { n: parts.length };
      }
      case 'sub':
      case 'gsub': {
        const re = this.toRegex(args[0]!);
        const repl = s(1);
        const target = args[2] ?? { k: 'field', e: { k: 'num', v: 0 } };
        const src = this.str(this.eval(target));
        const g = withFlags(re, `${re.flags.replace('g', '')}g`);
        let count = 0;
        let out = '';
        let pos = 0;
        let prevEnd = -1;
        for (let m = g.exec(src); m; m = g.exec(src)) {
          // An empty match right after the previous match does not count (POSIX).
          if (m[0] === '' && m.index === prevEnd) {
            g.lastIndex = m.index + 1;
            if (m.index >= src.length) break;
            continue;
          }
          if (m[0] !== '') prevEnd = m.index + m[0].length;
          count++;
          out += src.slice(pos, m.index) + subRepl(repl, m[0]);
          pos = m.index + m[0].length;
          if (m[0] === '') {
            if (m.index < src.length) out += src[m.index];
            pos = m.index + 1;
            g.lastIndex = m.index + 1;
          }
          if (name === 'sub') break;
        }
        if (count > 0) {
          out += src.slice(pos);
          this.assign(target, { s: out });
        }
        return { n: count };
      }
      case 'match': {
        const str = s(0);
        const m = this.toRegex(args[1]!).exec(str);
        const start = m ? [...str.slice(0, m.index)].length + 1 : 0;
        const len = m ? [...m[0]].length : -1;
        this.setVar('RSTART', { n: start });
        this.setVar('RLENGTH', { n: len });
        return { n: start };
      }
      case 'sprintf':
        if (args.length === 0) throw new AwkRuntimeError('sprintf: no format');
        return { s: this.format(args) };
      case 'tolower':
        return { s: s(0).toLowerCase() };
      case 'toupper':
        return { s: s(0).toUpperCase() };
      case 'int':
        return { n: Math.trunc(n(0)) };
      case 'sqrt':
        return { n: Math.sqrt(n(0)) };
      case 'exp':
        return { n: Math.exp(n(0)) };
      case 'log':
        return { n: Math.log(n(0)) };
      case 'sin':
        return { n: Math.sin(n(0)) };
      case 'cos':
        return { n: Math.cos(n(0)) };
      case 'atan2':
        return { n: Math.atan2(n(0), n(1)) };
      case 'rand': {
        // Deterministic LCG: the simulator has no entropy source.
        this.randState = (this.randState * 1103515245 + 12345) % 2147483648;
        return { n: this.randState / 2147483648 };
      }
      case 'srand': {
        const prev = this.seed;
        this.seed = args.length > 0 ? n(0) : Math.floor(this.ctx.now() / 1000);
        this.randState = Math.abs(Math.trunc(this.seed)) % 2147483648;
        return { n: prev };
      }
      case 'system':
      case 'close':
      case 'fflush':
        for (const a of args) this.eval(a);
        return { n: 0 };
    }
    throw new AwkRuntimeError(`unknown function ${name}`);
  }

  format(args: Expr[]): string {
    const fmt = this.str(this.eval(args[0]!));
    const vals = args.slice(1).map((a) => this.eval(a));
    const fa: FormatArg[] = vals.map((v) => ({ num: () => this.num(v), str: () => this.str(v), isNum: v.n !== undefined }));
    return formatC(fmt, fa).text;
  }

  private getline(e: Extract<Expr, { k: 'getline' }>): Val {
    let line: string | undefined;
    if (e.file) {
      const name = this.str(this.eval(e.file));
      let f = this.getlineFiles.get(name);
      if (!f) {
        const r = name === '-' || name === '/dev/stdin' ? { ok: true as const, text: this.ctx.stdin } : readInput(this.ctx, name);
        if (!r.ok) return { n: -1 };
        const lines = r.text.split('\n');
        if (lines[lines.length - 1] === '') lines.pop();
        f = { lines, pos: 0 };
        this.getlineFiles.set(name, f);
      }
      line = f.lines[f.pos++];
      if (line === undefined) return { n: 0 };
      if (e.target) this.assign(e.target, strnum(line));
      else {
        this.setRecord(line);
        this.setVar('NR', { n: this.num(this.getVar('NR')) + 1 });
      }
      return { n: 1 };
    }
    line = this.nextLine();
    if (line === undefined) return { n: 0 };
    this.setVar('NR', { n: this.num(this.getVar('NR')) + 1 });
    this.setVar('FNR', { n: this.num(this.getVar('FNR')) + 1 });
    if (e.target) this.assign(e.target, strnum(line));
    else this.setRecord(line);
    return { n: 1 };
  }

  /** Next input record across all input files, or undefined at the end. */
  nextLine(): string | undefined {
    for (;;) {
      if (this.inputPos < this.inputLines.length) return this.inputLines[this.inputPos++];
      if (this.inputIdx >= this.inputs.length) return undefined;
      const next = this.inputs[this.inputIdx++]!;
      this.setVar('FILENAME', { s: next.name === '-' ? '' : next.name });
      this.setVar('FNR', { n: 0 });
      this.inputLines = next.text.split('\n');
      if (this.inputLines[this.inputLines.length - 1] === '') this.inputLines.pop();
      this.inputPos = 0;
    }
  }

  // -- statements --
  exec(s: Stmt): void {
    switch (s.k) {
      case 'block':
        for (const x of s.body) this.exec(x);
        return;
      case 'expr':
        this.eval(s.e);
        return;
      case 'print': {
        const text = s.args.length === 0 ? this.record : s.args.map((a) => this.str(this.eval(a), true)).join(this.str(this.getVar('OFS')));
        this.emit(text + this.str(this.getVar('ORS')), s.redir);
        return;
      }
      case 'printf':
        this.emit(this.format(s.args), s.redir);
        return;
      case 'if':
        if (this.bool(this.eval(s.c))) this.exec(s.a);
        else if (s.b) this.exec(s.b);
        return;
      case 'while':
        while (this.bool(this.eval(s.c))) {
          if (this.loopBody(s.body)) break;
        }
        return;
      case 'do':
        do {
          if (this.loopBody(s.body)) break;
        } while (this.bool(this.eval(s.c)));
        return;
      case 'for':
        if (s.init) this.exec(s.init);
        while (!s.c || this.bool(this.eval(s.c))) {
          if (this.loopBody(s.body)) break;
          if (s.step) this.exec(s.step);
        }
        return;
      case 'forin': {
        const keys = [...this.arr(s.arr).keys()];
        for (const k of keys) {
          this.setVar(s.v, strnum(k));
          if (this.loopBody(s.body)) break;
        }
        return;
      }
      case 'next':
        throw new NextSignal();
      case 'exit':
        throw new ExitSignal(s.e ? Math.trunc(this.num(this.eval(s.e))) : -1);
      case 'return':
        throw new ReturnSignal(s.e ? this.eval(s.e) : UNINIT);
      case 'break':
        throw new BreakSignal();
      case 'continue':
        throw new ContinueSignal();
      case 'delete':
        if (s.subs) this.arr(s.name).delete(this.subscript(s.subs));
        else this.arr(s.name).clear();
        return;
    }
  }

  /** Run a loop body; true when it broke out. */
  private loopBody(body: Stmt): boolean {
    try {
      this.exec(body);
    } catch (e) {
      if (e instanceof BreakSignal) return true;
      if (e instanceof ContinueSignal) return false;
      throw e;
    }
    return false;
  }

  private emit(text: string, redir: { op: string; e: Expr } | undefined): void {
    if (this.out.length + text.length > this.budget.outputLeft()) throw new BudgetExceeded('output');
    if (!redir) {
      this.out += text;
      return;
    }
    const name = this.str(this.eval(redir.e));
    if (redir.op === '|') {
      this.err += `awk: cannot pipe to "${name}" in the simulator\n`;
      return;
    }
    if (name === '/dev/stdout' || name === '-') {
      this.out += text;
      return;
    }
    if (name === '/dev/stderr') {
      this.err += text;
      return;
    }
    const path = resolvePath(this.ctx.cwd, name);
    const parent = path.slice(0, path.lastIndexOf('/')) || '/';
    if (!this.ctx.fs.isDir(parent) || this.ctx.fs.isDir(path)) throw new AwkRuntimeError(`cannot open "${name}" for output`);
    if (!this.files.has(path)) {
      this.files.set(path, true);
      if (redir.op === '>') this.ctx.fs.write(path, '');
    }
    this.ctx.fs.append(path, text);
  }
}

function arith(op: string, a: number, b: number): number {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return a / b;
    case '%':
      return a % b;
    case '^':
      return a ** b;
  }
  return 0;
}

/** sub/gsub replacement: & is the match, \& a literal &, \\ a backslash. */
function subRepl(repl: string, matched: string): string {
  let out = '';
  for (let i = 0; i < repl.length; i++) {
    const c = repl[i]!;
    if (c === '\\' && (repl[i + 1] === '&' || repl[i + 1] === '\\')) {
      out += repl[++i];
      continue;
    }
    out += c === '&' ? matched : c;
  }
  return out;
}

function processEscapes(s: string): string {
  return s.replace(/\\(n|t|r|\\|"|\/)/g, (_m, c: string) => ({ n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', '/': '/' })[c] ?? c);
}

const USAGE = 'usage: awk [-F value] [-v var=value] [--] \'program text\' [file ...]\nusage: awk [-F value] [-v var=value] [-f program-file] [--] [file ...]\n';

export const awk: CommandFn = (ctx): CommandResult => {
  const args = ctx.argv.slice(1);
  let fs: string | undefined;
  const assigns: Array<[string, string]> = [];
  let progText: string | undefined;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    const opt = a[1]!;
    const rest = a.slice(2);
    if (opt === 'F' || opt === 'v' || opt === 'f') {
      const v = rest !== '' ? rest : args[++i];
      if (v === undefined) return { stdout: '', stderr: `awk: option requires an argument -- ${opt}\n${USAGE}`, exitCode: 2 };
      if (opt === 'F') fs = v === 't' ? '\t' : processEscapes(v);
      else if (opt === 'v') {
        const eq = v.indexOf('=');
        if (eq <= 0) return { stdout: '', stderr: `awk: improper assignment: -v ${v}\n`, exitCode: 2 };
        assigns.push([v.slice(0, eq), v.slice(eq + 1)]);
      } else {
        const r = readInput(ctx, v);
        if (!r.ok) return { stdout: '', stderr: `awk: couldn't open file ${v}: ${r.error}\n`, exitCode: 2 };
        progText = (progText ?? '') + r.text;
      }
      continue;
    }
    if (a === '--version' || a === '-W') return { stdout: 'mawk 1.3.4 20200120\n', stderr: '', exitCode: 0 };
    return { stdout: '', stderr: `awk: not an option: ${a}\n`, exitCode: 2 };
  }
  if (progText === undefined) {
    progText = args[i++];
    if (progText === undefined) return { stdout: '', stderr: USAGE, exitCode: 2 };
  }
  const operands = args.slice(i);
  let prog: Program;
  try {
    prog = new Parser(lex(progText)).program();
  } catch (e) {
    if (e instanceof AwkSyntaxError) return { stdout: '', stderr: `awk: ${e.message}\n`, exitCode: 2 };
    throw e;
  }
  const rt = new Runtime(prog, ctx);
  const g = rt.globals;
  g.set('FS', { v: { s: fs ?? ' ' } });
  g.set('OFS', { v: { s: ' ' } });
  g.set('ORS', { v: { s: '\n' } });
  g.set('RS', { v: { s: '\n' } });
  g.set('NR', { v: { n: 0 } });
  g.set('FNR', { v: { n: 0 } });
  g.set('SUBSEP', { v: { s: '\x1c' } });
  g.set('CONVFMT', { v: { s: '%.6g' } });
  g.set('OFMT', { v: { s: '%.6g' } });
  g.set('RSTART', { v: { n: 0 } });
  g.set('RLENGTH', { v: { n: -1 } });
  g.set('FILENAME', { v: { s: '' } });
  const environ = new Map<string, Val>();
  for (const [k, v] of Object.entries(ctx.env)) environ.set(k, strnum(v));
  g.set('ENVIRON', { arr: environ });
  for (const [k, v] of assigns) g.set(k, { v: strnum(processEscapes(v)) });

  let exitCode = 0;
  let exiting = false;
  const run = (s: Stmt | undefined): void => {
    if (s) rt.exec(s);
  };
  try {
    try {
      for (const r of prog.rules) if (r.kind === 'begin') run(r.action);
    } catch (e) {
      if (!(e instanceof ExitSignal)) throw e;
      if (e.code >= 0) exitCode = e.code;
      exiting = true;
    }
    const mains = prog.rules.filter((r) => r.kind === 'main');
    const ends = prog.rules.filter((r) => r.kind === 'end');
    if (!exiting && (mains.length > 0 || ends.length > 0)) {
      // Input files, with `var=value` operands applied when reached.
      const files = operands.length > 0 ? operands : ['-'];
      const pending: Array<{ name: string; text: string } | { assign: [string, string] }> = [];
      let anyFile = false;
      for (const f of files) {
        const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(f);
        if (m) {
          pending.push({ assign: [m[1]!, m[2]!] });
          continue;
        }
        anyFile = true;
        const r = readInput(ctx, f);
        if (!r.ok) {
          // mawk stops at the first file it cannot open.
          const out = rt.out;
          return { stdout: out, stderr: `${rt.err}awk: cannot open ${f} (${r.error})\n`, exitCode: 2 };
        }
        pending.push({ name: f, text: r.text });
      }
      if (!anyFile) pending.push({ name: '-', text: ctx.stdin });
      try {
        for (const p of pending) {
          if ('assign' in p) {
            rt.setVar(p.assign[0], strnum(processEscapes(p.assign[1])));
            continue;
          }
          rt.inputs.push(p);
        }
        for (let line = rt.nextLine(); line !== undefined; line = rt.nextLine()) {
          rt.setVar('NR', { n: rt.num(rt.getVar('NR')) + 1 });
          rt.setVar('FNR', { n: rt.num(rt.getVar('FNR')) + 1 });
          rt.setRecord(line);
          try {
            for (const r of mains) {
              let hit: boolean;
              if (!r.pattern) hit = true;
              else if (r.pattern2) {
                if (r.inRange) {
                  hit = true;
                  if (rt.bool(rt.eval(r.pattern2))) r.inRange = false;
                } else if (rt.bool(rt.eval(r.pattern))) {
                  hit = true;
                  r.inRange = !rt.bool(rt.eval(r.pattern2));
                } else hit = false;
              } else hit = rt.bool(rt.eval(r.pattern));
              if (!hit) continue;
              if (r.action) run(r.action);
              else rt.out += rt.record + rt.str(rt.getVar('ORS'));
            }
          } catch (e) {
            if (!(e instanceof NextSignal)) throw e;
          }
        }
      } catch (e) {
        if (!(e instanceof ExitSignal)) throw e;
        if (e.code >= 0) exitCode = e.code;
      }
    }
    try {
      for (const r of ends) run(r.action);
    } catch (e) {
      if (!(e instanceof ExitSignal)) throw e;
      if (e.code >= 0) exitCode = e.code;
    }
  } catch (e) {
    if (e instanceof AwkRuntimeError) {
      return { stdout: rt.out, stderr: `${rt.err}awk: run time error: ${e.message}\n\tFILENAME="${rt.str(rt.getVar('FILENAME'))}" FNR=${rt.str(rt.getVar('FNR'))} NR=${rt.str(rt.getVar('NR'))}\n`, exitCode: 2 };
    }
    if (e instanceof NextSignal || e instanceof BreakSignal || e instanceof ContinueSignal || e instanceof ReturnSignal) {
      return { stdout: rt.out, stderr: `${rt.err}awk: run time error: improper use of next, break, continue or return\n`, exitCode: 2 };
    }
    throw e;
  }
  return { stdout: rt.out, stderr: rt.err, exitCode };
};
