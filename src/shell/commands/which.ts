/** which — debianutils which: the path of each command found, nothing for unknown ones (exit 1 if any is missing). */
import type { CommandFn } from '../types.js';
import { shellExtras } from './types.js';
import { busyboxOpts, busyboxUsageError, isBusybox } from './busybox.js';

/**
 * In the busybox image it is busybox 1.36.1's applet (debianutils/which.c): getopt32 "^-1a" (at
 * least one NAME, else the usage, status 1), silent for names it does not find (status 1).
 */
export const which: CommandFn = (ctx) => {
  const resolve = shellExtras(ctx).resolveCommand ?? (() => undefined);
  if (isBusybox(ctx)) {
    const b = busyboxOpts('which', ctx.argv.slice(1), { short: 'a' });
    if (!b.ok) return b.result;
    if (b.opts.operands.length === 0) return busyboxUsageError('which');
    // the image's applets are links in /bin (busybox --install), the first PATH entry holding them
    let out = '';
    let status = 0;
    for (const n of b.opts.operands) {
      const p = n.includes('/') ? (ctx.fs.isFile(n) ? n : undefined) : resolve(n)?.replace(/^\/usr\/bin\//, '/bin/');
      if (p === undefined) status = 1;
      else out += `${p}\n`;
    }
    return { stdout: out, stderr: '', exitCode: status };
  }
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
