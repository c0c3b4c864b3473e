/**
 * `sysctl` (procps-ng 4.0.4 sysctl.c, Ubuntu 24.04's): read `KEY...`, `-n`, `-a` (the keys present under /proc/sys),
 * write `-w KEY=VALUE` (or a bare KEY=VALUE), `-p [FILE]` (default /etc/sysctl.conf) and `--system`
 * (the sysctl.d directories in precedence order, then /etc/sysctl.conf). Values live in the host's
 * /proc/sys files, so the rest of the simulation (packet forwarding, bridge netfilter) reads them.
 */
import type { CommandContext, CommandFn, CommandResult } from '../../types.js';
import type { Vfs } from '../../../sim/node/vfs.js';
import { isRoot, nodeEnv, notInstalled } from './host.js';

const SYSTEM_DIRS = ['/etc/sysctl.d', '/run/sysctl.d', '/usr/local/lib/sysctl.d', '/usr/lib/sysctl.d', '/lib/sysctl.d'];

function keyPath(key: string): string {
  return `/proc/sys/${key.replace(/\./g, '/')}`;
}

function dotted(key: string): string {
  return key.replace(/\//g, '.');
}

interface Run {
  out: string;
  err: string;
  rc: number;
}

function read(fs: Vfs, key: string, valueOnly: boolean, r: Run): void {
  const k = dotted(key);
  const v = fs.tryRead(keyPath(k));
  if (v === undefined) {
    r.err += `sysctl: cannot stat ${keyPath(k)}: No such file or directory\n`;
    r.rc = 255;
    return;
  }
  r.out += valueOnly ? `${v.trimEnd()}\n` : `${k} = ${v.trimEnd()}\n`;
}

function write(ctx: CommandContext, setting: string, quiet: boolean, r: Run): void {
  const eq = setting.indexOf('=');
  if (eq <= 0) {
    r.err += `sysctl: "${setting}" must be of the form name=value\n`;
    r.rc = 255;
    return;
  }
  const k = dotted(setting.slice(0, eq).trim());
  const value = setting.slice(eq + 1).trim();
  const path = keyPath(k);
  const cur = ctx.fs.tryRead(path);
  if (cur === undefined) {
    r.err += `sysctl: cannot stat ${path}: No such file or directory\n`;
    r.rc = 255;
    return;
  }
  if (!isRoot(ctx)) {
    r.err += `sysctl: permission denied on key "${k}"\n`;
    r.rc = 255;
    return;
  }
  if (/^-?\d+$/.test(cur.trim()) && !/^-?\d+$/.test(value)) {
    r.err += `sysctl: setting key "${k}": Invalid argument\n`;
    r.rc = 255;
    return;
  }
  ctx.fs.write(path, `${value}\n`);
  if (!quiet) r.out += `${k} = ${value}\n`;
}

/** One `key = value` line of a configuration file (sysctl.c parse_setting_line). */
interface Setting {
  body: string;
  ignoreFailure: boolean;
}

/**
 * Read one configuration file the way procps 4.0.4 Preload does: `key = value` lines, # and ;
 * comments, a leading `-` to ignore a failure to write; nothing is written yet.
 */
function preload(ctx: CommandContext, file: string, list: Setting[], r: Run): boolean {
  const text = ctx.fs.tryRead(file);
  if (text === undefined) {
    r.err += `sysctl: cannot open "${file}": No such file or directory\n`;
    r.rc = 255;
    return false;
  }
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line.length < 2 || line.startsWith('#') || line.startsWith(';')) return;
    const ignoreFailure = line.startsWith('-');
    const body = ignoreFailure ? line.slice(1) : line;
    if (!body.includes('=')) {
      // `-key` alone excludes a glob match; anything else is a syntax error
      if (!ignoreFailure) r.err += `sysctl: ${file}(${i + 1}): invalid syntax, continuing...\n`;
      return;
    }
    list.push({ body, ignoreFailure });
  });
  return true;
}

/** write_setting_list: every setting read, in file order, after all files were read. */
function writeAll(ctx: CommandContext, list: readonly Setting[], quiet: boolean, r: Run): void {
  for (const s of list) write(ctx, s.body, quiet, r);
}

