/**
 * tac — GNU coreutils src/tac.c: files (or stdin) with their lines in reverse order. A last line
 * without a newline is joined to the one printed after it, as tac does.
 */
import type { CommandFn } from '../types.js';
import { getopt, Out, readInput, usageError } from './util.js';
import { busyboxOpts, isBusybox } from './busybox.js';

export const tac: CommandFn = (ctx) => {
  // BusyBox tac (coreutils/tac.c, busybox 1.36.1): no options, and a file it cannot read is
  // bb_simple_perror_msg's `tac: NAME: ERROR`, status 1
  const bb = isBusybox(ctx);
  const p = bb ? busyboxOpts('tac', ctx.argv.slice(1), { short: '' }) : getopt('tac', ctx.argv.slice(1), { short: '' });
  if (!p.ok) return 'result' in p ? p.result : usageError('tac', p.error, '');
  const out = new Out();
  const names = p.opts.operands.length > 0 ? p.opts.operands : ['-'];
  for (const n of names) {
    const r = readInput(ctx, n);
    if (!r.ok) {
      out.err(bb ? `tac: ${n}: ${r.error}` : r.error === 'Is a directory' ? `tac: ${n}: read error: Invalid argument` : `tac: failed to open '${n}' for reading: ${r.error}`);
      continue;
    }
    const recs = r.text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
    out.out(recs.reverse().join(''));
  }
  return out.result();
};
