/**
 * Device and process files every host has (workstation and nodes), generated on read like the
 * kubelet's log files: the character devices scripts redirect to and from (`cmd </dev/null`,
 * `2>/dev/null`, `cat /dev/stdin`) and /proc/self, the shell's own process. Contents are what a
 * read returns: /dev/null and friends read empty (the interpreter gives /dev/stdin the command's
 * stdin and discards writes to /dev/null itself, see interpreter.ts redirects).
 */
import type { VirtualFile, VirtualFiles } from '../../sim/node/vfs.js';
import { deviceFile } from '../../sim/node/devices.js';
import { Random } from '../../util/random.js';
import { decodeBytes } from '../../util/bytes.js';

/**
 * What one read of /dev/urandom or /dev/random gives a reader that takes all it can (`cat`, `od`,
 * `tr </dev/urandom`): the device never ends, a simulated command's output must, so a reader gets
 * this many bytes (64 KiB), enough for `tr -dc a-z0-9 </dev/urandom | head -c 32`.
 */
export const RANDOM_READ = 1 << 16;

/** The random devices, whose bytes come from the simulation's seeded source (never Math.random). */
export const RANDOM_DEVICES: ReadonlySet<string> = new Set(['/dev/urandom', '/dev/random']);

/**
 * `n` bytes of /dev/urandom as the shell's text (util/bytes.ts): drawn from a generator seeded by
 * one draw of the session's seeded source, so the same seed and commands give the same bytes.
 */
export function randomBytes(seed: number, n: number): string {
  const rng = new Random(seed);
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i += 4) {
    const v = rng.nextU32();
    for (let k = 0; k < 4 && i + k < n; k++) b[i + k] = (v >>> (8 * k)) & 0xff;
  }
  return decodeBytes(b);
}

/** The PID the interactive shell reports for `$$` (interpreter.ts), so /proc/self agrees with it. */
export const SHELL_PID = 4242;

export const DEVICE_PATHS = ['/dev/null', '/dev/zero', '/dev/random', '/dev/urandom', '/dev/stdin', '/dev/stdout', '/dev/stderr', '/dev/tty'] as const;

/** The process a /proc/self read describes: the command reading it, else the login shell. */
export interface SelfProcess {
  comm: string;
  exe: string;
  argv: readonly string[];
}

/**
 * The files under /dev and /proc/self; `bootAt` dates them (devtmpfs is populated at boot).
 * /proc/self is the process that looks (fs/proc/self.c): `cat /proc/self/comm` is cat, and
 * /proc/self/exe links to the program's file (`readlink -f /proc/self/exe` prints
 * /usr/bin/readlink); read by the shell itself (a redirection) it is bash, pid $$.
 * `extra` names more files (/proc/loadavg …) with a function for each one's content: the names
 * are the generator's prefixes, asked for whenever a shell frame starts, and the contents are
 * made only when the files are read (/proc/loadavg walks every process of the host).
 */
export function deviceFiles(bootAt: () => number, extra: () => Record<string, () => string> = () => ({}), self: () => SelfProcess | undefined = () => undefined, now: () => number = bootAt): VirtualFiles {
  const current = (): SelfProcess & { pid: number; ppid: number } => {
    const p = self();
    return p ? { ...p, pid: SHELL_PID + 1, ppid: SHELL_PID } : { comm: 'bash', exe: '/usr/bin/bash', argv: ['-bash'], pid: SHELL_PID, ppid: SHELL_PID - 1 };
  };
  return {
    prefixes: ['/dev', '/proc/self', ...Object.keys(extra())],
    files: () => {
      const mtime = bootAt();
      const out: Record<string, VirtualFile> = {};
      // null, zero, random, urandom and tty are character devices (sim/node/devices.ts), 0666
      for (const p of DEVICE_PATHS) out[p] = deviceFile(p, mtime) ?? { content: '', mtime };
      // /proc/PID/status (fs/proc/array.c, the first lines), cgroup v2 of a login session; the
      // process's inodes are made when it is looked at (now), with base.c's modes
      const me = current();
      const at = now();
      out['/proc/self/comm'] = { content: `${me.comm.slice(0, 15)}\n`, mtime: at, mode: 0o644 };
      out['/proc/self/cmdline'] = { content: `${me.argv.join('\0')}\0`, mtime: at, mode: 0o444 };
      out['/proc/self/cgroup'] = { content: '0::/user.slice/user-0.slice/session-1.scope\n', mtime: at, mode: 0o444 };
      out['/proc/self/status'] = { content: `Name:\t${me.comm.slice(0, 15)}\nUmask:\t0022\nState:\tR (running)\nTgid:\t${me.pid}\nNgid:\t0\nPid:\t${me.pid}\nPPid:\t${me.ppid}\n`, mtime: at, mode: 0o444 };
      // /proc/swaps and /proc/modules are 0444 (fs/proc/generic.c proc_create_seq with S_IRUGO)
      for (const [p, content] of Object.entries(extra())) out[p] = { content: content(), mtime, ...(p.startsWith('/proc/') ? { mode: 0o444 } : {}) };
      return out;
    },
    // fs/proc/base.c proc_exe_link: the file the process was exec'd from
    links: () => ({ '/proc/self/exe': current().exe }),
    linksMtime: now,
  };
}

/**
 * The programs of a host's PATH as files in /usr/bin (mode 0755), so what `which` names and
 * /proc/self/exe points at exists (`readlink -f /proc/self/exe`, `ls -l /usr/bin/kubectl`). Their
 * bytes are not simulated: they read empty.
 */
export function binaryFiles(names: () => readonly string[], mtime: () => number): VirtualFiles {
  return {
    prefixes: ['/usr/bin'],
    files: () => {
      const t = mtime();
      return Object.fromEntries(names().map((n) => [`/usr/bin/${n}`, { content: '', mtime: t, mode: 0o755 }]));
    },
  };
}

/** Both generators: `a` answers its prefixes, `b` the rest. */
export function combineVirtual(a: VirtualFiles, b: VirtualFiles | undefined): VirtualFiles {
  if (!b) return a;
  return { prefixes: [...a.prefixes, ...b.prefixes], files: () => ({ ...b.files(), ...a.files() }), ...(a.links || b.links ? { links: () => ({ ...b.links?.(), ...a.links?.() }) } : {}), ...(a.linksMtime || b.linksMtime ? { linksMtime: (a.linksMtime ?? b.linksMtime)! } : {}) };
}
