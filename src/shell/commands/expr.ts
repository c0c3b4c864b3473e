/**
 * expr — evaluate an expression given as separate arguments. Two implementations share the
 * grammar (`|`, `&`, comparisons, `+ -`, `* / %`, `:`, then `match`/`substr`/`index`/`length` and
 * parentheses; comparisons are numeric when both sides are integers, else strcmp; the exit status
 * is 1 when the result is null or 0, 2 on an error):
 * - BusyBox 1.36.1 (coreutils/expr.c, the busybox image): 64-bit arithmetic that wraps, the `quote`
 *   keyword, and bb_error_msg_and_die's terse words (`too few arguments`, `syntax error`,
 *   `non-numeric argument`, `division by zero`).
 * - GNU coreutils 9 (src/expr.c, the Ubuntu hosts): arbitrary precision, `+ TOKEN` quotes a
 *   token, and its longer words (`missing operand`, `syntax error: missing argument after ‘+’`,
 *   `syntax error: unexpected argument ‘2’`, `non-integer argument`).
 * Recorded from busybox 1.36.1 (busybox-toolbox.txt) and GNU expr 9.1 (expr.test.ts).
 */
import type { CommandFn, CommandResult } from '../types.js';
import { compilePosix, RegexError } from '../../util/posix-regex.js';
import { busyboxUsageError, isBusybox } from './busybox.js';

type Value = { int: bigint } | { str: string };

class ExprError extends Error {}

const INT = /^[+-]?\d+$/;

/** Whether `v` is null: 0, the empty string or "0" (busybox null(); GNU's null() also takes "-0", "00"). */
function isNull(v: Value, gnu: boolean): boolean {
  if ('int' in v) return v.int === 0n;
  if (gnu) return v.str === '' || /^-?0+$/.test(v.str);
  return v.str === '' || v.str === '0';
}

const str = (v: Value): string => ('int' in v ? v.int.toString() : v.str);

/** toarith: a string that is wholly a decimal integer (strtoll base 10 in busybox: leading blanks too). */
function toInt(v: Value, gnu: boolean): bigint | undefined {
  if ('int' in v) return v.int;
  const s = gnu ? v.str : v.str.replace(/^[ \t\n\v\f\r]+/, '');
  return INT.test(s) ? BigInt(s) : undefined;
}

