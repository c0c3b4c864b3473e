/**
 * ls — GNU coreutils src/ls.c, the parts an exam uses: -l (long format with `total`), -a/-A,
 * -1, -d, -R, -r, -t, -h. Names sort in byte order (C locale). On a terminal names are laid out
 * in columns like ls does (vertical order, two spaces apart, COLUMNS or 80 wide); in a pipe one
 * per line. Owners are root (the Vfs does not track owners). Symbolic links show as
 * `lrwxrwxrwx … name -> target`; a directory's time is the newest change below it.
 *
 * In busybox containers busybox's coreutils/ls.c (1.36.1): its options (-C forces columns, -w N the
 * width), `ls: F: ERRNO` with exit 1, headers whenever more than one operand was given, the long
 * format `%-10s %4u %-8.8s %-8.8s %9u` with ctime's `Mmm dd hh:mm` for files less than half a year
 * old (`Mmm dd  yyyy` otherwise), and display_files' columns: the longest name plus 2 wide, as
 * many as fit in the terminal's width less one, padded with spaces. Colours are not modelled.
 */
import { resolvePath } from '../../sim/node/vfs.js';
import type { CommandContext, CommandFn } from '../types.js';
import { busyboxOpts, isBusybox } from './busybox.js';
import { shellExtras } from './types.js';
import { getopt, has, Out, value, type ParsedOpts } from './util.js';

