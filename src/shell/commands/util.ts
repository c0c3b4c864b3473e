/**
 * Shared plumbing for the text commands: GNU getopt_long-style argument parsing (bundled short
 * flags, attached or separate values, long options with `=`, `--`, options after operands) with
 * glibc's error wording, and file reading with coreutils' error messages.
 */
import { RANDOM_DEVICES, RANDOM_READ, randomBytes } from './devices.js';
import { resolvePath, VfsError } from '../../sim/node/vfs.js';
import type { CommandContext, CommandResult } from '../types.js';
import type { ShellResult } from './types.js';

export interface OptSpec {
  /** getopt string: a letter, followed by `:` when it takes a value. */
  short: string;
  /** Long option name → the short letter (or a key) it stands for, and whether it takes a value. */
  long?: Record<string, { key: string; arg: boolean }>;
  /** Stop at the first operand (POSIX mode; e.g. xargs, env). */
  stopAtOperand?: boolean;
}

export interface ParsedOpts {
  /** Options in the order given: [key, value]. */
  list: Array<[string, string]>;
  operands: string[];
}

export type OptResult = { ok: true; opts: ParsedOpts } | { ok: false; error: string };

/** Parse argv (without argv[0]). Errors are glibc getopt's text for `cmd`. */
export function getopt(cmd: string, args: string[], spec: OptSpec): OptResult {
  const list: Array<[string, string]> = [];
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--') && spec.long) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      const matches = Object.keys(spec.long).filter((k) => k.startsWith(name));
      const exact = spec.long[name] ? name : matches.length === 1 ? matches[0] : undefined;
      if (exact === undefined) {
        if (matches.length > 1) return { ok: false, error: `${cmd}: option '${a}' is ambiguous` };
        return { ok: false, error: `${cmd}: unrecognized option '${a}'` };
      }
      const def = spec.long[exact]!;
      if (def.arg) {
        if (eq >= 0) list.push([def.key, a.slice(eq + 1)]);
        else if (i + 1 < args.length) list.push([def.key, args[++i]!]);
        else return { ok: false, error: `${cmd}: option '--${exact}' requires an argument` };
      } else {
        if (eq >= 0) return { ok: false, error: `${cmd}: option '--${exact}' doesn't allow an argument` };
        list.push([def.key, '']);
      }
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        const idx = spec.short.indexOf(c);
        if (idx < 0 || c === ':') return { ok: false, error: `${cmd}: invalid option -- '${c}'` };
        if (spec.short[idx + 1] === ':') {
          const rest = a.slice(j + 1);
          if (rest !== '') list.push([c, rest]);
          else if (i + 1 < args.length) list.push([c, args[++i]!]);
          else return { ok: false, error: `${cmd}: option requires an argument -- '${c}'` };
          break;
        }
        list.push([c, '']);
      }
      continue;
    }
    if (spec.stopAtOperand) {
      operands.push(...args.slice(i));
      break;
    }
    operands.push(a);
  }
  return { ok: true, opts: { list, operands } };
}

export function has(o: ParsedOpts, key: string): boolean {
  return o.list.some(([k]) => k === key);
}

/** Last value given for an option (getopt semantics: the last one wins). */
export function value(o: ParsedOpts, key: string): string | undefined {
  let v: string | undefined;
  for (const [k, val] of o.list) if (k === key) v = val;
  return v;
}

export function values(o: ParsedOpts, key: string): string[] {
  return o.list.filter(([k]) => k === key).map(([, v]) => v);
}

/** The two-line usage tail coreutils prints after an option error. */
export function usageError(cmd: string, message: string, usage: string, code = 1): CommandResult {
  return { stdout: '', stderr: `${message}\n${usage ? `${usage}\n` : ''}Try '${cmd} --help' for more information.\n`, exitCode: code };
}

export function errnoText(e: unknown): string {
  if (e instanceof VfsError) {
    switch (e.code) {
      case 'ENOENT':
        return 'No such file or directory';
      case 'EISDIR':
        return 'Is a directory';
      case 'ENOTDIR':
        return 'Not a directory';
      case 'EEXIST':
        return 'File exists';
      case 'ENOTEMPTY':
        return 'Directory not empty';
    }
  }
  return e instanceof Error ? e.message : String(e);
}

