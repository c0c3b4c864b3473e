/**
 * dirname — GNU coreutils src/dirname.c (gnulib dir_len): NAME without its last component;
 * `.` when there is no slash. -z for NUL-terminated output.
 */
import type { CommandFn } from '../types.js';
import { getopt, has, usageError } from './util.js';
import { busyboxUsageError, isBusybox } from './busybox.js';

const SPEC = { short: 'z', long: { zero: { key: 'z', arg: false } } };

export function dirName(p: string): string {
  const t = p.replace(/\/+$/, '');
  if (t === '') return p.startsWith('/') ? '/' : '.';
  const i = t.lastIndexOf('/');
  if (i < 0) return '.';
  const d = t.slice(0, i).replace(/\/+$/, '');
  return d === '' ? (t.startsWith('//') && !t.startsWith('///') ? '//' : '/') : d;
}

export const dirname: CommandFn = (ctx) => {
  // BusyBox dirname (coreutils/dirname.c, busybox 1.36.1) parses no options: exactly one operand,
  // else the usage (status 1; `--help` alone, status 0)
  if (isBusybox(ctx)) {
    const args = ctx.argv.slice(1);
    if (args.length === 1 && args[0] === '--help') return busyboxUsageError('dirname', 0);
    if (args.length !== 1) return busyboxUsageError('dirname');
    return { stdout: `${dirName(args[0]!)}\n`, stderr: '', exitCode: 0 };
  }
  const p = getopt('dirname', ctx.argv.slice(1), SPEC);
  if (!p.ok) return usageError('dirname', p.error, '');
  if (p.opts.operands.length === 0) return usageError('dirname', 'dirname: missing operand', '');
  const end = has(p.opts, 'z') ? '\0' : '\n';
  return { stdout: p.opts.operands.map((n) => `${dirName(n)}${end}`).join(''), stderr: '', exitCode: 0 };
};