const SPEC = {
  short: 'laA1dRrthSL',
  long: {
    all: { key: 'a', arg: false },
    'almost-all': { key: 'A', arg: false },
    directory: { key: 'd', arg: false },
    recursive: { key: 'R', arg: false },
    reverse: { key: 'r', arg: false },
    'human-readable': { key: 'h', arg: false },
    dereference: { key: 'L', arg: false },
  },
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const SIX_MONTHS = ((365.2425 * 24 * 60 * 60) / 2) * 1000;

interface Entry {
  name: string;
  path: string;
  dir: boolean;
  size: number;
  mode: number;
  mtime: number;
  links: number;
  /** A symbolic link's target (shown as `name -> target` by -l). */
  link?: string;
  /** A character device's major and minor numbers (`ls -l /dev/null`: `crw-rw-rw- … 1, 3`). */
  rdev?: readonly [number, number];
}

function entry(ctx: CommandContext, name: string, path: string, deref = false): Entry {
  const fs = ctx.fs;
  const link = fs.readlink(path);
  // lstat: a link is its own entry, size the length of its target, mode lrwxrwxrwx (-L: stat its target)
  if (link !== undefined && !deref) return { name, path, dir: false, size: fs.linkSize(path), mode: 0o777, mtime: fs.mtime(path), links: 1, link };
  if (fs.isFile(path)) {
    const st = fs.stat(path)!;
    return { name, path, dir: false, size: fs.reportedSize(path), mode: st.mode, mtime: st.mtime, links: 1, ...(st.rdev ? { rdev: st.rdev } : {}) };
  }
  const kids = fs.list(path);
  const subdirs = kids.filter((k) => !fs.isLink(`${path === '/' ? '' : path}/${k}`) && fs.isDir(`${path === '/' ? '' : path}/${k}`)).length;
  return { name, path, dir: true, size: 4096, mode: 0o755, mtime: fs.mtime(path), links: 2 + subdirs };
}

function modeString(e: Entry): string {
  const bits = 'rwxrwxrwx';
  let s = e.link !== undefined ? 'l' : e.dir ? 'd' : e.rdev ? 'c' : '-';
  for (let i = 0; i < 9; i++) s += e.mode & (1 << (8 - i)) ? bits[i] : '-';
  return s;
}

function human(n: number): string {
  if (n < 1024) return String(n);
  const units = ['K', 'M', 'G', 'T'];
  let v = n;
  let u = -1;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  // ls rounds up, one decimal below 10.
  const s = v < 10 ? (Math.ceil(v * 10) / 10).toFixed(1) : String(Math.ceil(v));
  return `${s}${units[u]}`;
}

function timeString(ms: number, now: number): string {
  const d = new Date(ms);
  const mon = MONTHS[d.getUTCMonth()]!;
  const day = String(d.getUTCDate()).padStart(2);
  if (Math.abs(now - ms) > SIX_MONTHS || ms > now + 60_000) return `${mon} ${day}  ${d.getUTCFullYear()}`;
  return `${mon} ${day} ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
}

function blocks(e: Entry): number {
  if (e.link !== undefined || e.rdev) return 0; // a short link's target lives in the inode; a device has no data
  return e.dir ? 4 : Math.ceil(e.size / 4096) * 4;
}

/** busybox display_single's time column: ctime's "Mmm dd hh:mm" within half a year, else "Mmm dd  yyyy". */
function bbTimeString(ms: number, now: number): string {
  const d = new Date(ms);
  const age = Math.floor(now / 1000) - Math.floor(ms / 1000);
  const mon = MONTHS[d.getUTCMonth()]!;
  const day = String(d.getUTCDate()).padStart(2);
  if (age < (3600 * 24 * 365) / 2 && age > -15 * 60) return `${mon} ${day} ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  return `${mon} ${day} ${String(d.getUTCFullYear()).padStart(5)}`;
}

/** libbb make_human_readable_str(size, 1, 0): bytes below 1K as they are, else one rounded decimal. */
function bbHuman(n: number): string {
  if (n < 1024) return String(n);
  const units = ['K', 'M', 'G', 'T'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)}${units[u]}`;
}

/** busybox display_single: a device's `%4u, %3u` where the size would be (coreutils/ls.c, 1.36.1). */
function bbLongLines(entries: Entry[], ctx: CommandContext, h: boolean): string[] {
  return entries.map(
    (e) =>
      `${modeString(e).padEnd(10)} ${String(e.links).padStart(4)} ${'root'.padEnd(8)} ${'root'.padEnd(8)} ${e.rdev ? `${String(e.rdev[0]).padStart(4)}, ${String(e.rdev[1]).padStart(3)}` : (h ? bbHuman(e.size) : String(e.size)).padStart(h ? 7 : 9)} ${bbTimeString(e.mtime, ctx.now())} ${e.name}${e.link !== undefined ? ` -> ${e.link}` : ''}`,
  );
}

/** busybox display_files: column width the longest name + 2, width / that many columns, filled top to bottom. */
export function bbColumnate(names: string[], width: number): string[] {
  if (names.length === 0) return [];
  const colWidth = Math.max(...names.map((n) => n.length)) + 2;
  let ncols = Math.floor(width / colWidth);
  let nrows = names.length;
  if (ncols > 1) nrows = Math.ceil(names.length / ncols);
  else ncols = 1;
  const lines: string[] = [];
  for (let r = 0; r < nrows; r++) {
    let line = '';
    for (let c = 0; c < ncols; c++) {
      const n = names[c * nrows + r];
      if (n === undefined) continue;
      line = line === '' ? n : line.padEnd(c * colWidth) + n;
    }
    lines.push(line);
  }
  return lines;
}

/**
 * GNU ls -l (coreutils ls.c print_long_format): a device shows `MAJOR, MINOR` in the size column,
 * major and minor each padded to the widest of the listing, the pair right-aligned with the sizes.
 */
function longLines(entries: Entry[], ctx: CommandContext, h: boolean): string[] {
  const devs = entries.filter((e) => e.rdev);
  const majW = Math.max(0, ...devs.map((e) => String(e.rdev![0]).length));
  const minW = Math.max(0, ...devs.map((e) => String(e.rdev![1]).length));
  const plain = entries.filter((e) => !e.rdev).map((e) => (h ? human(e.size) : String(e.size)));
  const sizeW = Math.max(0, ...plain.map((s) => s.length), devs.length ? majW + 2 + minW : 0);
  const sizes = entries.map((e) => (e.rdev ? `${String(e.rdev[0]).padStart(majW + Math.max(0, sizeW - (majW + 2 + minW)))}, ${String(e.rdev[1]).padStart(minW)}` : h ? human(e.size) : String(e.size)));
  const links = entries.map((e) => String(e.links));
  const sw = Math.max(0, ...sizes.map((s) => s.length));
  const lw = Math.max(0, ...links.map((s) => s.length));
  return entries.map(
    (e, i) => `${modeString(e)} ${links[i]!.padStart(lw)} root root ${sizes[i]!.padStart(sw)} ${timeString(e.mtime, ctx.now())} ${e.name}${e.link !== undefined ? ` -> ${e.link}` : ''}`,
  );
}

/** GNU ls's multi-column layout (print_many_per_line): the most columns that fit, filled top to bottom. */
export function columnate(names: string[], width: number): string[] {
  if (names.length === 0) return [];
  const lens = names.map((n) => n.length);
  for (let cols = Math.min(names.length, Math.max(1, Math.floor(width / 3))); cols >= 1; cols--) {
    const rows = Math.ceil(names.length / cols);
    if (Math.ceil(names.length / rows) !== cols && cols > 1) continue;
    const widths: number[] = [];
    for (let c = 0; c < cols; c++) {
      let w = 0;
      for (let r = 0; r < rows; r++) w = Math.max(w, lens[c * rows + r] ?? 0);
      widths.push(w);
    }
    const total = widths.reduce((a, b) => a + b, 0) + 2 * (cols - 1);
    if (total >= width && cols > 1) continue;
    const lines: string[] = [];
    for (let r = 0; r < rows; r++) {
      let line = '';
      let pos = 0;
      for (let c = 0; c < cols; c++) {
        const n = names[c * rows + r];
        if (n === undefined) continue;
        // GNU ls pads with tabs (tab size 8) where a tab does not overshoot the next column.
        const target = widths.slice(0, c).reduce((a, w) => a + w + 2, 0);
        while (pos < target) {
          if (Math.floor(target / 8) > Math.floor((pos + 1) / 8)) {
            line += '\t';
            pos += 8 - (pos % 8);
          } else {
            line += ' ';
            pos++;
          }
        }
        line += n;
        pos += n.length;
      }
      lines.push(line);
    }
    return lines;
  }
  return names;
}

export const ls: CommandFn = (ctx) => {
  const bb = isBusybox(ctx);
  let o: ParsedOpts;
  if (bb) {
    // --color takes an optional value, which this getopt does not model: its value is dropped
    const args = ctx.argv.slice(1).map((a) => (a.startsWith('--color=') ? '--color' : a));
    const p = busyboxOpts('ls', args, { short: 'Cadi1lgnsxAkFpRQctuSXrvLHhT:w:', long: { 'full-time': { key: 'l', arg: false }, 'group-directories-first': { key: 'G', arg: false }, color: { key: 'K', arg: false } } });
    if (!p.ok) return p.result;
    o = p.opts;
  } else {
    const p = getopt('ls', ctx.argv.slice(1), SPEC);
    if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'ls --help' for more information.\n`, exitCode: 2 };
    o = p.opts;
  }
  const long = has(o, 'l') || (bb && (has(o, 'n') || has(o, 'g')));
  const all = has(o, 'a');
  const almost = has(o, 'A');
  const one = has(o, '1');
  const dirOnly = has(o, 'd');
  const deref = has(o, 'L');
  const recursive = has(o, 'R') && !dirOnly;
  const reverse = has(o, 'r');
  const byTime = has(o, 't');
  const bySize = has(o, 'S');
  const h = has(o, 'h');
  const tty = (shellExtras(ctx).stdoutIsTTY === true && !one) || (bb && has(o, 'C'));
  const columns = Number(ctx.env['COLUMNS']) > 0 ? Number(ctx.env['COLUMNS']) : 80;
  // busybox: the terminal's width less one, or -w N as given
  const width = bb ? (value(o, 'w') !== undefined ? Number(value(o, 'w')) || 0 : columns - 1) : columns;
  const out = new Out();

  const sortEntries = (es: Entry[]): Entry[] => {
    const s = [...es].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (byTime) s.sort((a, b) => b.mtime - a.mtime);
    if (bySize) s.sort((a, b) => b.size - a.size);
    return reverse ? s.reverse() : s;
  };
  const render = (es: Entry[], withTotal: boolean): string => {
    if (es.length === 0) return withTotal && long ? 'total 0\n' : '';
    if (long) {
      const total = withTotal ? `total ${es.reduce((a, e) => a + blocks(e), 0)}\n` : '';
      return total + (bb ? bbLongLines : longLines)(es, ctx, h).map((l) => `${l}\n`).join('');
    }
    const names = es.map((e) => e.name);
    return (tty ? (bb ? bbColumnate : columnate)(names, width) : names).map((l) => `${l}\n`).join('');
  };
  const listDir = (path: string): Entry[] => {
    const base = path === '/' ? '' : path;
    const es = ctx.fs
      .list(path)
      .filter((n) => all || almost || !n.startsWith('.'))
      .map((n) => entry(ctx, n, `${base}/${n}`, deref));
    if (all) es.push({ ...entry(ctx, '.', path), name: '.' }, { ...entry(ctx, '..', resolvePath(path, '..')), name: '..' });
    return sortEntries(es);
  };

  const operands = o.operands.length > 0 ? o.operands : ['.'];
  const files: Entry[] = [];
  const dirs: Array<{ label: string; path: string }> = [];
  for (const op of operands) {
    const path = resolvePath(ctx.cwd, op);
    if (!ctx.fs.exists(path)) {
      if (bb) out.err(`ls: ${op}: No such file or directory`, 1);
      else out.err(`ls: cannot access '${op}': No such file or directory`, 2);
      continue;
    }
    // a symlink operand is listed itself with -l or -d; otherwise ls follows it to a directory. A
    // trailing slash, `.` or `..` (resolved by the kernel, e.g. after cd into a link) and -L follow it.
    const followed = deref || op.endsWith('/') || /(^|\/)\.\.?$/.test(op);
    const asLink = ctx.fs.isLink(path) && (long || dirOnly) && !followed;
    if (ctx.fs.isDir(path) && !dirOnly && !asLink) dirs.push({ label: op, path });
    else files.push({ ...entry(ctx, op, path, followed), name: op });
  }
  const chunks: string[] = [];
  if (files.length > 0) chunks.push(render(sortEntries(files), false));
  const sortedDirs = [...dirs].sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  if (reverse) sortedDirs.reverse();
  // GNU also heads a listing after a failed operand; busybox only counts operands (show_dirname)
  const headers = recursive || operands.length > 1 || (!bb && out.exitCode !== 0);
  const walk = (label: string, path: string): void => {
    const es = listDir(path);
    chunks.push((headers ? `${label}:\n` : '') + render(es, true));
    if (!recursive) return;
    for (const e of es) {
      if (!e.dir || e.name === '.' || e.name === '..') continue;
      walk(label.endsWith('/') ? `${label}${e.name}` : `${label}/${e.name}`, e.path);
    }
  };
  for (const d of sortedDirs) walk(d.label, d.path);
  out.out(chunks.join('\n'));
  return out.result();
};
