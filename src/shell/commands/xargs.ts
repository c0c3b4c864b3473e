/**
 * xargs — GNU findutils xargs: split stdin into arguments (blanks and newlines, with '…', "…"
 * and backslash quoting), append them to the command (default echo); -n N per invocation, -I R
 * one invocation per input line with R replaced, -r no run on empty input, -t trace, -d DELIM, -0.
 * In the busybox image it is busybox 1.36.1's applet (findutils/xargs.c): the same splitting and
 * statuses, its getopt32 options and usage, and `unmatched single quote` without GNU's advice.
 */
import type { CommandFn } from '../types.js';
import { shellExtras, type ShellResult } from './types.js';
import { getopt, has, Out, value } from './util.js';
import { busyboxOpts, isBusybox } from './busybox.js';

/** Split xargs input; returns undefined with GNU's message on an unmatched quote. */
function splitArgs(input: string, bb = false): string[] | { error: string } {
  const args: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (c === "'" || c === '"') {
      const end = input.indexOf(c, i + 1);
      const nl = input.indexOf('\n', i + 1);
      if (end < 0 || (nl >= 0 && nl < end)) {
        const which = c === "'" ? 'single' : 'double';
        return { error: bb ? `xargs: unmatched ${which} quote` : `xargs: unmatched ${which} quote; by default quotes are special to xargs unless you use the -0 option` };
      }
      cur += input.slice(i + 1, end);
      inWord = true;
      i = end;
      continue;
    }
    if (c === '\\' && i + 1 < input.length) {
      cur += input[++i];
      inWord = true;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) args.push(cur);
      cur = '';
      inWord = false;
      continue;
    }
    cur += c;
    inWord = true;
  }
  if (inWord) args.push(cur);
  return args;
}

/** busybox xargs' getopt32 string (findutils/xargs.c OPTION_STR with its default features). */
const BB_SPEC = { short: '0a:ortpE:e:I:n:s:P:x', stopAtOperand: true };

export const xargs: CommandFn = async (ctx) => {
  const bb = isBusybox(ctx);
  if (bb) {
    const b = busyboxOpts('xargs', ctx.argv.slice(1), BB_SPEC);
    if (!b.ok) return b.result;
  }
  const p = getopt('xargs', ctx.argv.slice(1), bb ? BB_SPEC : {
    short: 'n:I:i:rtd:0L:P:',
    long: { 'max-args': { key: 'n', arg: true }, 'no-run-if-empty': { key: 'r', arg: false }, verbose: { key: 't', arg: false }, delimiter: { key: 'd', arg: true }, null: { key: '0', arg: false }, replace: { key: 'I', arg: true } },
    stopAtOperand: true,
  });
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nUsage: xargs [OPTION]... COMMAND [INITIAL-ARGS]...\nTry 'xargs --help' for more information.\n`, exitCode: 1 };
  const o = p.opts;
  const exec = shellExtras(ctx).exec;
  if (!exec) return { stdout: '', stderr: 'xargs: cannot run commands here\n', exitCode: 126 };
  const cmd = o.operands.length > 0 ? o.operands : ['echo'];
  const replace = value(o, 'I') ?? value(o, 'i');
  let items: string[];
  if (replace !== undefined) items = ctx.stdin.split('\n').map((l) => l.replace(/^[ \t]+/, '')).filter((l) => l !== '');
  else if (has(o, '0')) items = ctx.stdin.split('\0').filter((s, i, a) => !(i === a.length - 1 && s === ''));
  else if (value(o, 'd') !== undefined) {
    const d = value(o, 'd')!.replace(/^\\n$/, '\n').replace(/^\\t$/, '\t');
    items = ctx.stdin.split(d);
    if (items[items.length - 1] === '' || items[items.length - 1] === '\n') items.pop();
  } else {
    const r = splitArgs(ctx.stdin, bb);
    if (!Array.isArray(r)) return { stdout: '', stderr: `${r.error}\n`, exitCode: 1 };
    items = r;
  }
  const nRaw = value(o, 'n') ?? value(o, 'L');
  const n = nRaw === undefined ? Infinity : Number(nRaw);
  if (nRaw !== undefined && (!Number.isInteger(n) || n < 1)) return { stdout: '', stderr: `xargs: value ${nRaw} for -n option should be >= 1\n`, exitCode: 1 };
  const batches: string[][] = [];
  if (replace !== undefined) for (const it of items) batches.push(cmd.map((a) => a.split(replace).join(it)));
  else if (items.length === 0) {
    if (!has(o, 'r')) batches.push([...cmd]);
  } else for (let i = 0; i < items.length; i += n === Infinity ? items.length : n) batches.push([...cmd, ...items.slice(i, i + (n === Infinity ? items.length : n))]);
  // -t's trace goes to stderr before the command runs, so it comes before the command's output
  const out = new Out();
  let status = 0;
  const done = (code: number): ShellResult => ({ ...out.result(), exitCode: code });
  for (const argv of batches) {
    if (has(o, 't')) out.err(`${argv.join(' ')}`, 0);
    const r: ShellResult = await exec(argv, '');
    if (r.notFound) {
      out.err(`xargs: ${argv[0]}: No such file or directory`);
      return done(127);
    }
    out.out(r.stdout);
    if (r.stderr) out.err(r.stderr, 0);
    if (r.exitCode === 127) return done(127);
    if (r.exitCode === 255) {
      out.err(`xargs: ${argv[0]}: exited with status 255; aborting`);
      return done(124);
    }
    if (r.exitCode !== 0) status = 123;
  }
  return done(status);
};
