/**
 * Shell arithmetic for `$(( ))` (bash/expr.c): integers, variables by name or `$NAME`, the C
 * operators bash supports (unary + - ! ~, ** * / % + - << >> < <= > >= == != & ^ | && || ?: ,
 * and assignment forms), with bash's error texts (`division by 0 (error token is "0")`; recorded in
 * testdata/arith-errors.txt).
 */

export class ArithError extends Error {}

/**
 * dash's arithmetic (src/arith_yacc.c, dash 0.5.12) has no `**`, and words every error
 * `arithmetic expression: WHAT: "EXPRESSION"` (yyerror), WHAT being `expecting primary`,
 * `expecting EOF`, `division by zero`, `expecting ')'` or `expecting ':'`.
 */
export interface ArithOptions {
  dash?: boolean;
  /**
   * BusyBox ash's wording (shell/math.c): `divide by zero` for a zero divisor, every other error
   * `arithmetic syntax error` (busybox 1.35.0 `sh -c 'echo $((1+))'`).
   */
  ash?: boolean;
}

/** A token and where it starts in the expression (bash's `error token is` quotes the text from there on). */
type Tok = ({ t: 'num'; v: bigint } | { t: 'name'; v: string; sub?: string } | { t: 'op'; v: string }) & { at: number };

/**
 * A `BASE#DIGITS` constant (bash expr.c strlong): BASE 2 to 64, digits 0-9, a-z, A-Z (the same
 * as a-z up to base 36, 36-61 above), `@` 62, `_` 63.
 */
function baseConstant(text: string, base: number, digits: string, fail: (bash: string, dash: string) => never): bigint {
  if (base < 2 || base > 64) fail(`${text}: ${base === 0 ? 'invalid number' : 'invalid arithmetic base'} (error token is "${text}")`, 'expecting EOF');
  if (digits === '') fail(`${text}: invalid integer constant (error token is "${text}")`, 'expecting EOF');
  let v = 0n;
  for (const ch of digits) {
    const d = /\d/.test(ch) ? Number(ch) : /[a-z]/.test(ch) ? ch.charCodeAt(0) - 87 : /[A-Z]/.test(ch) ? ch.charCodeAt(0) - (base <= 36 ? 55 : 29) : ch === '@' ? 62 : 63;
    if (d >= base) fail(`${text}: value too great for base (error token is "${text}")`, 'expecting EOF');
    v = BigInt.asIntN(64, v * BigInt(base) + BigInt(d));
  }
  return v;
}

const OPS = ['<<=', '>>=', '**', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '+=', '-=', '*=', '/=', '%=', '&=', '^=', '|=', '++', '--', '+', '-', '*', '/', '%', '<', '>', '&', '^', '|', '!', '~', '?', ':', '(', ')', ',', '='];

function lex(src: string, dash: boolean, fail: (bash: string, dash: string) => never): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    // a leading 0 makes it octal: 08 is bash's "value too great for base" (expr.c strlong)
    const badOctal = dash ? null : /^0[0-7]*[89][0-9]*(?![A-Za-z0-9_])/.exec(src.slice(i));
    if (badOctal) fail(`${badOctal[0]}: value too great for base (error token is "${badOctal[0]}")`, 'expecting primary');
    const based = dash ? null : /^([0-9]+)#([0-9A-Za-z@_]*)/.exec(src.slice(i));
    if (based) {
      toks.push({ at: i, t: 'num', v: baseConstant(based[0], Number(based[1]), based[2]!, fail) });
      i += based[0].length;
      continue;
    }
    const num = /^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)(?![A-Za-z0-9_])/.exec(src.slice(i));
    if (num) {
      const s = num[1]!;
      toks.push({ at: i, t: 'num', v: s.startsWith('0x') || s.startsWith('0X') ? BigInt(s) : s.length > 1 && s.startsWith('0') ? BigInt(`0o${s.slice(1)}`) : BigInt(s) });
      i += s.length;
      continue;
    }
    const name = /^\$?\{?([A-Za-z_][A-Za-z0-9_]*)\}?/.exec(src.slice(i));
    if (name) {
      const at = i;
      i += name[0].length;
      // `a[i+1]`: an array element, its subscript up to the matching `]` (bash expr.c expr_skipsubscript)
      if (!dash && name[0] === name[1] && src[i] === '[') {
        let depth = 0;
        let j = i;
        for (; j < src.length; j++) {
          if (src[j] === '[') depth++;
          else if (src[j] === ']' && --depth === 0) break;
        }
        if (j >= src.length) fail(`${src.slice(at)}: bad array subscript (error token is "${src.slice(at)}")`, 'expecting EOF');
        toks.push({ at, t: 'name', v: name[1]!, sub: src.slice(i + 1, j) });
        i = j + 1;
        continue;
      }
      toks.push({ at, t: 'name', v: name[1]! });
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i) && !(dash && o.startsWith('**')));
    if (!op) fail(`${src.replace(/^\s+/, '')}: syntax error: invalid arithmetic operator (error token is "${src.slice(i)}")`, 'expecting primary');
    toks.push({ at: i, t: 'op', v: op });
    i += op.length;
  }
  return toks;
}

