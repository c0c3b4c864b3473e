/**
 * test / [ — bash's builtin (bash/test.c) with POSIX's argument-count rules: 0 args false, 1 arg
 * non-empty, `!` negation, unary file and string tests (-e -f -d -s -r -w -x -z -n), binary
 * string (= == != < >) and integer (-eq -ne -lt -le -gt -ge) comparisons, -a/-o, parentheses.
 * Errors use bash's wording, exit 2.
 */
import { resolvePath } from '../../sim/node/vfs.js';
import type { CommandContext, CommandFn } from '../types.js';

class TestError extends Error {}

const UNARY = new Set(['-e', '-f', '-d', '-s', '-r', '-w', '-x', '-z', '-n', '-L', '-h', '-b', '-c', '-p', '-S', '-t', '-g', '-u', '-k', '-O', '-G', '-N', '-a']);
const BINARY = new Set(['=', '==', '!=', '<', '>', '-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-nt', '-ot', '-ef']);

function int(s: string): number {
  if (!/^[ \t]*[-+]?\d+[ \t]*$/.test(s)) throw new TestError(`${s}: integer expression expected`);
  return Number(s.trim());
}

export function unary(op: string, a: string, ctx: Pick<CommandContext, 'cwd' | 'fs'>): boolean {
  const path = resolvePath(ctx.cwd, a);
  const fs = ctx.fs;
  switch (op) {
    case '-z':
      return a === '';
    case '-n':
      return a !== '';
    case '-e':
    case '-a':
      return a !== '' && fs.exists(path);
    case '-f':
      return a !== '' && fs.isFile(path);
    case '-d':
      return a !== '' && fs.isDir(path);
    case '-s':
      return fs.isFile(path) ? fs.read(path).length > 0 : fs.isDir(path);
    case '-r':
    case '-w':
      return a !== '' && fs.exists(path);
    case '-x':
      return fs.isDir(path) || ((fs.stat(path)?.mode ?? 0) & 0o111) !== 0;
    default:
      return false;
  }
}

function binary(a: string, op: string, b: string): boolean {
  switch (op) {
    case '=':
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '>':
      return a > b;
    case '-eq':
      return int(a) === int(b);
    case '-ne':
      return int(a) !== int(b);
    case '-lt':
      return int(a) < int(b);
    case '-le':
      return int(a) <= int(b);
    case '-gt':
      return int(a) > int(b);
    case '-ge':
      return int(a) >= int(b);
    default:
      return false;
  }
}

/** Recursive-descent over `expr := and (-o and)*`, `and := not (-a not)*`, `not := ! not | primary`. */
class Evaluator {
  i = 0;
  constructor(
    private readonly args: string[],
    private readonly ctx: CommandContext,
  ) {}

  run(): boolean {
    const n = this.args.length;
    // POSIX fixed-count rules first (they make `[ -n ]`, `[ ! -z ]` etc. behave).
    if (n === 0) return false;
    if (n === 1) return this.args[0] !== '';
    if (n === 2) {
      const [a, b] = this.args as [string, string];
      if (a === '!') return b === '';
      if (UNARY.has(a)) return unary(a, b, this.ctx);
      throw new TestError(`${a}: unary operator expected`);
    }
    if (n === 3) {
      const [a, op, b] = this.args as [string, string, string];
      if (BINARY.has(op)) return binary(a, op, b);
      if (a === '!') return !new Evaluator([op, b], this.ctx).run();
      if (a === '(' && b === ')') return op !== '';
      if (op === '-a' || op === '-o') {
        return op === '-a' ? a !== '' && b !== '' : a !== '' || b !== '';
      }
      throw new TestError(`${op}: binary operator expected`);
    }
    if (n === 4 && this.args[0] === '!') return !new Evaluator(this.args.slice(1), this.ctx).run();
    const v = this.or();
    if (this.i < this.args.length) throw new TestError('too many arguments');
    return v;
  }

  private or(): boolean {
    let v = this.and();
    while (this.args[this.i] === '-o') {
      this.i++;
      const r = this.and();
      v = v || r;
    }
    return v;
  }

  private and(): boolean {
    let v = this.not();
    while (this.args[this.i] === '-a') {
      this.i++;
      const r = this.not();
      v = v && r;
    }
    return v;
  }

  private not(): boolean {
    if (this.args[this.i] === '!') {
      this.i++;
      return !this.not();
    }
    return this.primary();
  }

  private primary(): boolean {
    const a = this.args[this.i];
    if (a === undefined) throw new TestError('argument expected');
    if (a === '(') {
      this.i++;
      const v = this.or();
      if (this.args[this.i] !== ')') throw new TestError("`)' expected");
      this.i++;
      return v;
    }
    const op = this.args[this.i + 1];
    if (op !== undefined && BINARY.has(op) && this.args[this.i + 2] !== undefined) {
      this.i += 3;
      return binary(a, op, this.args[this.i - 1]!);
    }
    if (UNARY.has(a) && this.args[this.i + 1] !== undefined) {
      this.i += 2;
      return unary(a, this.args[this.i - 1]!, this.ctx);
    }
    this.i++;
    return a !== '';
  }
}

export function makeTest(name: 'test' | '['): CommandFn {
  return (ctx) => {
    let args = ctx.argv.slice(1);
    if (name === '[') {
      if (args[args.length - 1] !== ']') return { stdout: '', stderr: "bash: [: missing `]'\n", exitCode: 2 };
      args = args.slice(0, -1);
    }
    try {
      return { stdout: '', stderr: '', exitCode: new Evaluator(args, ctx).run() ? 0 : 1 };
    } catch (e) {
      if (e instanceof TestError) return { stdout: '', stderr: `bash: ${name}: ${e.message}\n`, exitCode: 2 };
      throw e;
    }
  };
}

