/** mv — GNU coreutils src/mv.c: rename, or move sources into a directory; errors as mv prints them. */
import { resolvePath } from '../../sim/node/vfs.js';
import type { CommandFn } from '../types.js';
import { baseName, copyTree, createProblem } from './fsutil.js';
import { getopt, has, Out } from './util.js';

export const mv: CommandFn = (ctx) => {
  const p = getopt('mv', ctx.argv.slice(1), { short: 'fivn', long: { force: { key: 'f', arg: false }, verbose: { key: 'v', arg: false } } });
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'mv --help' for more information.\n`, exitCode: 1 };
  const ops = p.opts.operands;
  if (ops.length === 0) return { stdout: '', stderr: "mv: missing file operand\nTry 'mv --help' for more information.\n", exitCode: 1 };
  if (ops.length === 1) return { stdout: '', stderr: `mv: missing destination file operand after '${ops[0]}'\nTry 'mv --help' for more information.\n`, exitCode: 1 };
  const fs = ctx.fs;
  const dest = ops[ops.length - 1]!;
  const destPath = resolvePath(ctx.cwd, dest);
  const sources = ops.slice(0, -1);
  const intoDir = fs.isDir(destPath);
  if (sources.length > 1 && !intoDir) return { stdout: '', stderr: `mv: target '${dest}': ${fs.isFile(destPath) ? 'Not a directory' : 'No such file or directory'}\n`, exitCode: 1 };
  const out = new Out();
  for (const src of sources) {
    const sp = resolvePath(ctx.cwd, src);
    if (!fs.exists(sp)) {
      out.err(`mv: cannot stat '${src}': No such file or directory`);
      continue;
    }
    const target = intoDir ? resolvePath(destPath, baseName(sp)) : destPath;
    const shownTarget = intoDir ? `${dest.replace(/\/+$/, '')}/${baseName(sp)}` : dest;
    if (target === sp) {
      out.err(`mv: '${src}' and '${shownTarget}' are the same file`);
      continue;
    }
    if (fs.isDir(sp) && target.startsWith(`${sp}/`)) {
      out.err(`mv: cannot move '${src}' to a subdirectory of itself, '${shownTarget}'`);
      continue;
    }
    if (fs.isDir(sp) && fs.isFile(target)) {
      out.err(`mv: cannot overwrite non-directory '${shownTarget}' with directory '${src}'`);
      continue;
    }
    if (!fs.isDir(sp) && fs.isDir(target)) {
      out.err(`mv: cannot overwrite directory '${shownTarget}' with non-directory`);
      continue;
    }
    const problem = createProblem(fs, target);
    if (problem) {
      out.err(`mv: cannot move '${src}' to '${shownTarget}': ${problem}`);
      continue;
    }
    if (fs.isDir(target)) fs.removeTree(target);
    copyTree(fs, sp, target);
    fs.removeTree(sp);
    if (has(p.opts, 'v')) out.out(`renamed '${src}' -> '${shownTarget}'\n`);
  }
  return out.result();
};
