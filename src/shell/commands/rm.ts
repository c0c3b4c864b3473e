/** rm — GNU coreutils src/rm.c: -r/-R removes trees, -f ignores missing files and never fails on them. */
import { resolvePath } from '../../sim/node/vfs.js';
import type { CommandFn } from '../types.js';
import { asApplet, isBusybox } from './busybox.js';
import { getopt, has, Out } from './util.js';

/**
 * busybox coreutils/rm.c: options -fiRrv, the usage without an operand (unless -f), "can't remove
 * 'F': ERRNO" and "'D' is a directory" without -r.
 */
export const rm: CommandFn = (ctx) =>
  isBusybox(ctx)
    ? asApplet(ctx, gnuRm, {
        name: 'rm',
        spec: { short: 'fiRrv' },
        needsOperand: !ctx.argv.slice(1).some((a) => /^-[^-]*f/.test(a)),
        words: [
          [/^rm: cannot remove '(.*)': Is a directory/, "rm: '$1' is a directory"],
          [/^rm: cannot remove '(.*)': /, "rm: can't remove '$1': "],
        ],
      })
    : gnuRm(ctx);

const gnuRm: CommandFn = (ctx) => {
  const p = getopt('rm', ctx.argv.slice(1), {
    short: 'rRfvid',
    long: { recursive: { key: 'r', arg: false }, force: { key: 'f', arg: false }, verbose: { key: 'v', arg: false }, dir: { key: 'd', arg: false } },
  });
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'rm --help' for more information.\n`, exitCode: 1 };
  const o = p.opts;
  const force = has(o, 'f');
  const recursive = has(o, 'r') || has(o, 'R');
  const verbose = has(o, 'v');
  if (o.operands.length === 0) {
    if (force) return { stdout: '', stderr: '', exitCode: 0 };
    return { stdout: '', stderr: "rm: missing operand\nTry 'rm --help' for more information.\n", exitCode: 1 };
  }
  const out = new Out();
  const fs = ctx.fs;
  for (const op of o.operands) {
    const path = resolvePath(ctx.cwd, op);
    if (path === '/' && recursive) {
      out.err("rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe");
      continue;
    }
    if (fs.isFile(path)) {
      fs.remove(path);
      if (verbose) out.out(`removed '${op}'\n`);
      continue;
    }
    if (fs.isDir(path)) {
      if (!recursive) {
        if (has(o, 'd') && fs.list(path).length === 0) {
          fs.remove(path);
          continue;
        }
        out.err(`rm: cannot remove '${op}': Is a directory`);
        continue;
      }
      fs.removeTree(path);
      if (verbose) out.out(`removed directory '${op}'\n`);
      continue;
    }
    if (!force) out.err(`rm: cannot remove '${op}': No such file or directory`);
  }
  return out.result();
};
