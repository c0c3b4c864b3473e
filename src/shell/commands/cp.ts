/**
 * cp — GNU coreutils src/cp.c: file to file, files into a directory, -r for trees, with cp's
 * errors (`cannot stat`, `-r not specified; omitting directory`, `target '…' is not a directory`).
 */
import { resolvePath } from '../../sim/node/vfs.js';
import type { CommandFn } from '../types.js';
import { baseName, copyTree, createProblem } from './fsutil.js';
import { getopt, has, Out } from './util.js';

export const cp: CommandFn = (ctx) => {
  const p = getopt('cp', ctx.argv.slice(1), {
    short: 'rRapfvi',
    long: { recursive: { key: 'r', arg: false }, archive: { key: 'a', arg: false }, force: { key: 'f', arg: false }, verbose: { key: 'v', arg: false } },
  });
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'cp --help' for more information.\n`, exitCode: 1 };
  const o = p.opts;
  const recursive = has(o, 'r') || has(o, 'R') || has(o, 'a');
  const ops = o.operands;
  if (ops.length === 0) return { stdout: '', stderr: "cp: missing file operand\nTry 'cp --help' for more information.\n", exitCode: 1 };
  if (ops.length === 1) return { stdout: '', stderr: `cp: missing destination file operand after '${ops[0]}'\nTry 'cp --help' for more information.\n`, exitCode: 1 };
  const fs = ctx.fs;
  const dest = ops[ops.length - 1]!;
  const destPath = resolvePath(ctx.cwd, dest);
  const sources = ops.slice(0, -1);
  const intoDir = fs.isDir(destPath);
  if (sources.length > 1 && !intoDir) return { stdout: '', stderr: `cp: target '${dest}': ${fs.isFile(destPath) ? 'Not a directory' : 'No such file or directory'}\n`, exitCode: 1 };
  const out = new Out();
  for (const src of sources) {
    const sp = resolvePath(ctx.cwd, src);
    if (!fs.exists(sp)) {
      out.err(`cp: cannot stat '${src}': No such file or directory`);
      continue;
    }
    const target = intoDir ? resolvePath(destPath, baseName(sp)) : destPath;
    const shownTarget = intoDir ? `${dest.replace(/\/+$/, '')}/${baseName(sp)}` : dest;
    if (fs.isDir(sp)) {
      if (!recursive) {
        out.err(`cp: -r not specified; omitting directory '${src}'`);
        continue;
      }
      if (target === sp || target.startsWith(`${sp}/`)) {
        out.err(`cp: cannot copy a directory, '${src}', into itself, '${shownTarget}'`);
        continue;
      }
      if (fs.isFile(target)) {
        out.err(`cp: cannot overwrite non-directory '${shownTarget}' with directory '${src}'`);
        continue;
      }
    } else if (fs.isDir(target)) {
      out.err(`cp: cannot overwrite directory '${shownTarget}' with non-directory`);
      continue;
    }
    if (target === sp) {
      out.err(`cp: '${src}' and '${shownTarget}' are the same file`);
      continue;
    }
    const problem = createProblem(fs, target);
    if (problem) {
      out.err(`cp: cannot create regular file '${shownTarget}': ${problem}`);
      continue;
    }
    copyTree(fs, sp, target);
    if (has(o, 'v')) out.out(`'${src}' -> '${shownTarget}'\n`);
  }
  return out.result();
};
