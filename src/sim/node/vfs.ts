/**
 * A host's virtual filesystem: absolute paths to file contents. It is plain data (serializes with
 * the snapshot) and it is the single source of truth for what a node shows: static pod manifests,
 * kubelet config, CNI config, resolv.conf, sysctl files. Controllers read configuration from here,
 * and what a learner writes here feeds back into the cluster.
 */
import { remember } from '../../util/bounded-map.js';

export interface FileEntry {
  content: string;
  /** Octal permission bits, e.g. 0o644. */
  mode: number;
  /** Simulated modification time (ms since epoch). */
  mtime: number;
  /** A character device's major and minor numbers (node/devices.ts); absent for regular files. */
  rdev?: readonly [number, number];
}

export interface SymlinkEntry {
  /** The target as written (`ln -s TARGET`), relative to the link's directory unless absolute. */
  target: string;
  mtime: number;
}

export interface VfsData {
  files: Record<string, FileEntry>;
  /** Directories that exist even when empty. */
  dirs: string[];
  /** Symbolic links by path (absent in snapshots made before links existed). */
  links?: Record<string, SymlinkEntry>;
}

/** Linux's MAXSYMLINKS: more hops than this is ELOOP; we stop following and treat it as missing. */
const MAX_SYMLINKS = 40;

export class VfsError extends Error {
  constructor(
    /** EROFS: a read-only mount (a container's ConfigMap or Secret volume, runtime/mountfs.ts). */
    readonly code: 'ENOENT' | 'EISDIR' | 'ENOTDIR' | 'EEXIST' | 'ENOTEMPTY' | 'EROFS',
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
  /** Contents by path, each with its modification time (e.g. when the container started). */
  files(): Record<string, VirtualFile>;
  /** Symbolic links by path and target (/proc/self/exe), under the same prefixes. */
  links?(): Record<string, string>;
  /** When those links were made (a /proc/PID inode's: when it was first looked up). */
  linksMtime?(): number;
}

export interface VirtualFile {
  content: string;
  mtime: number;
  /** Permission bits; 0640 (a log file's) when absent. */
  mode?: number;
  /** A character device's major and minor numbers (node/devices.ts). */
  rdev?: readonly [number, number];
}

export class Vfs {
  private virtual: VirtualFiles | undefined;

  /** Attach (or replace) the generator of virtual files; see VirtualFiles. */
  setVirtual(v: VirtualFiles | undefined): void {
    this.virtual = v;
  }

  /**
   * The program reading the filesystem right now (the shell sets it around each command it runs),
   * for what /proc/self shows: fs/proc/base.c answers for the process that looks. Transient, not data.
   */
  process: { comm: string; exe: string; argv: readonly string[] } | undefined;

  private virtualLinks(p: string): Record<string, string> | undefined {
    const v = this.virtual;
    if (!v?.links || !p.startsWith('/proc/') || !v.prefixes.some((x) => p === x || p.startsWith(`${x}/`))) return undefined;
    return v.links();
  }

  private virtualFiles(p: string): Record<string, VirtualFile> | undefined {
    const v = this.virtual;
    if (!v || !v.prefixes.some((x) => p === x || p.startsWith(`${x}/`) || x.startsWith(`${p === '/' ? '' : p}/`))) return undefined;
    return v.files();
  }

  /**
   * The virtual file at exactly `p`. Every virtual file lies at or below one of the prefixes
   * (VirtualFiles), so a path above them all (a hostPath type check of /var/log, a
   * `test -f /var`) is answered without generating them: the kubelet's every pod sync asks.
   */
  private virtualFileAt(p: string): VirtualFile | undefined {
    const v = this.virtual;
    if (!v || !v.prefixes.some((x) => p === x || p.startsWith(`${x}/`))) return undefined;
    return v.files()[p];
  }

  /**
   * The files map to change. A frozen one is shared by copies of the state (Cluster.snapshot
   * freezes the hosts' maps, and copyJSON then shares them): this filesystem takes a copy of its own first.
   */
  private ownFiles(): Record<string, FileEntry> {
    if (Object.isFrozen(this.data.files)) this.data.files = { ...this.data.files };
    return this.data.files;
  }