export const test = makeTest('test');
export const bracket = makeTest('[');

/** dash 0.5.12's test operators (bltin/test.c ops[]): no `==`, which is an operand there. */
const DASH_UNARY = new Set(['-r', '-w', '-x', '-e', '-f', '-d', '-c', '-b', '-p', '-u', '-g', '-k', '-s', '-t', '-z', '-n', '-h', '-O', '-G', '-L', '-S']);
const DASH_BINARY = new Set(['=', '!=', '<', '>', '-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-nt', '-ot', '-ef']);
const DASH_OTHER = new Set(['!', '-a', '-o', '(', ')']);

/** dash's getn (bltin/test.c via atomax10): a decimal, else `Illegal number: S`. */
function dashInt(s: string): number {
  if (!/^[ \t\n]*[-+]?\d+$/.test(s)) throw new TestError(`Illegal number: ${s}`);
  return Number(s.trim());
}

/**
 * dash's test / [ (bltin/test.c, dash 0.5.12), a port of its algorithm: POSIX's three- and
 * four-argument rules, then oexpr/aexpr/nexpr/primary over t_lex, which takes a unary operator
 * for an operand when a binary operator follows it; whatever is left after the expression is
 * `X: unexpected operator` (so `[ a == a ]` fails with status 2, dash having no `==`). Errors are
 * the message only; the caller puts dash's `sh: N: [: ` before them.
 */
export function dashTest(name: string, argv: readonly string[], ctx: Pick<CommandContext, 'cwd' | 'fs'>): { error?: string; status: number } {
  let args = [...argv];
  if (name === '[') {
    if (args[args.length - 1] !== ']') return { error: 'missing ]', status: 2 };
    args = args.slice(0, -1);
  }
  try {
    return { status: dashEval(args, ctx) ? 0 : 1 };
  } catch (e) {
    if (e instanceof TestError) return { error: e.message, status: 2 };
    throw e;
  }
}

type DashTok = 'EOI' | 'OPERAND' | 'UNOP' | 'BINOP' | '!' | '-a' | '-o' | '(' | ')';

function dashEval(argv: string[], ctx: Pick<CommandContext, 'cwd' | 'fs'>): boolean {
  let res = true;
  let a = argv;
  for (;;) {
    if (a.length < 1) return false;
    if (a.length === 3 && DASH_BINARY.has(a[1]!)) return dashBinop(a[0]!, a[1]!, a[2]!) === res;
    if (a.length === 3 || a.length === 4) {
      if (a[0] === '(' && a[a.length - 1] === ')') a = a.slice(1, -1);
      else if (a[0] === '!') {
        res = !res;
        a = a.slice(1);
        continue;
      }
    }
    break;
  }
  const w = a;
  let p = 0;
  const lex = (i: number): DashTok => {
    const s = w[i];
    if (s === undefined) return 'EOI';
    if (DASH_UNARY.has(s)) {
      // isoperand: a unary operator with nothing after it, or before a binary one, is an operand
      const next = w[i + 1];
      if (next === undefined) return 'OPERAND';
      if (w[i + 2] !== undefined && DASH_BINARY.has(next)) return 'OPERAND';
      return 'UNOP';
    }
    if (DASH_BINARY.has(s)) return 'BINOP';
    if (DASH_OTHER.has(s) && !(s === '(' && w[i + 1] === undefined)) return s as DashTok;
    return 'OPERAND';
  };
  const primary = (n: DashTok): boolean => {
    if (n === 'EOI') return false;
    if (n === '(') {
      const nn = lex(++p);
      if (nn === ')') return false;
      const r = oexpr(nn);
      if (lex(++p) !== ')') throw new TestError('closing paren expected');
      return r;
    }
    if (n === 'UNOP') {
      const op = w[p]!;
      const arg = w[++p];
      if (arg === undefined) throw new TestError(`${op}: argument expected`);
      if (op === '-z') return arg === '';
      if (op === '-n') return arg !== '';
      if (op === '-t') {
        dashInt(arg);
        return false;
      }
      return unary(op, arg, ctx);
    }
    if (lex(p + 1) === 'BINOP') {
      const a1 = w[p]!;
      const op = w[++p]!;
      const a2 = w[++p];
      if (a2 === undefined) throw new TestError(`${op}: argument expected`);
      return dashBinop(a1, op, a2);
    }
    return (w[p] ?? '') !== '';
  };
  const nexpr = (n: DashTok): boolean => (n === '!' ? !nexpr(lex(++p)) : primary(n));
  const aexpr = (n: DashTok): boolean => {
    let r = true;
    for (;;) {
      if (!nexpr(n)) r = false;
      if (lex(p + 1) !== '-a') return r;
      p += 2;
      n = lex(p);
    }
  };
  const oexpr = (n: DashTok): boolean => {
    let r = false;
    for (;;) {
      if (aexpr(n)) r = true;
      if (lex(p + 1) !== '-o') return r;
      p += 2;
      n = lex(p);
    }
  };
  const v = oexpr(lex(0));
  if (w[p] !== undefined && w[p + 1] !== undefined) throw new TestError(`${w[p]}: unexpected operator`);
  return res ? v : !v;
}

function dashBinop(a: string, op: string, b: string): boolean {
  if (op.startsWith('-') && op !== '-nt' && op !== '-ot' && op !== '-ef') {
    const x = dashInt(a);
    const y = dashInt(b);
    return op === '-eq' ? x === y : op === '-ne' ? x !== y : op === '-lt' ? x < y : op === '-le' ? x <= y : op === '-gt' ? x > y : x >= y;
  }
  return binary(a, op, b);
}
