/**
 * The character devices every Linux machine and every container has under /dev, with the device
 * numbers the kernel gives them (Documentation/admin-guide/devices.txt: mem major 1 — null 3,
 * zero 5, full 7, random 8, urandom 9; tty major 5 minor 0) and the mode devtmpfs and the
 * container runtime create them with (0666). `ls -l` prints `MAJOR, MINOR` where a size would be
 * and `stat` says `character special file` (recorded from GNU coreutils 9.1 and busybox 1.36.1).
 */
import type { VirtualFile, VirtualFiles } from './vfs.js';

export const CHAR_DEVICES: Readonly<Record<string, readonly [number, number]>> = {
  '/dev/null': [1, 3],
  '/dev/zero': [1, 5],
  '/dev/full': [1, 7],
  '/dev/random': [1, 8],
  '/dev/urandom': [1, 9],
  '/dev/tty': [5, 0],
};

/** One device file: empty to a plain read (readers of zero and urandom make their own bytes), 0666. */
export function deviceFile(path: string, mtime: number): VirtualFile | undefined {
  const rdev = CHAR_DEVICES[path];
  return rdev ? { content: '', mtime, mode: 0o666, rdev } : undefined;
}

/**
 * A container's /dev (runc's default devices: null, zero, full, random, urandom, tty), made when
 * the container started, over `under` (the image's own files) when it has any.
 */
export function containerDevices(started: () => number, under?: VirtualFiles): VirtualFiles {
  const files = (): Record<string, VirtualFile> => {
    const t = started();
    const out: Record<string, VirtualFile> = {};
    for (const p of Object.keys(CHAR_DEVICES)) out[p] = deviceFile(p, t)!;
    return out;
  };
  if (!under) return { prefixes: ['/dev'], files };
  return { prefixes: [...under.prefixes, '/dev'], files: () => ({ ...under.files(), ...files() }), ...(under.links ? { links: under.links } : {}), ...(under.linksMtime ? { linksMtime: under.linksMtime } : {}) };
}
