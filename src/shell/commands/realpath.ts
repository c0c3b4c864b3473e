/**
 * realpath and readlink — GNU coreutils src/realpath.c and src/readlink.c over gnulib
 * canonicalize: symbolic links followed through the Vfs, `.`/`..` folded. realpath (and
 * readlink -f) need every component but the last to exist, -e all of them, -m none; plain
 * readlink prints a link's target and fails silently on anything else.
 */
import { resolvePath } from '../../sim/node/vfs.js';
import type { CommandContext, CommandFn } from '../types.js';
import { getopt, has, Out, usageError } from './util.js';

type Mode = 'e' | 'f' | 'm';

/** The canonical path, or the errno text when `mode` requires components that are missing. */
function canonical(ctx: CommandContext, name: string, mode: Mode): string | { error: string } {
  const fs = ctx.fs;
  const abs = fs.follow(resolvePath(ctx.cwd, name));
  if (mode === 'm') return abs;
  const parent = abs.slice(0, abs.lastIndexOf('/')) || '/';
  if (fs.isFile(parent)) return { error: 'Not a directory' };
  if (!fs.isDir(parent)) return { error: 'No such file or directory' };
  if (mode === 'e' && !fs.exists(abs)) return { error: 'No such file or directory' };
  return abs;
}

export const realpath: CommandFn = (ctx) => {
  const p = getopt('realpath', ctx.argv.slice(1), { short: 'emqsz', long: { 'canonicalize-existing': { key: 'e', arg: false }, 'canonicalize-missing': { key: 'm', arg: false }, quiet: { key: 'q', arg: false }, zero: { key: 'z', arg: false } } });
  if (!p.ok) return usageError('realpath', p.error, '');
  if (p.opts.operands.length === 0) return usageError('realpath', 'realpath: missing operand', '');
  const mode: Mode = has(p.opts, 'e') ? 'e' : has(p.opts, 'm') ? 'm' : 'f';
  const end = has(p.opts, 'z') ? '\0' : '\n';
  const out = new Out();
  for (const n of p.opts.operands) {
    const r = canonical(ctx, n, mode);
    if (typeof r === 'string') out.out(`${r}${end}`);
    else if (has(p.opts, 'q')) out.exitCode = 1;
    else out.err(`realpath: ${n}: ${r.error}`);
  }
  return out.result();
};

export const readlink: CommandFn = (ctx) => {
  const p = getopt('readlink', ctx.argv.slice(1), { short: 'efmnqsvz', long: { canonicalize: { key: 'f', arg: false }, 'canonicalize-existing': { key: 'e', arg: false }, 'canonicalize-missing': { key: 'm', arg: false }, 'no-newline': { key: 'n', arg: false }, zero: { key: 'z', arg: false } } });
  if (!p.ok) return usageError('readlink', p.error, '');
  if (p.opts.operands.length === 0) return usageError('readlink', 'readlink: missing operand', '');
  const mode: Mode | undefined = has(p.opts, 'e') ? 'e' : has(p.opts, 'm') ? 'm' : has(p.opts, 'f') ? 'f' : undefined;
  const ops = p.opts.operands;
  const end = has(p.opts, 'z') ? '\0' : has(p.opts, 'n') && ops.length === 1 ? '' : '\n';
  const out = new Out();
  for (const n of ops) {
    const r = mode ? canonical(ctx, n, mode) : ctx.fs.readlink(resolvePath(ctx.cwd, n));
    if (typeof r === 'string') out.out(`${r}${end}`);
    else {
      out.exitCode = 1;
      if (has(p.opts, 'v')) out.err(`readlink: ${n}: ${r ? r.error : 'Invalid argument'}`);
    }
  }
  return out.result();
};