  /** The links map to change, copied first when frozen (freezeFiles), as ownFiles. */
  private ownLinks(): Record<string, SymlinkEntry> {
    const links = this.data.links;
    if (links === undefined) return (this.data.links = {});
    return Object.isFrozen(links) ? (this.data.links = { ...links }) : links;
  }

  /** The directory list to add to, copied first when frozen (freezeFiles), as ownFiles. */
  private ownDirs(): string[] {
    if (Object.isFrozen(this.data.dirs)) this.data.dirs = this.data.dirs.slice();
    return this.data.dirs;
  }

  /** Put an entry in place as it is, telling no one (touch(1) moving a file's times). */
  setEntry(p: string, e: FileEntry): void {
    this.ownFiles()[p] = e;
  }

  constructor(
    readonly data: VfsData = { files: {}, dirs: ['/'] },
    private readonly now: () => number = () => 0,
    /** Called after every change, so the cluster can react to edited configuration files. */
    private readonly onChange: () => void = () => {},
  ) {}

  /**
   * The size stat(2) reports for `p` (following links): procfs files say 0 whatever a read returns
   * (fs/proc/generic.c and base.c leave i_size 0), other files their bytes.
   */
  reportedSize(p: string): number {
    if (p.startsWith('/proc/') || this.follow(p).startsWith('/proc/')) return 0;
    return Buffer.byteLength(this.tryRead(p) ?? '');
  }

  /** The size lstat(2) reports for the link `p`: its target's length, 0 in procfs (proc_pid_link). */
  linkSize(p: string): number {
    return p.startsWith('/proc/') ? 0 : Buffer.byteLength(this.readlink(p) ?? '');
  }

  /** The symlink at exactly `p` (not following), if any. */
  readlink(p: string): string | undefined {
    return this.data.links?.[p]?.target ?? this.virtualLinks(p)?.[p];
  }

  isLink(p: string): boolean {
    return this.data.links?.[p] !== undefined || this.virtualLinks(p)?.[p] !== undefined;
  }

  /** Create a symbolic link `p` → `target` (`ln -s target p`). */
  symlink(target: string, p: string): void {
    this.ownLinks()[p] = Object.freeze({ target, mtime: this.now() });
    this.ensureDir(parentOf(p));
    this.onChange();
  }

  /**
   * Where `p` leads after following symbolic links in every component, as the kernel's path walk
   * does (a ConfigMap volume's `key` → `..data/key`, where `..data` is itself a link).
   */
  follow(p: string): string {
    const stored = this.data.links;
    const virtual = this.virtual?.links ? this.virtualLinks(p) : undefined;
    if (!stored && !virtual) return p;
    if (!virtual && Object.isFrozen(stored)) {
      let memo = FOLLOWED.get(stored!);
      if (!memo) FOLLOWED.set(stored!, (memo = new Map()));
      const had = memo.get(p);
      if (had !== undefined) return had;
      followWalks.count++;
      return remember(memo, p, walkLinks(stored!, p), FOLLOWED_MAX);
    }
    followWalks.count++;
    return walkLinks(virtual ? { ...Object.fromEntries(Object.entries(virtual).map(([k, t]) => [k, { target: t }])), ...stored } : stored!, p);
  }

  exists(p: string): boolean {
    return this.isFile(p) || this.isDir(p);
  }

  isFile(p: string): boolean {
    p = this.follow(p);
    return Object.prototype.hasOwnProperty.call(this.data.files, p) || this.virtualFileAt(p) !== undefined;
  }

  isDir(p: string): boolean {
    p = this.follow(p);
    if (p === '/') return true;
    if (this.data.dirs.includes(p)) return true;
    const prefix = `${p}/`;
    for (const f in this.data.files) if (f.startsWith(prefix)) return true;
    for (const f in this.data.links ?? {}) if (f.startsWith(prefix)) return true;
    for (const f in this.virtualFiles(p) ?? {}) if (f.startsWith(prefix)) return true;
    return false;
  }

