/**
 * The files a one-shot `cka-lab kubectl` reads and writes: the user's own, relative to the real
 * working directory, as kubectl reads `-f ./web.yaml` — except the simulated workstation's
 * kubeconfig (the default ~/.kube/config of the session), which stays inside the session unless
 * the user names another one with --kubeconfig or $KUBECONFIG.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { VfsError } from '../sim/node/vfs.js';
import type { KubectlFiles } from '../shell/kubectl/context.js';

function stat(p: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(p);
  } catch {
    return undefined;
  }
}

/** The user's filesystem seen through kubectl's file interface. */
export function hostFiles(cwd: string): KubectlFiles {
  const abs = (p: string): string => resolve(cwd, p);
  return {
    exists: (p) => existsSync(abs(p)),
    isFile: (p) => stat(abs(p))?.isFile() ?? false,
    isDir: (p) => stat(abs(p))?.isDirectory() ?? false,
    read(p) {
      const st = stat(abs(p));
      if (!st) throw new VfsError('ENOENT', p);
      if (st.isDirectory()) throw new VfsError('EISDIR', p);
      return readFileSync(abs(p), 'utf8');
    },
    tryRead: (p) => (stat(abs(p))?.isFile() ? readFileSync(abs(p), 'utf8') : undefined),
    write: (p, content) => writeFileSync(abs(p), content),
    list: (dir) => readdirSync(abs(dir)).sort(),
    mkdir: (p) => void mkdirSync(abs(p), { recursive: true }),
  };
}

/** Paths in `inside` go to the session's files, everything else to `outside`. */
export function routedFiles(outside: KubectlFiles, session: KubectlFiles, inside: ReadonlySet<string>): KubectlFiles {
  const pick = (p: string): KubectlFiles => (inside.has(p) ? session : outside);
  return {
    exists: (p) => pick(p).exists(p),
    isFile: (p) => pick(p).isFile(p),
    isDir: (p) => pick(p).isDir(p),
    read: (p) => pick(p).read(p),
    tryRead: (p) => pick(p).tryRead(p),
    write: (p, c) => pick(p).write(p, c),
    list: (d) => pick(d).list(d),
    mkdir: (p) => pick(p).mkdir(p),
  };
}
