/** mkdir — GNU coreutils src/mkdir.c: -p creates parents and accepts existing directories. */
import { resolvePath } from '../../sim/node/vfs.js';
import type { CommandFn } from '../types.js';
import { asApplet, isBusybox } from './busybox.js';
import { createProblem } from './fsutil.js';
import { getopt, has, Out } from './util.js';

/**
 * busybox coreutils/mkdir.c: options -m MODE -p -v (--mode, --parents), the usage without an
 * operand, "can't create directory 'D': ERRNO".
 */
export const mkdir: CommandFn = (ctx) =>
  isBusybox(ctx)
    ? asApplet(ctx, gnuMkdir, {
        name: 'mkdir',
        spec: { short: 'm:pv', long: { mode: { key: 'm', arg: true }, parents: { key: 'p', arg: false } } },
        needsOperand: true,
        words: [[/^mkdir: cannot create directory \u2018(.*)\u2019: /, "mkdir: can't create directory '$1': "]],
      })
    : gnuMkdir(ctx);

const gnuMkdir: CommandFn = (ctx) => {
  const p = getopt('mkdir', ctx.argv.slice(1), { short: 'pvm:', long: { parents: { key: 'p', arg: false }, verbose: { key: 'v', arg: false }, mode: { key: 'm', arg: true } } });
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'mkdir --help' for more information.\n`, exitCode: 1 };
  const { operands } = p.opts;
  if (operands.length === 0) return { stdout: '', stderr: "mkdir: missing operand\nTry 'mkdir --help' for more information.\n", exitCode: 1 };
  const parents = has(p.opts, 'p');
  const verbose = has(p.opts, 'v');
  const out = new Out();
  const fs = ctx.fs;
  for (const op of operands) {
    const path = resolvePath(ctx.cwd, op);
    if (parents) {
      // Walk down from the root, creating each missing component.
      const segs = path.split('/').filter(Boolean);
      let cur = '';
      let failed = false;
      for (const s of segs) {
        cur += `/${s}`;
        if (fs.isDir(cur)) continue;
        if (fs.isFile(cur)) {
          const shown = op.startsWith('/') ? cur : cur.slice(resolvePath(ctx.cwd, '.').length + (ctx.cwd === '/' ? 0 : 1));
          out.err(`mkdir: cannot create directory ‘${shown}’: ${cur === path ? 'File exists' : 'Not a directory'}`);
          failed = true;
          break;
        }
        fs.mkdir(cur);
        if (verbose) out.out(`mkdir: created directory '${op.startsWith('/') ? cur : cur.slice(ctx.cwd === '/' ? 1 : ctx.cwd.length + 1)}'\n`);
      }
      if (failed) continue;
      continue;
    }
    if (fs.exists(path)) {
      out.err(`mkdir: cannot create directory ‘${op}’: File exists`);
      continue;
    }
    const problem = createProblem(fs, path);
    if (problem) {
      out.err(`mkdir: cannot create directory ‘${op}’: ${problem}`);
      continue;
    }
    fs.mkdir(path);
    if (verbose) out.out(`mkdir: created directory '${op}'\n`);
  }
  return out.result();
};
