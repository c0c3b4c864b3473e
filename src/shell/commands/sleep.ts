/**
 * sleep — GNU coreutils src/sleep.c: sum of NUMBER[smhd] operands. The simulator does not wait:
 * the result carries advanceMs so the REPL moves its clock forward by that much.
 */
import type { CommandFn } from '../types.js';
import type { ShellResult } from './types.js';

export const sleep: CommandFn = (ctx): ShellResult => {
  const args = ctx.argv.slice(1);
  if (args.length === 0) return { stdout: '', stderr: "sleep: missing operand\nTry 'sleep --help' for more information.\n", exitCode: 1 };
  let total = 0;
  for (const a of args) {
    const m = /^(\d+\.?\d*|\.\d+|inf(?:inity)?)([smhd]?)$/.exec(a);
    if (!m) return { stdout: '', stderr: `sleep: invalid time interval ‘${a}’\nTry 'sleep --help' for more information.\n`, exitCode: 1 };
    const n = m[1]!.startsWith('inf') ? 86400 * 365 : Number(m[1]);
    total += n * { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as '']! * 1000;
  }
  return { stdout: '', stderr: '', exitCode: 0, advanceMs: Math.round(total) };
};
