/**
 * A container's view of files: its root filesystem with volumes mounted over paths, as the
 * kubelet's bind mounts give it (an emptyDir shared by two containers at different paths, a
 * hostPath that is the node's own directory, a ConfigMap's files). Every path is routed to the
 * filesystem of the longest mount that covers it; a `subPath` mount shows one file or directory
 * of the volume at the mount path. Symbolic links inside a volume (the `..data` layout of
 * ConfigMap and Secret volumes) resolve within that volume, as relative links do.
 */
import { Vfs, VfsError, resolvePath, type FileEntry } from '../node/vfs.js';

export interface Mount {
  /** Absolute path inside the container. */
  path: string;
  fs: Vfs;
  /** The directory (or file, for a subPath file) of `fs` shown at `path`; '/' for the whole volume. */
  source: string;
  readOnly: boolean;
}

export class MountVfs extends Vfs {
  private readonly mounts: Mount[];

  constructor(
    private readonly root: Vfs,
    mounts: readonly Mount[],
  ) {
    super(root.data);
    this.mounts = [...mounts].sort((a, b) => b.path.length - a.path.length);
  }

  /** The filesystem and path there that `p` names. */
  route(p: string): { fs: Vfs; path: string; mount?: Mount } {
    const abs = resolvePath('/', p);
    for (const m of this.mounts) {
      if (abs === m.path) return { fs: m.fs, path: m.source, mount: m };
      if (abs.startsWith(`${m.path}/`)) return { fs: m.fs, path: resolvePath(m.source, abs.slice(m.path.length + 1)), mount: m };
    }
    return { fs: this.root, path: abs };
  }

  /** Names of mount points directly below `dir`. */
  private mountNames(dir: string): string[] {
    const prefix = dir === '/' ? '/' : `${dir}/`;
    return this.mounts.filter((m) => m.path.startsWith(prefix)).map((m) => m.path.slice(prefix.length).split('/')[0]!);
  }

  private writable(p: string): { fs: Vfs; path: string } {
    const r = this.route(p);
    if (r.mount?.readOnly) throw new VfsError('EROFS', p);
    return r;
  }

  override readlink(p: string): string | undefined {
    const r = this.route(p);
    return r.fs.readlink(r.path);
  }
  override isLink(p: string): boolean {
    const r = this.route(p);
    return r.path !== '/' && r.fs.isLink(r.path);
  }
  override symlink(target: string, p: string): void {
    const r = this.writable(p);
    r.fs.symlink(target, r.path);
  }
  override follow(p: string): string {
    return p;
  }
  override exists(p: string): boolean {
    return this.isFile(p) || this.isDir(p);
  }
  override isFile(p: string): boolean {
    const r = this.route(p);
    return r.fs.isFile(r.path);
  }
  override isDir(p: string): boolean {
    const abs = resolvePath('/', p);
    if (this.mountNames(abs).length > 0) return true;
    const r = this.route(abs);
    return r.fs.isDir(r.path);
  }
  override read(p: string): string {
    const r = this.route(p);
    try {
      return r.fs.read(r.path);
    } catch (e) {
      if (e instanceof VfsError) throw new VfsError(e.code, p);
      throw e;
    }
  }
  override tryRead(p: string): string | undefined {
    const r = this.route(p);
    return r.fs.tryRead(r.path);
  }
  override stat(p: string): FileEntry | undefined {
    const r = this.route(p);
    return r.fs.stat(r.path);
  }
  override mtime(p: string): number {
    const r = this.route(p);
    return r.fs.mtime(r.path);
  }
  override write(p: string, content: string, mode?: number): void {
    const r = this.writable(p);
    r.fs.write(r.path, content, mode);
  }
  override append(p: string, content: string): void {
    const r = this.writable(p);
    r.fs.append(r.path, content);
  }
  override remove(p: string): void {
    const r = this.writable(p);
    r.fs.remove(r.path);
  }
  override removeTree(p: string): void {
    const r = this.writable(p);
    r.fs.removeTree(r.path);
  }
  override mkdir(p: string): void {
    const abs = resolvePath('/', p);
    if (this.mounts.some((m) => m.path === abs)) return;
    const r = this.writable(abs);
    r.fs.mkdir(r.path);
  }
  override list(dir: string): string[] {
    const abs = resolvePath('/', dir);
    const r = this.route(abs);
    const names = new Set(r.fs.isDir(r.path) ? r.fs.list(r.path) : []);
    for (const n of this.mountNames(abs)) names.add(n);
    return [...names].sort();
  }
}
