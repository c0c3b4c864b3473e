/**
 * xargs — GNU findutils xargs: split stdin into arguments (blanks and newlines, with '…', "…"
 * and backslash quoting), append them to the command (default echo); -n N per invocation, -I R
 * one invocation per input line with R replaced, -r no run on empty input, -t trace, -d DELIM, -0.
 */
import type { CommandFn } from '../types.js';
import { shellExtras, type ShellResult } from './types.js';
import { getopt, has, value } from './util.js';

/** Split xargs input; returns undefined with GNU's message on an unmatched quote. */
function splitArgs(input: string): string[] | { error: string } {
  const args: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (c === "'" || c === '"') {
      const end = input.indexOf(c, i + 1);
      const nl = input.indexOf('\n', i + 1);
      if (end < 0 || (nl >= 0 && nl < end)) {
        return { error: `xargs: unmatched ${c === "'" ? 'single' : 'double'} quote; by default quotes are special to xargs unless you use the -0 option` };
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

export const xargs: CommandFn = async (ctx) => {
  const p = getopt('xargs', ctx.argv.slice(1), {
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
    const r = splitArgs(ctx.stdin);
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
  let stdout = '';
  let stderr = '';
  let status = 0;
  for (const argv of batches) {
    if (has(o, 't')) stderr += `${argv.join(' ')}\n`;
    const r: ShellResult = await exec(argv, '');
    if (r.notFound) return { stdout, stderr: `${stderr}xargs: ${argv[0]}: No such file or directory\n`, exitCode: 127 };
    stdout += r.stdout;
    stderr += r.stderr;
    if (r.exitCode === 127) return { stdout, stderr, exitCode: 127 };
    if (r.exitCode === 255) return { stdout, stderr: `${stderr}xargs: ${argv[0]}: exited with status 255; aborting\n`, exitCode: 124 };
    if (r.exitCode !== 0) status = 123;
  }
  return { stdout, stderr, exitCode: status };
};
