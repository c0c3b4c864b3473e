/**
 * ln (GNU coreutils src/ln.c): `ln -s TARGET LINK` makes a symbolic link in the Vfs (into a
 * directory operand under the target's name), `-f` replaces an existing one, `-n`/`-T` are
 * accepted. The Vfs has no inodes, so a hard link (`ln` without -s) is made as a copy of the
 * file's content at that moment.
 */
import { resolvePath } from '../../sim/node/vfs.js';
import type { CommandFn } from '../types.js';
import { getopt, has, Out, usageError } from './util.js';

export const ln: CommandFn = (ctx) => {
  const p = getopt('ln', ctx.argv.slice(1), { short: 'sfnTv', long: { symbolic: { key: 's', arg: false }, force: { key: 'f', arg: false }, 'no-dereference': { key: 'n', arg: false } } });
  if (!p.ok) return usageError('ln', p.error, '');
  const ops = p.opts.operands;
  if (ops.length === 0) return usageError('ln', 'ln: missing file operand', '');
  const out = new Out();
  const fs = ctx.fs;
  const target = ops[0]!;
  const base = target.replace(/\/+$/, '').split('/').pop() ?? target;
  let link = ops[1] ?? base;
  if (fs.isDir(resolvePath(ctx.cwd, link)) && !has(p.opts, 'n')) link = `${link.replace(/\/+$/, '')}/${base}`;
  const abs = resolvePath(ctx.cwd, link);
  const symbolic = has(p.opts, 's');
  if (fs.exists(abs) || fs.isLink(abs)) {
    if (!has(p.opts, 'f')) {
      out.err(`ln: failed to create ${symbolic ? 'symbolic' : 'hard'} link '${link}': File exists`);
      return out.result();
    }
    fs.remove(abs);
  }
  if (symbolic) {
    fs.symlink(target, abs);
    return out.result();
  }
  const src = resolvePath(ctx.cwd, target);
  if (!fs.isFile(src)) {
    out.err(fs.isDir(src) ? `ln: ${target}: hard link not allowed for directory` : `ln: failed to access '${target}': No such file or directory`);
    return out.result();
  }
  fs.write(abs, fs.read(src), fs.stat(src)?.mode);
  return out.result();
};
