/**
 * `ps`, `pgrep` and `pidof` (procps-ng 4.0) over the node's process table (processes.ts).
 *
 * ps forms: BSD `aux`/`ax`/`u` (USER PID %CPU %MEM VSZ RSS TTY STAT START TIME COMMAND), UNIX
 * `-e`/`-A`, `-f` (UID PID PPID C STIME TTY TIME CMD), `-o FORMAT` (`name=` renames or hides a
 * header), `-p PIDS`, `-C NAMES`, `-u USERS`, `--sort [-]KEY`, `--no-headers`; plain `ps` lists
 * the terminal's processes. Columns have procps's widths (PID 7: Ubuntu's pid_max is 4194304);
 * a value wider than its column pushes the line right until later padding absorbs it, as
 * procps's show_one_proc does; user names over 8 characters end in `+`; the last column (the
 * command) is never cut when output is not a terminal.
 */
import type { CommandFn, CommandResult } from '../../types.js';
import { shellExtras } from '../types.js';
import { hostEnv, notInstalled } from './host.js';
import { memTotalKiB, processTable, type Proc } from './processes.js';
import { compilePosix } from '../../../util/posix-regex.js';
import { bootTime } from '../../../sim/node/runtime.js';

interface Column {
  header: string;
  width: number;
  right: boolean;
  value: (p: Proc, x: Ctx) => string;
}

interface Ctx {
  now: number;
  memKiB: number;
}

const p2 = (n: number): string => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** procps's user name column: 8 characters, a longer name cut to 7 and `+`. */
const userName = (u: string): string => (u.length > 8 ? `${u.slice(0, 7)}+` : u);

/** START/STIME: the time if started within a day, else month and day (procps pr_stime). */
function startText(ms: number, now: number): string {
  const d = new Date(ms);
  if (now - ms < 86_400_000) return `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}`;
  return `${MONTHS[d.getUTCMonth()]}${p2(d.getUTCDate())}`;
}

const cpuSeconds = (p: Proc, x: Ctx): number => Math.floor((Math.max(0, x.now - p.start) / 1000) * (p.cpu / 100));
const pct = (v: number): string => (Math.round(v * 10) / 10).toFixed(1);

const COLUMNS: Record<string, Column> = {
  user: { header: 'USER', width: 8, right: false, value: (p) => userName(p.user) },
  uid: { header: 'UID', width: 8, right: false, value: (p) => userName(p.user) },
  pid: { header: 'PID', width: 7, right: true, value: (p) => String(p.pid) },
  ppid: { header: 'PPID', width: 7, right: true, value: (p) => String(p.ppid) },
  '%cpu': { header: '%CPU', width: 4, right: true, value: (p) => pct(p.cpu) },
  '%mem': { header: '%MEM', width: 4, right: true, value: (p, x) => pct((p.rss / x.memKiB) * 100) },
  c: { header: 'C', width: 2, right: true, value: (p) => String(Math.floor(p.cpu)) },
  vsz: { header: 'VSZ', width: 6, right: true, value: (p) => String(p.vsz) },
  rss: { header: 'RSS', width: 5, right: true, value: (p) => String(p.rss) },
  tty: { header: 'TTY', width: 8, right: false, value: (p) => p.tty },
  tt: { header: 'TT', width: 8, right: false, value: (p) => p.tty },
  stat: { header: 'STAT', width: 4, right: false, value: (p) => p.stat },
  start: { header: 'START', width: 5, right: true, value: (p, x) => startText(p.start, x.now) },
  stime: { header: 'STIME', width: 5, right: false, value: (p, x) => startText(p.start, x.now) },
  bsdtime: {
    header: 'TIME',
    width: 6,
    right: true,
    value: (p, x) => {
      const s = cpuSeconds(p, x);
      return `${Math.floor(s / 60)}:${p2(s % 60)}`;
    },
  },
  time: {
    header: 'TIME',
    width: 8,
    right: true,
    value: (p, x) => {
      const s = cpuSeconds(p, x);
      const days = Math.floor(s / 86400);
      return `${days ? `${days}-` : ''}${p2(Math.floor((s % 86400) / 3600))}:${p2(Math.floor((s % 3600) / 60))}:${p2(s % 60)}`;
    },
  },
  etime: {
    header: 'ELAPSED',
    width: 11,
    right: true,
    value: (p, x) => {
      const s = Math.floor(Math.max(0, x.now - p.start) / 1000);
      const days = Math.floor(s / 86400);
      const h = Math.floor((s % 86400) / 3600);
      return `${days ? `${days}-` : ''}${days || h ? `${p2(h)}:` : ''}${p2(Math.floor((s % 3600) / 60))}:${p2(s % 60)}`;
    },
  },
  comm: { header: 'COMMAND', width: 15, right: false, value: (p) => p.comm },
  cmd: { header: 'CMD', width: 27, right: false, value: (p) => p.args },
  args: { header: 'COMMAND', width: 27, right: false, value: (p) => p.args },
};
const ALIASES: Record<string, string> = { command: 'args', pcpu: '%cpu', pmem: '%mem', ucomm: 'comm', rssize: 'rss', rsz: 'rss', vsize: 'vsz', euser: 'user', uname: 'user', s: 'stat', lstart: 'start', cputime: 'time', ucmd: 'comm' };

