/** which — debianutils which: the path of each command found, nothing for unknown ones (exit 1 if any is missing). */
import type { CommandFn } from '../types.js';
import { shellExtras } from './types.js';

export const which: CommandFn = (ctx) => {
  const resolve = shellExtras(ctx).resolveCommand ?? (() => undefined);
  const names = ctx.argv.slice(1).filter((a) => a !== '-a' && a !== '-s');
  if (names.length === 0) return { stdout: '', stderr: '', exitCode: 1 };
  let out = '';
  let status = 0;
  for (const n of names) {
    const p = n.includes('/') ? (ctx.fs.isFile(n) ? n : undefined) : resolve(n);
    if (p === undefined) status = 1;
    else out += `${p}\n`;
  }
  return { stdout: out, stderr: '', exitCode: status };
};