const BIN: Array<string[]> = [['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!='], ['<', '<=', '>', '>='], ['<<', '>>'], ['+', '-'], ['*', '/', '%']];

/** Evaluate `src`; variables are read and written through get/set. */
export function evalArith(src: string, get: (name: string, sub?: string) => string, set: (name: string, v: string, sub?: string) => void, opts: ArithOptions = {}): bigint {
  const dash = opts.dash === true;
  // bash's messages quote the expression without its leading blanks (expr.c evalexp skips them)
  const shown = src.replace(/^\s+/, '');
  const fail = (bash: string, dashWhat: string): never => {
    if (opts.ash === true) throw new ArithError(dashWhat === 'division by zero' ? 'divide by zero' : 'arithmetic syntax error');
    throw new ArithError(dash ? `arithmetic expression: ${dashWhat}: "${src}"` : bash);
  };
  const toks = lex(src, dash, fail);
  let p = 0;
  const peek = (): Tok | undefined => toks[p];
  const isOp = (v: string): boolean => {
    const t = peek();
    return t !== undefined && t.t === 'op' && t.v === v;
  };
  // bash (expr.c evalerror) quotes the expression from the failing token on, as written
  // (its lasttp: the token read last, which at the end of the expression is the one before it)
  const rest = (): string => {
    const t = toks[p] ?? toks[p - 1];
    return t === undefined ? '' : src.slice(t.at);
  };
  const varValue = (name: string, sub?: string, depth = 0): bigint => {
    const v = get(name, sub).trim();
    if (v === '') return 0n;
    if (/^-?\d+$/.test(v)) return BigInt(v);
    if (depth > 8) throw new ArithError(`${v}: expression recursion level exceeded`);
    return evalArith(v, get, set, opts);
  };
  const wrap = (v: bigint): bigint => BigInt.asIntN(64, v);

  const primary = (): bigint => {
    const t = peek();
    if (!t) return fail(`${shown}: syntax error: operand expected (error token is "${rest()}")`, 'expecting primary');
    p++;
    if (t.t === 'num') return t.v;
    if (t.t === 'name') {
      if (isOp('++') || isOp('--')) {
        const op = (peek() as { v: string }).v;
        p++;
        const old = varValue(t.v, t.sub);
        set(t.v, String(op === '++' ? old + 1n : old - 1n), t.sub);
        return old;
      }
      return varValue(t.v, t.sub);
    }
    if (t.v === '(') {
      const v = comma();
      if (!isOp(')')) fail(`${shown}: syntax error: missing \`)' (error token is "${rest()}")`, "expecting ')'");
      p++;
      return v;
    }
    if (t.v === '-' || t.v === '+' || t.v === '!' || t.v === '~') {
      const v = unary();
      return t.v === '-' ? wrap(-v) : t.v === '+' ? v : t.v === '!' ? (v === 0n ? 1n : 0n) : wrap(~v);
    }
    if (t.v === '++' || t.v === '--') {
      const n = peek();
      if (n?.t !== 'name') return fail(`${shown}: syntax error: operand expected (error token is "${rest()}")`, 'expecting primary');
      p++;
      const v = varValue(n.v, n.sub) + (t.v === '++' ? 1n : -1n);
      set(n.v, String(v), n.sub);
      return v;
    }
    p--;
    return fail(`${shown}: syntax error: operand expected (error token is "${rest()}")`, 'expecting primary');
  };
  const unary = (): bigint => primary();
  const power = (): bigint => {
    const a = unary();
    if (isOp('**')) {
      p++;
      const b = power();
      if (b < 0n) throw new ArithError(`${shown}: exponent less than 0 (error token is "${rest()}")`);
      return wrap(a ** b);
    }
    return a;
  };
  const binary = (level: number): bigint => {
    if (level >= BIN.length) return power();
    let a = binary(level + 1);
    for (;;) {
      const t = peek();
      if (!t || t.t !== 'op' || !BIN[level]!.includes(t.v)) return a;
      p++;
      if (t.v === '&&' && a === 0n) {
        binary(level + 1);
        a = 0n;
        continue;
      }
      if (t.v === '||' && a !== 0n) {
        binary(level + 1);
        a = 1n;
        continue;
      }
      const at = p;
      const b = binary(level + 1);
      a = apply(t.v, a, b, at);
    }
  };
  /** `at`: the token the right operand starts at (bash quotes a zero divisor from there). */
  const apply = (op: string, a: bigint, b: bigint, at?: number): bigint => {
    switch (op) {
      case '+': return wrap(a + b);
      case '-': return wrap(a - b);
      case '*': return wrap(a * b);
      case '/':
      case '%':
        if (b === 0n) fail(`${shown}: division by 0 (error token is "${at !== undefined && toks[at] ? src.slice(toks[at].at) : rest()}")`, 'division by zero');
        return op === '/' ? a / b : a % b;
      case '<<': return wrap(a << b);
      case '>>': return a >> b;
      case '<': return a < b ? 1n : 0n;
      case '<=': return a <= b ? 1n : 0n;
      case '>': return a > b ? 1n : 0n;
      case '>=': return a >= b ? 1n : 0n;
      case '==': return a === b ? 1n : 0n;
      case '!=': return a !== b ? 1n : 0n;
      case '&': return a & b;
      case '^': return a ^ b;
      case '|': return a | b;
      case '&&': return a !== 0n && b !== 0n ? 1n : 0n;
      case '||': return a !== 0n || b !== 0n ? 1n : 0n;
      case '**': return wrap(a ** b);
    }
    return 0n;
  };
  const ternary = (): bigint => {
    const c = binary(0);
    if (isOp('?')) {
      p++;
      // expr.c expcond: an empty branch is "expression expected"
      const empty = (): boolean => peek() === undefined || isOp(':');
      if (empty() && !dash) fail(`${shown}: expression expected (error token is "${rest()}")`, 'expecting primary');
      const a = assign();
      if (!isOp(':')) fail(`${shown}: \`:' expected for conditional expression (error token is "${rest()}")`, "expecting ':'");
      p++;
      if (peek() === undefined && !dash) fail(`${shown}: expression expected (error token is "${rest()}")`, 'expecting primary');
      const b = assign();
      return c !== 0n ? a : b;
    }
    return c;
  };
  const assign = (): bigint => {
    const t = peek();
    const n = toks[p + 1];
    if (t?.t === 'name' && n?.t === 'op' && /^(\*\*|<<|>>|[-+*/%&^|])?=$/.test(n.v)) {
      p += 2;
      const at = p;
      const v = assign();
      const op = n.v.slice(0, -1);
      const nv = op === '' ? v : apply(op, varValue(t.v, t.sub), v, at);
      set(t.v, String(nv), t.sub);
      return nv;
    }
    return ternary();
  };
  const comma = (): bigint => {
    let v = assign();
    while (isOp(',')) {
      p++;
      v = assign();
    }
    return v;
  };
  if (toks.length === 0) return 0n;
  const v = comma();
  if (p < toks.length) {
    // an assignment to what is no variable (`1 = 2`): expr.c expassign's complaint
    const t = toks[p];
    const assigns = t?.t === 'op' && /^(\*\*|<<|>>|[-+*/%&^|])?=$/.test(t.v);
    fail(`${shown}: ${assigns ? 'attempted assignment to non-variable' : 'syntax error in expression'} (error token is "${rest()}")`, 'expecting EOF');
  }
  return v;
}