const AUX = ['user', 'pid', '%cpu', '%mem', 'vsz', 'rss', 'tty', 'stat', 'start', 'bsdtime', 'args'];
const FULL = ['uid', 'pid', 'ppid', 'c', 'stime', 'tty', 'time', 'cmd'];
const SIMPLE = ['pid', 'tty', 'time', 'comm=CMD'];

/** procps show_one_proc: fields separated by one space; an overflow is absorbed by later padding. */
function renderLine(cells: Array<{ text: string; col: Column }>): string {
  let out = '';
  let carry = 0;
  cells.forEach(({ text, col }, i) => {
    const last = i === cells.length - 1;
    let pad = Math.max(0, col.width - text.length);
    if (text.length > col.width) carry += text.length - col.width;
    else {
      const absorbed = Math.min(pad, carry);
      pad -= absorbed;
      carry -= absorbed;
    }
    if (i > 0) out += ' ';
    if (col.right) out += ' '.repeat(pad) + text;
    else out += last ? text : text + ' '.repeat(pad);
  });
  return `${out.replace(/ +$/, '')}\n`;
}

interface Spec {
  fields: Array<{ key: string; header: string }>;
  all: boolean;
  pids?: Set<number>;
  names?: Set<string>;
  users?: Set<string>;
  sort?: { key: string; desc: boolean };
  headers: boolean;
}

const ERR_FORMAT = 'error: unknown user-defined format specifier "';

