/**
 * yes — GNU coreutils src/yes.c: prints its operands joined by spaces (or `y`) forever. Commands
 * here return their whole output at once, so the simulated yes prints a bounded run of lines
 * (YES_LINES): enough for `yes | head -N` with any N a script uses, never an endless loop.
 */
import type { CommandFn } from '../types.js';
import { getopt, usageError } from './util.js';

export const YES_LINES = 10000;

export const yes: CommandFn = (ctx) => {
  const args = ctx.argv.slice(1);
  // yes takes only --help/--version; everything else (after an optional `--`) is text.
  const p = getopt('yes', args.filter((a) => a.startsWith('--') && a !== '--'), { short: '', long: {} });
  if (!p.ok) return usageError('yes', p.error, '');
  const words = args[0] === '--' ? args.slice(1) : args;
  const line = `${words.length > 0 ? words.join(' ') : 'y'}\n`;
  return { stdout: line.repeat(YES_LINES), stderr: '', exitCode: 0 };
};