/** The first match of a BRE anchored at the start, as regexec with a match at offset 0. */
function colon(s: Value, p: Value, gnu: boolean): Value {
  const text = str(s);
  let pat = str(p);
  // GNU anchors the pattern itself (a leading ^ is then literal-anchored, same effect)
  if (gnu && pat.startsWith('^')) pat = pat.slice(1);
  let re: RegExp;
  try {
    re = compilePosix(pat, 'bre');
  } catch (e) {
    if (e instanceof RegexError) throw new ExprError(gnu ? e.message : `bad regex '${pat}': ${e.message}`);
    throw e;
  }
  const groups = /\\\(/.test(pat);
  const m = re.exec(text);
  if (m && m.index === 0) return groups && m[1] !== undefined ? { str: m[1] } : { int: BigInt(m[0].length) };
  return groups ? { str: '' } : { int: 0n };
}

function evaluate(args: readonly string[], gnu: boolean): Value {
  let i = 0;
  const peek = (): string | undefined => args[i];
  const missingAfter = (): never => {
    throw new ExprError(gnu ? `syntax error: missing argument after ‘${args[i - 1]}’` : 'syntax error');
  };
  const wrap = (n: bigint): bigint => (gnu ? n : BigInt.asIntN(64, n));
  const primary = (): Value => {
    const t = args[i];
    if (t === undefined) return missingAfter();
    if (t === '(') {
      i++;
      const v = orExpr();
      if (args[i] !== ')') {
        if (!gnu) throw new ExprError('syntax error');
        throw new ExprError(args[i] === undefined ? `syntax error: expecting ')' after ‘${args[i - 1]}’` : `syntax error: expecting ')' instead of ‘${args[i]}’`);
      }
      i++;
      return v;
    }
    if (t === ')') throw new ExprError(gnu ? `syntax error: unexpected ')'` : 'syntax error');
    i++;
    return { str: t };
  };
  const keyword = (): Value => {
    const t = args[i];
    if (gnu && t === '+') {
      i++;
      const q = args[i++];
      if (q === undefined) return missingAfter();
      return { str: q };
    }
    if (!gnu && t === 'quote') {
      i++;
      const q = args[i++];
      if (q === undefined) throw new ExprError('syntax error');
      return { str: q };
    }
    if (t === 'length' && (!gnu || args[i + 1] !== undefined)) {
      i++;
      return { int: BigInt(Buffer.byteLength(str(keyword()))) };
    }
    if (t === 'match' && (!gnu || args[i + 1] !== undefined)) {
      i++;
      const l = keyword();
      return colon(l, keyword(), gnu);
    }
    if (t === 'index' && (!gnu || args[i + 1] !== undefined)) {
      i++;
      const l = str(keyword());
      const chars = str(keyword());
      const at = [...l].findIndex((c) => chars.includes(c));
      return { int: BigInt(at + 1) };
    }
    if (t === 'substr' && (!gnu || args[i + 1] !== undefined)) {
      i++;
      const l = str(keyword());
      const pos = toInt(keyword(), gnu);
      const len = toInt(keyword(), gnu);
      if (pos === undefined || len === undefined || pos > BigInt(l.length) || pos <= 0n || len <= 0n) return { str: '' };
      return { str: l.slice(Number(pos) - 1, Number(pos) - 1 + Number(len > BigInt(l.length) ? BigInt(l.length) : len)) };
    }
    return primary();
  };
  const colonExpr = (): Value => {
    let l = keyword();
    while (peek() === ':') {
      i++;
      l = colon(l, keyword(), gnu);
    }
    return l;
  };
  const arith = (l: Value, r: Value, op: string): Value => {
    const a = toInt(l, gnu);
    const b = toInt(r, gnu);
    if (a === undefined || b === undefined) throw new ExprError(gnu ? 'non-integer argument' : 'non-numeric argument');
    if ((op === '/' || op === '%') && b === 0n) throw new ExprError('division by zero');
    // C's / and % truncate toward zero, as BigInt's do
    return { int: wrap(op === '+' ? a + b : op === '-' ? a - b : op === '*' ? a * b : op === '/' ? a / b : a % b) };
  };
  const mulExpr = (): Value => {
    let l = colonExpr();
    for (let op = peek(); op === '*' || op === '/' || op === '%'; op = peek()) {
      i++;
      l = arith(l, colonExpr(), op);
    }
    return l;
  };
  const addExpr = (): Value => {
    let l = mulExpr();
    for (let op = peek(); op === '+' || op === '-'; op = peek()) {
      i++;
      l = arith(l, mulExpr(), op);
    }
    return l;
  };
  const CMP = new Set(['<', '<=', '=', '==', '!=', '>=', '>']);
  const cmpExpr = (): Value => {
    let l = addExpr();
    for (let op = peek(); op !== undefined && CMP.has(op); op = peek()) {
      i++;
      const r = addExpr();
      const a = toInt(l, gnu);
      const b = toInt(r, gnu);
      let c: number;
      if (a !== undefined && b !== undefined) c = a < b ? -1 : a > b ? 1 : 0;
      else {
        const x = str(l);
        const y = str(r);
        c = x < y ? -1 : x > y ? 1 : 0;
      }
      const ok = op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '=' || op === '==' ? c === 0 : op === '!=' ? c !== 0 : op === '>' ? c > 0 : c >= 0;
      l = { int: ok ? 1n : 0n };
    }
    return l;
  };
  const andExpr = (): Value => {
    let l = cmpExpr();
    while (peek() === '&') {
      i++;
      const r = cmpExpr();
      if (isNull(l, gnu) || isNull(r, gnu)) l = { int: 0n };
    }
    return l;
  };
  const orExpr = (): Value => {
    let l = andExpr();
    while (peek() === '|') {
      i++;
      const r = andExpr();
      if (isNull(l, gnu)) l = isNull(r, gnu) && gnu ? { int: 0n } : r;
    }
    return l;
  };
  const value = orExpr();
  if (i < args.length) throw new ExprError(gnu ? `syntax error: unexpected argument ‘${args[i]}’` : 'syntax error');
  return value;
}

export const expr: CommandFn = (ctx): CommandResult => {
  const bb = isBusybox(ctx);
  let args = ctx.argv.slice(1);
  if (bb) {
    if (args[0] === '--help') return busyboxUsageError('expr', 0);
    if (args.length === 0) return { stdout: '', stderr: 'expr: too few arguments\n', exitCode: 2 };
  } else {
    if (args[0] === '--') args = args.slice(1);
    if (args.length === 0) return { stdout: '', stderr: "expr: missing operand\nTry 'expr --help' for more information.\n", exitCode: 2 };
  }
  try {
    const value = evaluate(args, !bb);
    return { stdout: `${str(value)}\n`, stderr: '', exitCode: isNull(value, !bb) ? 1 : 0 };
  } catch (e) {
    if (e instanceof ExprError) return { stdout: '', stderr: `expr: ${e.message}\n`, exitCode: 2 };
    throw e;
  }
};
