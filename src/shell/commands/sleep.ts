/**
 * sleep — GNU coreutils src/sleep.c: the sum of NUMBER[smhd] operands, each read by strtod
 * (decimal or hexadecimal, an exponent, `inf`/`infinity`), non-negative. A number too large for a
 * double is accepted (`xstrtod (…) || errno == ERANGE`) and means sleeping for ever. The simulator
 * does not wait: the result carries advanceMs and the interpreter moves the clock by that much,
 * within the line's budget of simulated time (shell/budget.ts); beyond it (Infinity included) the
 * line ends as Ctrl-C would end it and the clock does not move.
 */
import type { CommandFn } from '../types.js';
import type { ShellResult } from './types.js';

/** strtod's reading of a whole operand without its suffix; undefined when it is not a number. */
export function strtodSeconds(s: string): number | undefined {
  if (/^(inf|infinity)$/i.test(s)) return Infinity;
  const hex = /^0x([0-9a-f]*)(?:\.([0-9a-f]*))?(?:p([-+]?\d+))?$/i.exec(s);
  if (hex && (hex[1] !== '' || (hex[2] ?? '') !== '')) {
    const frac = hex[2] ?? '';
    const mant = parseInt(`${hex[1] || '0'}${frac}`, 16) / 16 ** frac.length;
    return mant * 2 ** Number(hex[3] ?? 0);
  }
  if (!/^(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s)) return undefined;
  return Number(s);
}

export const sleep: CommandFn = (ctx): ShellResult => {
  const args = ctx.argv.slice(1);
  if (args.length === 0) return { stdout: '', stderr: "sleep: missing operand\nTry 'sleep --help' for more information.\n", exitCode: 1 };
  let total = 0;
  for (const a of args) {
    const m = /^(.*?)([smhd]?)$/.exec(a)!;
    const n = strtodSeconds(m[1]!);
    if (n === undefined || !(n >= 0)) return { stdout: '', stderr: `sleep: invalid time interval ‘${a}’\nTry 'sleep --help' for more information.\n`, exitCode: 1 };
    total += n * { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as '']! * 1000;
  }
  return { stdout: '', stderr: '', exitCode: 0, advanceMs: Number.isFinite(total) ? Math.round(total) : Infinity };
};