  read(p: string): string {
    const orig = p;
    p = this.follow(p);
    const f = this.data.files[p];
    if (f) return f.content;
    const v = this.virtualFileAt(p);
    if (v !== undefined) return v.content;
    if (this.isDir(p)) throw new VfsError('EISDIR', orig);
    throw new VfsError('ENOENT', orig);
  }

  /** Read or undefined, for configuration lookups that treat a missing file as "not configured". */
  tryRead(p: string): string | undefined {
    p = this.follow(p);
    return this.data.files[p]?.content ?? this.virtualFileAt(p)?.content;
  }

  stat(p: string): FileEntry | undefined {
    p = this.follow(p);
    const f = this.data.files[p];
    if (f) return f;
    const v = this.virtualFileAt(p);
    return v === undefined ? undefined : { content: v.content, mode: v.mode ?? 0o640, mtime: v.mtime, ...(v.rdev ? { rdev: v.rdev } : {}) };
  }

  /**
   * Modification time of a file, link or directory. A directory changes when an entry is added
   * below it, so it is the newest time of anything below; an empty directory dates from when the
   * node was installed (its oldest file).
   */
  mtime(p: string): number {
    const link = this.data.links?.[p];
    if (link) return link.mtime;
    if (this.virtualLinks(p)?.[p] !== undefined) return this.virtual?.linksMtime?.() ?? this.now();
    const st = this.stat(p);
    if (st) return st.mtime;
    const dir = this.follow(p);
    const prefix = dir === '/' ? '/' : `${dir}/`;
    let newest: number | undefined;
    const see = (t: number): void => void (newest = newest === undefined ? t : Math.max(newest, t));
    for (const [f, e] of Object.entries(this.data.files)) if (f.startsWith(prefix)) see(e.mtime);
    for (const [f, e] of Object.entries(this.data.links ?? {})) if (f.startsWith(prefix)) see(e.mtime);
    for (const [f, e] of Object.entries(this.virtualFiles(dir) ?? {})) if (f.startsWith(prefix)) see(e.mtime);
    if (newest !== undefined) return newest;
    let oldest: number | undefined;
    for (const e of Object.values(this.data.files)) oldest = oldest === undefined ? e.mtime : Math.min(oldest, e.mtime);
    return oldest ?? this.now();
  }

  write(p: string, content: string, mode?: number): void {
    // writing through a symlink writes its target, as open(2) without O_NOFOLLOW does
    p = this.follow(p);
    if (this.isDir(p) && !this.isFile(p)) throw new VfsError('EISDIR', p);
    const old = this.data.files[p];
    // entries are replaced, never changed: frozen, session copies share them (util/json-copy.ts)
    this.ownFiles()[p] = Object.freeze({ content, mode: mode ?? old?.mode ?? 0o644, mtime: this.now() });
    this.ensureDir(parentOf(p));
    this.onChange();
  }

  /**
   * write(), with the content computed when it is first read: the entry's `content` is a getter
   * that calls `content()` once and keeps what it gave. For a file whose content is costly, pure
   * and seldom read (a projected service-account token, whose RSA signature is most of a pod's
   * start: runtime/volumes.ts). The entry is frozen like every other, so the copies of a state
   * share it and sign at most once; serialising it (JSON.stringify, toPlainJSON) reads it, so a
   * saved state holds the text, the same bytes as if it had been written at once.
   */
  writeDeferred(p: string, content: () => string, mode?: number): void {
    p = this.follow(p);
    if (this.isDir(p) && !this.isFile(p)) throw new VfsError('EISDIR', p);
    const old = this.data.files[p];
    let text: string | undefined;
    // the members in write()'s order: a saved state's bytes do not tell the two apart
    this.ownFiles()[p] = Object.freeze({
      get content(): string {
        return (text ??= content());
      },
      mode: mode ?? old?.mode ?? 0o644,
      mtime: this.now(),
    });
    this.ensureDir(parentOf(p));
    this.onChange();
  }

  append(p: string, content: string): void {
    this.write(p, (this.tryRead(p) ?? '') + content);
  }

