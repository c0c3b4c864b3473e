/** tee — GNU coreutils src/tee.c: copy stdin to stdout and to each FILE (-a appends). */
import { resolvePath } from '../../sim/node/vfs.js';
import type { CommandFn } from '../types.js';
import { createProblem } from './fsutil.js';
import { getopt, has, Out } from './util.js';

export const tee: CommandFn = (ctx) => {
  const p = getopt('tee', ctx.argv.slice(1), { short: 'ai', long: { append: { key: 'a', arg: false } } });
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'tee --help' for more information.\n`, exitCode: 1 };
  const out = new Out();
  // tee opens every file before copying, so open errors come first.
  for (const f of p.opts.operands) {
    if (f === '-') continue;
    const path = resolvePath(ctx.cwd, f);
    if (path === '/dev/null') continue;
    const problem = ctx.fs.isDir(path) ? 'Is a directory' : createProblem(ctx.fs, path);
    if (problem) {
      out.err(`tee: ${f}: ${problem}`);
      continue;
    }
    if (has(p.opts, 'a')) ctx.fs.append(path, ctx.stdin);
    else ctx.fs.write(path, ctx.stdin);
  }
  out.out(ctx.stdin);
  return out.result();
};
