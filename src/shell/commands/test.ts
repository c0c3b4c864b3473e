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
