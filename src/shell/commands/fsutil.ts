/**
 * Path helpers shared by the file commands (mkdir, rm, cp, mv, touch): why a path cannot be
 * created, in coreutils' errno wording.
 */
import type { Vfs } from '../../sim/node/vfs.js';

export function parentOf(p: string): string {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}

export function baseName(p: string): string {
  const t = p.replace(/\/+$/, '');
  return t.slice(t.lastIndexOf('/') + 1) || '/';
}

/** Why `path` cannot be created as a new entry, or undefined when its parent is a directory. */
export function createProblem(fs: Vfs, path: string): string | undefined {
  const parent = parentOf(path);
  if (fs.isDir(parent)) return undefined;
  let cur = parent;
  while (cur !== '/') {
    if (fs.isFile(cur)) return 'Not a directory';
    cur = parentOf(cur);
  }
  return 'No such file or directory';
}

/** Copy a file or tree from `src` to `dst` (both absolute). */
export function copyTree(fs: Vfs, src: string, dst: string): void {
  if (fs.isFile(src)) {
    const st = fs.stat(src)!;
    fs.write(dst, st.content, st.mode);
    return;
  }
  fs.mkdir(dst);
  for (const name of fs.list(src)) copyTree(fs, `${src === '/' ? '' : src}/${name}`, `${dst}/${name}`);
}
