/** hostname — net-tools/hostname: print the host's name (-s short form); setting it needs root. */
import type { CommandFn } from '../types.js';
import { shellExtras } from './types.js';

export const hostname: CommandFn = (ctx) => {
  const name = shellExtras(ctx).hostname ?? (ctx.location.kind === 'pod' ? ctx.location.pod : ctx.location.host);
  const arg = ctx.argv[1];
  if (arg === '-s' || arg === '--short') return { stdout: `${name.split('.')[0]}\n`, stderr: '', exitCode: 0 };
  if (arg !== undefined && !arg.startsWith('-')) {
    if (ctx.user === 'root') return { stdout: '', stderr: '', exitCode: 0 };
    return { stdout: '', stderr: 'hostname: you must be root to change the host name\n', exitCode: 1 };
  }
  return { stdout: `${name}\n`, stderr: '', exitCode: 0 };
};