/**
 * `--system` (sysctl.c PreloadSystem, procps-ng 4.0.4): the .conf files of the sysctl.d
 * directories by name (the first directory holding a name wins), then /etc/sysctl.conf; each file
 * is announced as it is read (`* Applying F ...`) and the settings are written only after all of
 * them were read, so the announcements come first and the `key = value` lines after.
 */
function system(ctx: CommandContext, quiet: boolean, r: Run): void {
  const seen = new Map<string, string>();
  for (const dir of SYSTEM_DIRS)
    for (const f of ctx.fs.list(dir).filter((x) => x.endsWith('.conf')))
      if (!seen.has(f)) seen.set(f, `${dir}/${f}`);
  const files = [...seen.keys()].sort().map((f) => seen.get(f)!);
  if (ctx.fs.isFile('/etc/sysctl.conf')) files.push('/etc/sysctl.conf');
  const list: Setting[] = [];
  for (const f of files) {
    if (!quiet) r.out += `* Applying ${f} ...\n`;
    preload(ctx, f, list, r);
  }
  writeAll(ctx, list, quiet, r);
}

function listAll(fs: Vfs, r: Run): void {
  const keys = Object.keys(fs.data.files)
    .filter((p) => p.startsWith('/proc/sys/'))
    .map((p) => p.slice('/proc/sys/'.length).replace(/\//g, '.'))
    .sort();
  for (const k of keys) r.out += `${k} = ${(fs.tryRead(keyPath(k)) ?? '').trimEnd()}\n`;
}

export const sysctl: CommandFn = (ctx): CommandResult => {
  if (!nodeEnv(ctx)) return notInstalled(ctx);
  const r: Run = { out: '', err: '', rc: 0 };
  const args = ctx.argv.slice(1);
  let writeMode = false;
  let valueOnly = false;
  let quiet = false;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--system') {
      system(ctx, quiet, r);
      return { stdout: r.out, stderr: r.err, exitCode: r.rc };
    }
    if (a === '-p' || a === '--load' || a.startsWith('--load=') || (a.startsWith('-p') && a.length > 2)) {
      const file = a.startsWith('--load=') ? a.slice(7) : a.startsWith('-p') && a.length > 2 ? a.slice(2) : args[i + 1] && !args[i + 1]!.startsWith('-') ? args[++i]! : '/etc/sysctl.conf';
      const list: Setting[] = [];
      if (preload(ctx, file, list, r)) writeAll(ctx, list, quiet, r);
      return { stdout: r.out, stderr: r.err, exitCode: r.rc };
    }
    if (a === '-a' || a === '-A' || a === '-X' || a === '--all') {
      listAll(ctx.fs, r);
      return { stdout: r.out, stderr: r.err, exitCode: r.rc };
    }
    if (a.startsWith('-') && !a.startsWith('--') && a.length > 1) {
      for (const ch of a.slice(1)) {
        if (ch === 'w') writeMode = true;
        else if (ch === 'n') valueOnly = true;
        else if (ch === 'q') quiet = true;
        else if (ch === 'e' || ch === 'N') continue;
        else return { stdout: '', stderr: `sysctl: invalid option -- '${ch}'\nUsage:\n sysctl [options] [variable[=value] ...]\n`, exitCode: 1 };
      }
      continue;
    }
    if (a === '--write') writeMode = true;
    else if (a === '--values') valueOnly = true;
    else if (a === '--quiet') quiet = true;
    else operands.push(a);
  }
  if (operands.length === 0)
    return { stdout: '', stderr: '\nUsage:\n sysctl [options] [variable[=value] ...]\n\nOptions:\n  -a, --all            display all variables\n  -p, --load[=<file>]  read values from file\n  -w, --write          enable writing a value to variable\n\nFor more details see sysctl(8).\n', exitCode: 1 };
  for (const op of operands) {
    if (writeMode || op.includes('=')) write(ctx, op, quiet, r);
    else read(ctx.fs, op, valueOnly, r);
  }
  return { stdout: r.out, stderr: r.err, exitCode: r.rc };
};
