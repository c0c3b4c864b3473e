/**
 * Device and process files every host has (workstation and nodes), generated on read like the
 * kubelet's log files: the character devices scripts redirect to and from (`cmd </dev/null`,
 * `2>/dev/null`, `cat /dev/stdin`) and /proc/self, the shell's own process. Contents are what a
 * read returns: /dev/null and friends read empty (the interpreter gives /dev/stdin the command's
 * stdin and discards writes to /dev/null itself, see interpreter.ts redirects).
 */
import type { VirtualFile, VirtualFiles } from '../../sim/node/vfs.js';

/** The PID the interactive shell reports for `$$` (interpreter.ts), so /proc/self agrees with it. */
export const SHELL_PID = 4242;

export const DEVICE_PATHS = ['/dev/null', '/dev/zero', '/dev/random', '/dev/urandom', '/dev/stdin', '/dev/stdout', '/dev/stderr', '/dev/tty'] as const;

/** The files under /dev and /proc/self; `bootAt` dates them (devtmpfs is populated at boot). */
export function deviceFiles(bootAt: () => number, extra: () => Record<string, string> = () => ({})): VirtualFiles {
  return {
    prefixes: ['/dev', '/proc/self', ...Object.keys(extra())],
    files: () => {
      const mtime = bootAt();
      const out: Record<string, VirtualFile> = {};
      for (const p of DEVICE_PATHS) out[p] = { content: '', mtime };
      // /proc/PID/status of bash (fs/proc/array.c, the first lines), cgroup v2 of a login session
      out['/proc/self/comm'] = { content: 'bash\n', mtime };
      out['/proc/self/cmdline'] = { content: '-bash\0', mtime };
      out['/proc/self/cgroup'] = { content: '0::/user.slice/user-0.slice/session-1.scope\n', mtime };
      out['/proc/self/status'] = { content: `Name:\tbash\nUmask:\t0022\nState:\tR (running)\nTgid:\t${SHELL_PID}\nNgid:\t0\nPid:\t${SHELL_PID}\nPPid:\t${SHELL_PID - 1}\n`, mtime };
      for (const [p, content] of Object.entries(extra())) out[p] = { content, mtime };
      return out;
    },
  };
}

/** Both generators: `a` answers its prefixes, `b` the rest. */
export function combineVirtual(a: VirtualFiles, b: VirtualFiles | undefined): VirtualFiles {
  if (!b) return a;
  return { prefixes: [...a.prefixes, ...b.prefixes], files: () => ({ ...b.files(), ...a.files() }) };
}
