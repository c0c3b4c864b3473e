/**
 * A host's virtual filesystem: absolute paths to file contents. It is plain data (serializes with
 * the snapshot) and it is the single source of truth for what a node shows: static pod manifests,
 * kubelet config, CNI config, resolv.conf, sysctl files. Controllers read configuration from here,
 * and what a learner writes here feeds back into the cluster.
 */

export interface FileEntry {
  content: string;
  /** Octal permission bits, e.g. 0o644. */
  mode: number;
  /** Simulated modification time (ms since epoch). */
  mtime: number;
}

export interface VfsData {
  files: Record<string, FileEntry>;
  /** Directories that exist even when empty. */
  dirs: string[];
}

export class VfsError extends Error {
  constructor(
    readonly code: 'ENOENT' | 'EISDIR' | 'ENOTDIR' | 'EEXIST' | 'ENOTEMPTY',
    readonly path: string,
  ) {
    super(`${code}: ${path}`);
  }
}

/** Normalise `a//b/./c/../d` to `/a/b/d`, relative to cwd. */
export function resolvePath(cwd: string, p: string): string {
  const abs = p.startsWith('/') ? p : `${cwd.replace(/\/$/, '')}/${p}`;
  const out: string[] = [];
  for (const seg of abs.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return `/${out.join('/')}`;
}

function parentOf(p: string): string {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}

/**
 * Files generated from cluster state on read rather than stored (the kubelet's container log
 * files under /var/log/pods and /var/log/containers): every path below one of `prefixes` is
 * answered by `files()`, read-only, never stored or snapshotted.
 */
export interface VirtualFiles {
  prefixes: readonly string[];
  files(): Record<string, string>;
}

export class Vfs {
  private virtual: VirtualFiles | undefined;

  /** Attach (or replace) the generator of virtual files; see VirtualFiles. */
  setVirtual(v: VirtualFiles | undefined): void {
    this.virtual = v;
  }

  private virtualFiles(p: string): Record<string, string> | undefined {
    const v = this.virtual;
    if (!v || !v.prefixes.some((x) => p === x || p.startsWith(`${x}/`) || x.startsWith(`${p === '/' ? '' : p}/`))) return undefined;
    return v.files();
  }

  constructor(
    readonly data: VfsData = { files: {}, dirs: ['/'] },
    private readonly now: () => number = () => 0,
    /** Called after every change, so the cluster can react to edited configuration files. */
    private readonly onChange: () => void = () => {},
  ) {}

  exists(p: string): boolean {
    return this.isFile(p) || this.isDir(p);
  }

  isFile(p: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.data.files, p) || this.virtualFiles(p)?.[p] !== undefined;
  }

  isDir(p: string): boolean {
    if (p === '/') return true;
    if (this.data.dirs.includes(p)) return true;
    const prefix = `${p}/`;
    for (const f in this.data.files) if (f.startsWith(prefix)) return true;
    for (const f in this.virtualFiles(p) ?? {}) if (f.startsWith(prefix)) return true;
    return false;
  }

  read(p: string): string {
    const f = this.data.files[p];
    if (f) return f.content;
    const v = this.virtualFiles(p)?.[p];
    if (v !== undefined) return v;
    if (this.isDir(p)) throw new VfsError('EISDIR', p);
    throw new VfsError('ENOENT', p);
  }

  /** Read or undefined, for configuration lookups that treat a missing file as "not configured". */
  tryRead(p: string): string | undefined {
    return this.data.files[p]?.content ?? this.virtualFiles(p)?.[p];
  }

  stat(p: string): FileEntry | undefined {
    const f = this.data.files[p];
    if (f) return f;
    const v = this.virtualFiles(p)?.[p];
    return v === undefined ? undefined : { content: v, mode: 0o640, mtime: this.now() };
  }

  write(p: string, content: string, mode?: number): void {
    if (this.isDir(p) && !this.isFile(p)) throw new VfsError('EISDIR', p);
    const old = this.data.files[p];
    this.data.files[p] = { content, mode: mode ?? old?.mode ?? 0o644, mtime: this.now() };
    this.ensureDir(parentOf(p));
    this.onChange();
  }

  append(p: string, content: string): void {
    this.write(p, (this.tryRead(p) ?? '') + content);
  }

  remove(p: string): void {
    if (this.isFile(p)) {
      delete this.data.files[p];
      this.onChange();
      return;
    }
    if (this.isDir(p)) {
      if (this.list(p).length > 0) throw new VfsError('ENOTEMPTY', p);
      this.data.dirs = this.data.dirs.filter((d) => d !== p);
      this.onChange();
      return;
    }
    throw new VfsError('ENOENT', p);
  }

  /** Remove a path and everything below it. */
  removeTree(p: string): void {
    const prefix = `${p}/`;
    for (const f of Object.keys(this.data.files)) if (f === p || f.startsWith(prefix)) delete this.data.files[f];
    this.data.dirs = this.data.dirs.filter((d) => d !== p && !d.startsWith(prefix));
    this.onChange();
  }

  mkdir(p: string): void {
    this.ensureDir(p);
  }

  private ensureDir(p: string): void {
    let cur = p;
    while (cur !== '/' && !this.data.dirs.includes(cur)) {
      this.data.dirs.push(cur);
      cur = parentOf(cur);
    }
  }

  /** Names directly below a directory, sorted. */
  list(dir: string): string[] {
    const prefix = dir === '/' ? '/' : `${dir}/`;
    const names = new Set<string>();
    for (const f in this.data.files) if (f.startsWith(prefix)) names.add(f.slice(prefix.length).split('/')[0]!);
    for (const d of this.data.dirs) if (d.startsWith(prefix) && d !== dir) names.add(d.slice(prefix.length).split('/')[0]!);
    for (const f in this.virtualFiles(dir) ?? {}) if (f.startsWith(prefix)) names.add(f.slice(prefix.length).split('/')[0]!);
    names.delete('');
    return [...names].sort();
  }
}