function parseArgs(argv: string[]): Spec | string {
  const s: Spec = { fields: [], all: false, headers: true };
  let bsdU = false;
  let full = false;
  let format: string[] | undefined;
  const list = (v: string | undefined): string[] => (v ?? '').split(/[,\s]+/).filter(Boolean);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--')) {
      const [name, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
      const value = (): string | undefined => inline ?? argv[++i];
      if (name === 'sort') {
        const k = value() ?? '';
        s.sort = { key: k.replace(/^[-+]/, ''), desc: k.startsWith('-') };
      } else if (name === 'no-headers' || name === 'no-heading') s.headers = false;
      else if (name === 'pid') s.pids = new Set(list(value()).map(Number));
      else if (name === 'format') format = [...(format ?? []), ...list(value())];
      else if (name === 'user') s.users = new Set(list(value()));
      else if (name === 'width' || name === 'cols' || name === 'columns') value();
      else return `error: unknown gnu long option\n`;
      continue;
    }
    if (a.startsWith('-')) {
      for (let j = 1; j < a.length; j++) {
        const ch = a[j]!;
        const rest = (): string | undefined => (j + 1 < a.length ? a.slice(j + 1) : argv[++i]);
        if (ch === 'e' || ch === 'A') s.all = true;
        else if (ch === 'f' || ch === 'F') full = true;
        else if (ch === 'w' || ch === 'l' || ch === 'y' || ch === 'H') continue;
        else if (ch === 'o') {
          format = [...(format ?? []), ...list(rest())];
          break;
        } else if (ch === 'p' || ch === 'q') {
          s.pids = new Set(list(rest()).map(Number));
          break;
        } else if (ch === 'C') {
          s.names = new Set(list(rest()));
          break;
        } else if (ch === 'u' || ch === 'U') {
          s.users = new Set(list(rest()));
          break;
        } else if (ch === 'a' || ch === 'x') s.all = true;
        else return `error: unsupported SysV option\n`;
      }
      continue;
    }
    // BSD options: aux, ax, u, ww, f (forest is not drawn)
    for (const ch of a) {
      if (ch === 'a' || ch === 'x' || ch === 'e') s.all = true;
      else if (ch === 'u') bsdU = true;
      else if (ch === 'w' || ch === 'f' || ch === 'h') {
        if (ch === 'h') s.headers = false;
      } else return `error: unsupported option (BSD syntax)\n`;
    }
  }
  const keys = format ?? (bsdU ? AUX : full ? FULL : SIMPLE);
  for (const k of keys) {
    const [name, header] = k.includes('=') ? [k.slice(0, k.indexOf('=')), k.slice(k.indexOf('=') + 1)] : [k, undefined];
    const key = ALIASES[name.toLowerCase()] ?? name.toLowerCase();
    if (!COLUMNS[key]) return `${ERR_FORMAT}${name}".\n`;
    s.fields.push({ key, header: header ?? COLUMNS[key].header });
  }
  if (format && format.length > 0 && format.every((f) => f.endsWith('='))) s.headers = false;
  return s;
}

function sortValue(p: Proc, key: string, x: Ctx): number | string {
  const k = ALIASES[key] ?? key;
  switch (k) {
    case '%cpu':
      return p.cpu;
    case '%mem':
    case 'rss':
      return p.rss;
    case 'vsz':
      return p.vsz;
    case 'pid':
      return p.pid;
    case 'ppid':
      return p.ppid;
    case 'start':
    case 'stime':
    case 'etime':
      return k === 'etime' ? x.now - p.start : p.start;
    case 'user':
    case 'uid':
      return p.user;
    case 'comm':
      return p.comm;
    default:
      return p.args;
  }
}

export const ps: CommandFn = (ctx) => {
  const env = hostEnv(ctx);
  if (!env) return notInstalled(ctx);
  const spec = parseArgs(ctx.argv.slice(1));
  if (typeof spec === 'string') return { stdout: '', stderr: `${spec}\nUsage:\n ps [options]\n\n Try 'ps --help <simple|list|output|threads|misc|all>'\n  or 'ps --help <s|l|o|t|m|a>'\n for additional help text.\n\nFor more details see ps(1).\n`, exitCode: 1 };
  const { cluster: c, host } = env;
  const boot = bootTime(host, c.now());
  const x: Ctx = { now: c.now(), memKiB: memTotalKiB(c, host) };
  let procs = processTable(c, host, ctx.argv.join(' '), boot, shellExtras(ctx).pipelinePeers);
  const selected = spec.pids || spec.names || spec.users;
  if (selected) {
    procs = procs.filter((p) => spec.pids?.has(p.pid) || spec.names?.has(p.comm) || spec.users?.has(p.user));
  } else if (!spec.all) procs = procs.filter((p) => p.tty === 'pts/0');
  if (spec.sort) {
    const { key, desc } = spec.sort;
    procs = [...procs].sort((a, b) => {
      const va = sortValue(a, key, x);
      const vb = sortValue(b, key, x);
      const r = va < vb ? -1 : va > vb ? 1 : a.pid - b.pid;
      return desc ? -r : r;
    });
  }
  const cols = spec.fields.map((f) => ({ ...COLUMNS[f.key]!, header: f.header }));
  let out = spec.headers ? renderLine(cols.map((col) => ({ text: col.header, col }))) : '';
  for (const p of procs) out += renderLine(cols.map((col) => ({ text: col.value(p, x), col })));
  return { stdout: out, stderr: '', exitCode: procs.length === 0 && selected ? 1 : 0 };
};