  remove(p: string): void {
    if (this.data.links?.[p]) {
      delete this.ownLinks()[p];
      this.onChange();
      return;
    }
    if (this.isFile(p)) {
      delete this.ownFiles()[p];
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
    for (const f of Object.keys(this.data.files)) if (f === p || f.startsWith(prefix)) delete this.ownFiles()[f];
    for (const f of Object.keys(this.data.links ?? {})) if (f === p || f.startsWith(prefix)) delete this.ownLinks()[f];
    this.data.dirs = this.data.dirs.filter((d) => d !== p && !d.startsWith(prefix));
    this.onChange();
  }

  mkdir(p: string): void {
    this.ensureDir(p);
  }

  private ensureDir(p: string): void {
    let cur = p;
    while (cur !== '/' && !this.data.dirs.includes(cur)) {
      this.ownDirs().push(cur);
      cur = parentOf(cur);
    }
  }

  /** Names directly below a directory, sorted. */
  list(dir: string): string[] {
    dir = this.follow(dir);
    const prefix = dir === '/' ? '/' : `${dir}/`;
    const names = new Set<string>();
    for (const f in this.data.files) if (f.startsWith(prefix)) names.add(f.slice(prefix.length).split('/')[0]!);
    for (const f in this.data.links ?? {}) if (f.startsWith(prefix)) names.add(f.slice(prefix.length).split('/')[0]!);
    for (const d of this.data.dirs) if (d.startsWith(prefix) && d !== dir) names.add(d.slice(prefix.length).split('/')[0]!);
    for (const f in this.virtualFiles(dir) ?? {}) if (f.startsWith(prefix)) names.add(f.slice(prefix.length).split('/')[0]!);
    for (const f in this.virtualLinks(dir) ?? {}) if (f.startsWith(prefix)) names.add(f.slice(prefix.length).split('/')[0]!);
    names.delete('');
    return [...names].sort();
  }
}

/**
 * Freeze a filesystem's files map, its entries first (Vfs.write freezes the entries it makes;
 * touch's are frozen here), and its links map and directory list: copies of the state then share
 * them, and the filesystem copies each at its next change (Vfs.ownFiles, ownLinks, ownDirs).
 */
export function freezeFiles(data: VfsData): void {
  if (!Object.isFrozen(data.files)) {
    for (const e of Object.values(data.files)) if (!Object.isFrozen(e)) Object.freeze(e);
    Object.freeze(data.files);
  }
  if (data.links && !Object.isFrozen(data.links)) {
    for (const e of Object.values(data.links)) if (!Object.isFrozen(e)) Object.freeze(e);
    Object.freeze(data.links);
  }
  if (!Object.isFrozen(data.dirs)) Object.freeze(data.dirs);
}

/**
 * Vfs.follow's answers by links map, for frozen maps only (freezeFiles: a snapshot's, shared by
 * every copy of the state; a filesystem that makes a link copies the map first, ownLinks): the
 * walk is a function of the map and the path alone (resolvePath, MAX_SYMLINKS), so while the
 * map is the same frozen object the answer stands. Paths under /proc whose links are virtual
 * (generated per reader) are not memoised. The kernel's sysctl reads (ip_forward per packet), the
 * kubelet's hostPath checks and nginx's file lookups followed the same paths again at every call.
 */
const FOLLOWED = new WeakMap<object, Map<string, string>>();
const FOLLOWED_MAX = 2048;

/** How many path walks follow made rather than found in FOLLOWED (tests). */
export const followWalks = { count: 0 };

/** Where `p` leads through `links`, every component followed (Vfs.follow). */
function walkLinks(links: Record<string, { target: string } | undefined>, p: string): string {
  let segs = p.split('/').filter((s) => s !== '');
  let out = '';
  let hops = 0;
  for (let i = 0; i < segs.length; ) {
    const next = `${out}/${segs[i]}`;
    const l = links[next];
    if (l && hops++ < MAX_SYMLINKS) {
      segs = [...resolvePath(out === '' ? '/' : out, l.target).split('/').filter((s) => s !== ''), ...segs.slice(i + 1)];
      out = '';
      i = 0;
      continue;
    }
    out = next;
    i++;
  }
  return out === '' ? '/' : out;
}