/** One draw of the cluster's seeded random source (a fixed seed off a cluster), for a device read. */
export function seedOf(ctx: CommandContext): number {
  return ctx.cluster ? ctx.cluster.random.nextU32() : 0x5eed;
}

export type ReadResult = { ok: true; text: string } | { ok: false; error: string };

/** Read an operand: `-` is stdin; otherwise a file relative to cwd. Error is `<errno text>`. */
export function readInput(ctx: CommandContext, name: string): ReadResult {
  if (name === '-') return { ok: true, text: ctx.stdin };
  const path = resolvePath(ctx.cwd, name);
  // the process's own standard input by name: /dev/stdin links to /proc/self/fd/0 (udev's
  // 50-udev-default rules; bash's own redirections do the same, interpreter.ts)
  if (STDIN_PATHS.has(path)) return { ok: true, text: ctx.stdin };
  // the random devices give bytes from the seeded source (devices.ts), /dev/zero NULs, a bounded
  // read each (a real reader would read on until killed)
  if (RANDOM_DEVICES.has(path) && ctx.fs.stat(path)?.rdev) return { ok: true, text: randomBytes(seedOf(ctx), RANDOM_READ) };
  if (path === '/dev/zero' && ctx.fs.stat(path)?.rdev) return { ok: true, text: '\0'.repeat(RANDOM_READ) };
  if (ctx.fs.isFile(path)) return { ok: true, text: ctx.fs.read(path) };
  if (ctx.fs.isDir(path)) return { ok: false, error: 'Is a directory' };
  return { ok: false, error: parentIsFile(ctx, path) ? 'Not a directory' : 'No such file or directory' };
}

function parentIsFile(ctx: CommandContext, path: string): boolean {
  let cur = path.slice(0, path.lastIndexOf('/')) || '/';
  while (cur !== '/') {
    if (ctx.fs.isFile(cur)) return true;
    cur = cur.slice(0, cur.lastIndexOf('/')) || '/';
  }
  return false;
}

/** Split text into lines without their newlines; a final line without `\n` is kept. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Join lines back with a newline after each. */
export function joinLines(lines: string[]): string {
  return lines.map((l) => `${l}\n`).join('');
}

/** Output in the order a command wrote it (ShellResult.chunks). */
export type Chunk = { stream: 'stdout' | 'stderr'; text: string };

/** A result from output chunks in the order they were written: the terminal shows them so. */
export function orderedResult(chunks: readonly Chunk[], exitCode = 0): ShellResult {
  const kept = chunks.filter((c) => c.text !== '');
  const join = (s: Chunk['stream']): string => kept.filter((c) => c.stream === s).map((c) => c.text).join('');
  return { stdout: join('stdout'), stderr: join('stderr'), exitCode, chunks: kept };
}

/** Result builder that accumulates stdout/stderr and a sticky exit status. */
/** The paths that name the reading process's standard input (`cat /dev/stdin`, `grep x /proc/self/fd/0`). */
export const STDIN_PATHS: ReadonlySet<string> = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

export class Out {
  stdout = '';
  stderr = '';
  exitCode = 0;
  private chunks: Array<{ stream: 'stdout' | 'stderr'; text: string }> = [];
  out(s: string): void {
    if (s === '') return;
    this.stdout += s;
    this.chunks.push({ stream: 'stdout', text: s });
  }
  /** Bytes the command writes to stderr as data (`tee /dev/stderr`), not an error: no status change. */
  errData(s: string): void {
    if (s === '') return;
    this.stderr += s;
    this.chunks.push({ stream: 'stderr', text: s });
  }
  err(s: string, code = 1): void {
    const t = s.endsWith('\n') ? s : `${s}\n`;
    this.stderr += t;
    this.chunks.push({ stream: 'stderr', text: t });
    if (this.exitCode === 0 || code > this.exitCode) this.exitCode = code;
  }
  result(): CommandResult & { chunks: Array<{ stream: 'stdout' | 'stderr'; text: string }> } {
    return { stdout: this.stdout, stderr: this.stderr, exitCode: this.exitCode, chunks: this.chunks };
  }
}

/** Parse a non-negative decimal count the way coreutils' xstrtoumax does (no sign, no junk). */
export function parseCount(s: string): number | undefined {
  return /^\d+$/.test(s) ? Number(s) : undefined;
}
