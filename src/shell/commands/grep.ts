/**
 * grep — GNU grep 3.x (src/grep.c): BRE by default, -E/-F, -i -v -w -x -n -c -o -l -L -q -s -h -H,
 * -r, -A/-B/-C context with `--` between groups and `-` separators on context lines, `file:`
 * prefixes when more than one file is searched, exit 0 on a match, 1 on none, 2 on error.
 * In busybox containers busybox's findutils/grep.c options and usage (busybox.ts); a directory
 * operand without -r reads as empty there.
 */
import { resolvePath } from '../../sim/node/vfs.js';
import type { CommandContext, CommandFn, CommandResult } from '../types.js';
import { compileTranslated, posixToJs, RegexError } from '../../util/posix-regex.js';
import type { Meter } from '../../util/regex/index.js';
import { budgetOf } from './types.js';
import { busyboxOpts, busyboxUsageError, isBusybox } from './busybox.js';
import { getopt, has, Out, readInput, value, values, type OptSpec, type ParsedOpts } from './util.js';

const USAGE = "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n";

const SPEC: OptSpec = {
  short: 'EFGivwxnclLoqshHrRe:f:A:B:C:m:ZazUI',
  long: {
    'extended-regexp': { key: 'E', arg: false },
    'fixed-strings': { key: 'F', arg: false },
    'basic-regexp': { key: 'G', arg: false },
    'ignore-case': { key: 'i', arg: false },
    'invert-match': { key: 'v', arg: false },
    'word-regexp': { key: 'w', arg: false },
    'line-regexp': { key: 'x', arg: false },
    'line-number': { key: 'n', arg: false },
    count: { key: 'c', arg: false },
    'files-with-matches': { key: 'l', arg: false },
    'files-without-match': { key: 'L', arg: false },
    'only-matching': { key: 'o', arg: false },
    quiet: { key: 'q', arg: false },
    silent: { key: 'q', arg: false },
    'no-messages': { key: 's', arg: false },
    'no-filename': { key: 'h', arg: false },
    'with-filename': { key: 'H', arg: false },
    recursive: { key: 'r', arg: false },
    'dereference-recursive': { key: 'R', arg: false },
    regexp: { key: 'e', arg: true },
    file: { key: 'f', arg: true },
    'after-context': { key: 'A', arg: true },
    'before-context': { key: 'B', arg: true },
    context: { key: 'C', arg: true },
    color: { key: 'color', arg: true },
    colour: { key: 'color', arg: true },
    'max-count': { key: 'm', arg: true },
  },
};

interface Matcher {
  test(line: string): boolean;
  /** All non-empty matches in the line, for -o. */
  all(line: string): string[];
}

function buildMatcher(patterns: string[], o: { E: boolean; F: boolean; i: boolean; w: boolean; x: boolean }, egrep: boolean, meter?: Meter): Matcher {
  const srcs = patterns.map((p) => {
    if (o.F) return p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    return posixToJs(p, o.E || egrep ? 'ere' : 'bre');
  });
  let src = srcs.map((s) => `(?:${s})`).join('|');
  if (o.x) src = `^(?:${src})$`;
  else if (o.w) src = `(?<![A-Za-z0-9_])(?:${src})(?![A-Za-z0-9_])`;
  const re = compileTranslated(src, o.i ? 'i' : '', meter);
  const reG = compileTranslated(src, o.i ? 'gi' : 'g', meter);
  return {
    test: (line) => re.test(line),
    all: (line) => {
      const res: string[] = [];
      reG.lastIndex = 0;
      for (let m = reG.exec(line); m; m = reG.exec(line)) {
        if (m[0] === '') {
          reG.lastIndex++;
          continue;
        }
        res.push(m[0]);
      }
      return res;
    },
  };
}

function parseContext(v: string | undefined): number | undefined | 'bad' {
  if (v === undefined) return undefined;
  return /^\d+$/.test(v) ? Number(v) : 'bad';
}

export function makeGrep(name: 'grep' | 'egrep' | 'fgrep'): CommandFn {
  return (ctx) => runGrep(ctx, name);
}

