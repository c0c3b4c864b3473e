/** touch — GNU coreutils src/touch.c: create empty files or bump the mtime of existing ones. */
import { resolvePath, VfsError } from '../../sim/node/vfs.js';
import type { CommandFn } from '../types.js';
import { createProblem } from './fsutil.js';
import { asApplet, isBusybox } from './busybox.js';
import { getopt, has, Out } from './util.js';

/** busybox coreutils/touch.c: options -c -h -a -m -d -t -r, the usage without an operand, `touch: F: ERRNO`. */
export const touch: CommandFn = (ctx) =>
  isBusybox(ctx)
    ? asApplet(ctx, gnuTouch, {
        name: 'touch',
        spec: { short: 'chr:d:t:amf', long: { 'no-create': { key: 'c', arg: false }, 'no-dereference': { key: 'h', arg: false }, reference: { key: 'r', arg: true }, date: { key: 'd', arg: true } } },
        needsOperand: true,
        words: [[/^touch: cannot touch '(.*)': /, 'touch: $1: ']],
      })
    : gnuTouch(ctx);

const gnuTouch: CommandFn = (ctx) => {
  const p = getopt('touch', ctx.argv.slice(1), { short: 'acm', long: { 'no-create': { key: 'c', arg: false } } });
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'touch --help' for more information.\n`, exitCode: 1 };
  const ops = p.opts.operands;
  if (ops.length === 0) return { stdout: '', stderr: "touch: missing file operand\nTry 'touch --help' for more information.\n", exitCode: 1 };
  const out = new Out();
  const fs = ctx.fs;
  for (const op of ops) {
    const path = resolvePath(ctx.cwd, op);
    if (fs.isDir(path)) continue;
    if (fs.isFile(path)) {
      const st = fs.stat(path)!;
      fs.setEntry(path, { ...st, mtime: ctx.now() });
      continue;
    }
    if (has(p.opts, 'c')) continue;
    const problem = createProblem(fs, path);
    if (problem) {
      out.err(`touch: cannot touch '${op}': ${problem}`);
      continue;
    }
    try {
      fs.write(path, '');
    } catch (e) {
      // a read-only mount (a Secret or ConfigMap volume in a container): open(2) fails with EROFS
      if (!(e instanceof VfsError) || e.code !== 'EROFS') throw e;
      out.err(`touch: cannot touch '${op}': Read-only file system`);
    }
  }
  return out.result();
};