function pgrepMatch(ctxArgv: string[]): { pattern: RegExp; full: boolean; list: 'none' | 'name' | 'args'; exact: boolean } | CommandResult {
  let full = false;
  let list: 'none' | 'name' | 'args' = 'none';
  let exact = false;
  const rest: string[] = [];
  for (const a of ctxArgv.slice(1)) {
    if (a.startsWith('-') && a.length > 1) {
      for (const ch of a.slice(1)) {
        if (ch === 'f') full = true;
        else if (ch === 'l') list = 'name';
        else if (ch === 'a') list = 'args';
        else if (ch === 'x') exact = true;
        else return { stdout: '', stderr: `pgrep: invalid option -- '${ch}'\nUsage:\n pgrep [options] <pattern>\n`, exitCode: 2 };
      }
    } else rest.push(a);
  }
  if (rest.length !== 1) return { stdout: '', stderr: rest.length === 0 ? 'pgrep: no matching criteria specified\nTry `pgrep --help\' for more information.\n' : 'pgrep: only one pattern can be provided\nTry `pgrep --help\' for more information.\n', exitCode: 2 };
  let pattern: RegExp;
  try {
    // procps compiles an extended POSIX regex (regcomp REG_EXTENDED); linear time on any input
    pattern = compilePosix(exact ? `^(${rest[0]})$` : rest[0]!, 'ere');
  } catch {
    return { stdout: '', stderr: `pgrep: regex error\n`, exitCode: 2 };
  }
  return { pattern, full, list, exact };
}

/** `pgrep [-f] [-l|-a] [-x] PATTERN`: the PIDs whose name (or, with -f, command line) matches. */
export const pgrep: CommandFn = (ctx) => {
  const env = hostEnv(ctx);
  if (!env) return notInstalled(ctx);
  const m = pgrepMatch(ctx.argv);
  if (!('pattern' in m)) return m;
  const self = ctx.argv.join(' ');
  // pgrep leaves itself out (procps: its own pid), not the rest of its pipeline
  const procs = processTable(env.cluster, env.host, self, bootTime(env.host, env.cluster.now()), shellExtras(ctx).pipelinePeers).filter((p) => p.args !== self || p.tty !== 'pts/0' || p.stat !== 'R+');
  const hits = procs.filter((p) => m.pattern.test(m.full ? p.args : p.comm));
  const out = hits.map((p) => (m.list === 'args' ? `${p.pid} ${p.args}` : m.list === 'name' ? `${p.pid} ${p.comm}` : String(p.pid))).join('\n');
  return { stdout: out ? `${out}\n` : '', stderr: '', exitCode: hits.length ? 0 : 1 };
};

/** `pidof NAME…`: PIDs of the programs by name, highest first, on one line. */
export const pidof: CommandFn = (ctx) => {
  const env = hostEnv(ctx);
  if (!env) return notInstalled(ctx);
  const names = ctx.argv.slice(1).filter((a) => !a.startsWith('-'));
  const procs = processTable(env.cluster, env.host, ctx.argv.join(' '), bootTime(env.host, env.cluster.now()));
  const base = (args: string): string => {
    const first = args.split(' ')[0]!;
    return first.slice(first.lastIndexOf('/') + 1);
  };
  const hits = procs.filter((p) => names.includes(base(p.args)) && p.tty !== 'pts/0').sort((a, b) => b.pid - a.pid);
  return { stdout: hits.length ? `${hits.map((p) => p.pid).join(' ')}\n` : '', stderr: '', exitCode: hits.length ? 0 : 1 };
};