function runGrep(ctx: CommandContext, name: 'grep' | 'egrep' | 'fgrep'): CommandResult {
  // GNU grep accepts -NUM as -C NUM.
  const args = ctx.argv.slice(1).map((a) => (/^-\d+$/.test(a) ? `-C${a.slice(1)}` : a));
  const bb = isBusybox(ctx);
  let o: ParsedOpts;
  if (bb) {
    // findutils/grep.c OPTSTR_GREP (defconfig: context on, EXTRA_COMPAT's -z off), exit 2 on usage
    const b = busyboxOpts(name, ctx.argv.slice(1).map((a) => (a.startsWith('--color=') ? '--color' : a)), { short: 'lnqvscFiHhe:f:LorRm:wxA:B:C:E', long: { color: { key: 'K', arg: false } } }, 2);
    if (!b.ok) return b.result;
    o = b.opts;
  } else {
    const p = getopt(name, args, SPEC);
    if (!p.ok) return { stdout: '', stderr: `${p.error}\n${USAGE}`, exitCode: 2 };
    o = p.opts;
  }
  const operands = [...o.operands];
  const patterns: string[] = [];
  for (const e of values(o, 'e')) patterns.push(...e.split('\n'));
  for (const f of values(o, 'f')) {
    const r = readInput(ctx, f);
    if (!r.ok) return { stdout: '', stderr: `${name}: ${f}: ${r.error}\n`, exitCode: 2 };
    patterns.push(...r.text.replace(/\n$/, '').split('\n'));
  }
  if (!has(o, 'e') && !has(o, 'f')) {
    const pat = operands.shift();
    if (pat === undefined) return bb ? busyboxUsageError(name, 2) : { stdout: '', stderr: USAGE, exitCode: 2 };
    patterns.push(...pat.split('\n'));
  }
  const ctxs = { A: parseContext(value(o, 'A')), B: parseContext(value(o, 'B')), C: parseContext(value(o, 'C')) };
  for (const [k, v] of Object.entries(ctxs)) {
    if (v === 'bad') return { stdout: '', stderr: `${name}: ${value(o, k)}: invalid context length argument\n`, exitCode: 2 };
  }
  const maxCount = value(o, 'm');
  const max = maxCount === undefined ? Infinity : Number(maxCount);
  const after = (ctxs.A ?? ctxs.C ?? 0) as number;
  const before = (ctxs.B ?? ctxs.C ?? 0) as number;
  let matcher: Matcher;
  try {
    matcher = buildMatcher(patterns, { E: has(o, 'E') || name === 'egrep', F: has(o, 'F') || name === 'fgrep', i: has(o, 'i'), w: has(o, 'w'), x: has(o, 'x') }, name === 'egrep', budgetOf(ctx).regexMeter());
  } catch (e) {
    return { stdout: '', stderr: `${name}: ${e instanceof RegexError ? e.message : 'Invalid regular expression'}\n`, exitCode: 2 };
  }
  const invert = has(o, 'v');
  const count = has(o, 'c');
  const listFiles = has(o, 'l');
  const listMissing = has(o, 'L');
  const only = has(o, 'o');
  const quiet = has(o, 'q');
  const noMsg = has(o, 's');
  const lineNo = has(o, 'n');
  const recursive = has(o, 'r') || has(o, 'R');

  // Expand operands into (label, text | error).
  const inputs: Array<{ label: string; text?: string; error?: string }> = [];
  const fs = ctx.fs;
  const addTree = (label: string, path: string): void => {
    for (const n of fs.list(path)) {
      const child = `${path === '/' ? '' : path}/${n}`;
      const childLabel = label === '' ? n : label.endsWith('/') ? `${label}${n}` : `${label}/${n}`;
      if (fs.isDir(child)) addTree(childLabel, child);
      else inputs.push({ label: childLabel, text: fs.read(child) });
    }
  };
  if (operands.length === 0) {
    if (recursive) addTree('', ctx.cwd);
    else inputs.push({ label: '(standard input)', text: ctx.stdin });
  }
  for (const op of operands) {
    if (op === '-') {
      inputs.push({ label: '(standard input)', text: ctx.stdin });
      continue;
    }
    const path = resolvePath(ctx.cwd, op);
    if (recursive && fs.isDir(path)) {
      addTree(op, path);
      continue;
    }
    const r = readInput(ctx, op);
    inputs.push(r.ok ? { label: op, text: r.text } : { label: op, error: r.error });
  }
  const withName = has(o, 'H') || (!has(o, 'h') && (operands.length > 1 || recursive));

  const out = new Out();
  let matchedAny = false;
  let hadError = false;
  let groupStarted = false;
  for (const input of inputs) {
    // busybox reads a directory operand without -r as an empty file: no message, no match
    if (input.text === undefined && bb && input.error === 'Is a directory') continue;
    if (input.text === undefined) {
      hadError = true;
      if (!noMsg) out.err(`${name}: ${input.label}: ${input.error}`, 2);
      continue;
    }
    const text = input.text;
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const prefix = (n: number, sep: string): string => `${withName ? `${input.label}${sep}` : ''}${lineNo ? `${n}${sep}` : ''}`;
    let matches = 0;
    let lastPrinted = -1;
    let afterLeft = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const hit = matcher.test(line) !== invert;
      if (hit && matches < max) {
        matches++;
        matchedAny = true;
        if (quiet) return { stdout: '', stderr: out.stderr, exitCode: 0 };
        if (count || listFiles || listMissing) continue;
        if (before > 0 || after > 0) {
          const from = Math.max(lastPrinted + 1, i - before);
          if (groupStarted && (from > lastPrinted + 1 || lastPrinted === -1)) out.out('--\n');
          for (let j = from; j < i; j++) out.out(`${prefix(j + 1, '-')}${lines[j]}\n`);
          groupStarted = true;
        }
        if (only) {
          if (!invert) for (const m of matcher.all(line)) out.out(`${prefix(i + 1, ':')}${m}\n`);
        } else out.out(`${prefix(i + 1, ':')}${line}\n`);
        lastPrinted = i;
        afterLeft = after;
        continue;
      }
      if (afterLeft > 0 && !count && !listFiles && !listMissing && matches <= max) {
        out.out(`${prefix(i + 1, '-')}${line}\n`);
        lastPrinted = i;
        afterLeft--;
      }
      if (matches >= max && afterLeft === 0) break;
    }
    if (count) out.out(`${withName ? `${input.label}:` : ''}${matches}\n`);
    if (listFiles && matches > 0) out.out(`${input.label}\n`);
    if (listMissing && matches === 0) out.out(`${input.label}\n`);
  }
  out.exitCode = hadError ? 2 : matchedAny ? 0 : 1;
  return out.result();
}

export const grep = makeGrep('grep');
export const egrep = makeGrep('egrep');
export const fgrep = makeGrep('fgrep');
