/** whoami — GNU coreutils src/whoami.c: the effective user's name. */
import type { CommandFn } from '../types.js';

export const whoami: CommandFn = (ctx) => {
  if (ctx.argv.length > 1) return { stdout: '', stderr: `whoami: extra operand ‘${ctx.argv[1]}’\nTry 'whoami --help' for more information.\n`, exitCode: 1 };
  return { stdout: `${ctx.user}\n`, stderr: '', exitCode: 0 };
};
