/**
 * tac — GNU coreutils src/tac.c: files (or stdin) with their lines in reverse order. A last line
 * without a newline is joined to the one printed after it, as tac does.
 */
import type { CommandFn } from '../types.js';
import { getopt, Out, readInput, usageError } from './util.js';

export const tac: CommandFn = (ctx) => {
  const p = getopt('tac', ctx.argv.slice(1), { short: '' });
  if (!p.ok) return usageError('tac', p.error, '');
  const out = new Out();
  const names = p.opts.operands.length > 0 ? p.opts.operands : ['-'];
  for (const n of names) {
    const r = readInput(ctx, n);
    if (!r.ok) {
      out.err(r.error === 'Is a directory' ? `tac: ${n}: read error: Invalid argument` : `tac: failed to open '${n}' for reading: ${r.error}`);
      continue;
    }
    const recs = r.text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
    out.out(recs.reverse().join(''));
  }
  return out.result();
};
