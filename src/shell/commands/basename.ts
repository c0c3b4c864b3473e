/**
 * basename — GNU coreutils src/basename.c: strip directories (and a SUFFIX) from NAME; -a for
 * several names, -s SUFFIX (implies -a), -z for NUL-terminated output.
 */
import type { CommandFn } from '../types.js';
import { getopt, has, usageError, value } from './util.js';
import { busyboxOpts, busyboxUsageError, isBusybox } from './busybox.js';

const SPEC = { short: 'as:z', long: { multiple: { key: 'a', arg: false }, suffix: { key: 's', arg: true }, zero: { key: 'z', arg: false } } };

/** The last component of a path, trailing slashes ignored (`/` stays `/`). */
export function baseName(p: string): string {
  if (p === '') return '';
  const t = p.replace(/\/+$/, '');
  if (t === '') return '/';
  return t.slice(t.lastIndexOf('/') + 1);
}

/**
 * BusyBox basename (coreutils/basename.c, busybox 1.36.1): getopt32 "^+as:", no -z; without -a
 * or -s one NAME and an optional SUFFIX, anything else (none, a third operand) the usage, status 1.
 */
function busyboxBasename(args: string[]): ReturnType<CommandFn> {
  const p = busyboxOpts('basename', args, { short: 'as:', stopAtOperand: true });
  if (!p.ok) return p.result;
  const names = p.opts.operands;
  const suffixOpt = value(p.opts, 's');
  const multiple = has(p.opts, 'a') || suffixOpt !== undefined;
  if (names.length === 0 || (!multiple && names.length > 2)) return busyboxUsageError('basename');
  const suffix = multiple ? suffixOpt : names[1];
  const strip = (b: string): string => (suffix && b !== suffix && b.endsWith(suffix) ? b.slice(0, -suffix.length) : b);
  return { stdout: (multiple ? names : [names[0]!]).map((n) => `${strip(baseName(n))}\n`).join(''), stderr: '', exitCode: 0 };
}

export const basename: CommandFn = (ctx) => {
  if (isBusybox(ctx)) return busyboxBasename(ctx.argv.slice(1));
  const p = getopt('basename', ctx.argv.slice(1), SPEC);
  if (!p.ok) return usageError('basename', p.error, '');
  const names = p.opts.operands;
  if (names.length === 0) return usageError('basename', 'basename: missing operand', '');
  const suffixOpt = value(p.opts, 's');
  const multiple = has(p.opts, 'a') || suffixOpt !== undefined;
  if (!multiple && names.length > 2) return usageError('basename', `basename: extra operand ‘${names[2]}’`, '');
  const suffix = multiple ? suffixOpt : names[1];
  const end = has(p.opts, 'z') ? '\0' : '\n';
  const strip = (b: string): string => (suffix && b !== suffix && b.endsWith(suffix) ? b.slice(0, -suffix.length) : b);
  const list = multiple ? names : [names[0]!];
  return { stdout: list.map((n) => `${strip(baseName(n))}${end}`).join(''), stderr: '', exitCode: 0 };
};
