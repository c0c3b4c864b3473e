/** history — bash's builtin listing: `%5d  command` per line from the session's history; `history N` shows the last N. */
import type { CommandFn } from '../types.js';
import { shellExtras } from './types.js';

export const history: CommandFn = (ctx) => {
  const list = shellExtras(ctx).history ?? [];
  const arg = ctx.argv[1];
  let start = 0;
  if (arg !== undefined) {
    if (!/^\d+$/.test(arg)) return { stdout: '', stderr: `bash: history: ${arg}: numeric argument required\n`, exitCode: 1 };
    start = Math.max(0, list.length - Number(arg));
  }
  let out = '';
  for (let i = start; i < list.length; i++) out += `${String(i + 1).padStart(5)}  ${list[i]}\n`;
  return { stdout: out, stderr: '', exitCode: 0 };
};
