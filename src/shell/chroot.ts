/**
 * `chroot NEWROOT [COMMAND [ARG]...]` inside a container: what the node debugging recipe needs
 * (`kubectl debug node/N -it --image=busybox`, then `chroot /host`), decided from the pod's spec.
 * A NEWROOT that is a mount of the node's `/` (a hostPath volume of path `/`) makes the shell
 * continue on that node as root; anything else is a directory of the container's own filesystem,
 * where the default program ($SHELL, else /bin/sh) is looked for.
 *
 * Wording: busybox's applet (coreutils/chroot.c: xchroot's "can't change root directory to '%s'",
 * BB_EXECVP_or_die's "can't execute '%s'", exit 1 and 127) for busybox and Alpine images; GNU
 * coreutils chroot.c ("cannot change root directory to %s", "failed to run command %s", exit 125
 * and 127, "missing operand") for glibc ones.
 */
import type { Pod } from '../sim/api/types.js';
import { podContainers } from '../sim/api/types.js';
import type { Vfs } from '../sim/node/vfs.js';
import { resolvePath } from '../sim/node/vfs.js';

export type ChrootFlavour = 'busybox' | 'coreutils';

export type ChrootOutcome =
  /** Continue on the node whose `/` NEWROOT is: a shell, or the command, as root. */
  | { kind: 'node'; node: string; command: string[] }
  /** NEWROOT is the container's own `/`: the same container, a shell or the command. */
  | { kind: 'same'; command: string[] }
  | { kind: 'error'; stderr: string; exitCode: number };

/** The node path a container directory mounts, when it is a hostPath of the node's root. */
export function hostRootMount(pod: Pod, container: string, dir: string): boolean {
  const ct = podContainers(pod).find((c) => c.name === container);
  if (!ct) return false;
  const clean = dir.replace(/\/+$/, '') || '/';
  return (ct.volumeMounts ?? []).some((m) => {
    const vol = (pod.spec.volumes ?? []).find((v) => v.name === m.name);
    const path = vol?.hostPath?.path.replace(/\/+$/, '') || (vol?.hostPath ? '/' : undefined);
    return path === '/' && !m.subPath && (m.mountPath.replace(/\/+$/, '') || '/') === clean;
  });
}

/** A word quoted for a shell command line (`'…'`, embedded quotes as `'\''`). */
export function shellWord(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

export function chrootOutcome(a: { argv: readonly string[]; cwd: string; user: string; env: Record<string, string>; pod: Pod; container: string; fs: Vfs; flavour: ChrootFlavour }): ChrootOutcome {
  const bb = a.flavour === 'busybox';
  const args = a.argv.slice(1);
  // GNU chroot's options (--userspec, --groups, --skip-chdir) are not simulated: an option is its NEWROOT's absence
  const newRoot = args[0];
  if (newRoot === undefined || (!bb && newRoot.startsWith('--'))) {
    if (bb) return { kind: 'error', stderr: 'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: chroot NEWROOT [PROG ARG...]\n\nRun PROG with root directory set to NEWROOT\n', exitCode: 1 };
    return { kind: 'error', stderr: "chroot: missing operand\nTry 'chroot --help' for more information.\n", exitCode: 125 };
  }
  const path = resolvePath(a.cwd, newRoot);
  // busybox prints the path in quotes as given; coreutils quotes it with quoteaf, the same here
  const cannot = (why: string): ChrootOutcome => ({ kind: 'error', stderr: `chroot: ${bb ? "can't" : 'cannot'} change root directory to '${newRoot}': ${why}\n`, exitCode: bb ? 1 : 125 });
  // chroot("") is ENOENT, not the working directory
  if (newRoot === '' || !a.fs.isDir(path)) return cannot(newRoot !== '' && a.fs.exists(path) ? 'Not a directory' : 'No such file or directory');
  // chroot(2) needs CAP_SYS_CHROOT, which a container's root has by default and anyone else lacks
  if (a.user !== 'root') return cannot('Operation not permitted');
  const command = args.slice(1);
  if (hostRootMount(a.pod, a.container, path) && a.pod.spec.nodeName) return { kind: 'node', node: a.pod.spec.nodeName, command };
  if (path === '/') return { kind: 'same', command };
  // the container's own directory: the program is looked for under it, and nothing there is one
  const prog = command[0] ?? a.env['SHELL'] ?? '/bin/sh';
  return bb
    ? { kind: 'error', stderr: `chroot: can't execute '${prog}': No such file or directory\n`, exitCode: 127 }
    : { kind: 'error', stderr: `chroot: failed to run command '${prog}': No such file or directory\n`, exitCode: 127 };
}
