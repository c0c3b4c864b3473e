/** tee — GNU coreutils src/tee.c: copy stdin to stdout and to each FILE (-a appends). */
import { resolvePath } from '../../sim/node/vfs.js';
import type { CommandFn } from '../types.js';
import { createProblem } from './fsutil.js';
import { getopt, has, Out } from './util.js';

export const tee: CommandFn = (ctx) => {
  const p = getopt('tee', ctx.argv.slice(1), { short: 'ai', long: { append: { key: 'a', arg: false } } });
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'tee --help' for more information.\n`, exitCode: 1 };
  const out = new Out();
  // the terminal's streams by name: the copy goes to them after stdout's, in operand order (tee.c
  // tee_files writes each buffer to stdout, then to every file; `echo x | tee /dev/stderr` prints x twice)
  const streams: Array<'stdout' | 'stderr'> = [];
  // tee opens every file before copying, so open errors come first.
  for (const f of p.opts.operands) {
    if (f === '-') continue;
    const path = resolvePath(ctx.cwd, f);
    if (path === '/dev/null') continue;
    if (path === '/dev/stdout' || path === '/dev/fd/1' || path === '/proc/self/fd/1' || path === '/dev/stderr' || path === '/dev/fd/2' || path === '/proc/self/fd/2') {
      streams.push(path.endsWith('out') || path.endsWith('1') ? 'stdout' : 'stderr');
      continue;
    }
    const problem = ctx.fs.isDir(path) ? 'Is a directory' : createProblem(ctx.fs, path);
    if (problem) {
      out.err(`tee: ${f}: ${problem}`);
      continue;
    }
    if (has(p.opts, 'a')) ctx.fs.append(path, ctx.stdin);
    else ctx.fs.write(path, ctx.stdin);
  }
  out.out(ctx.stdin);
  for (const s of streams) {
    if (s === 'stdout') out.out(ctx.stdin);
    else out.errData(ctx.stdin);
  }
  return out.result();
};
