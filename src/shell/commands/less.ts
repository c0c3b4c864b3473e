/**
 * less / more without a terminal to page on: like the real ones when stdout is not a tty, they
 * copy their files (or stdin) to stdout — the simulator shows output in full and lets the
 * terminal scroll. Missing files get less's and more's wording and streams, with status 0 as
 * both exit when not paging (util-linux more.c, less main.c).
 */
import type { CommandFn } from '../types.js';
import { Out, readInput } from './util.js';

function pager(name: 'less' | 'more'): CommandFn {
  return (ctx) => {
    const files = ctx.argv.slice(1).filter((a) => !a.startsWith('-') && !a.startsWith('+'));
    const out = new Out();
    if (files.length === 0) {
      out.out(ctx.stdin);
      return out.result();
    }
    for (const f of files) {
      const r = readInput(ctx, f);
      if (r.ok) out.out(files.length > 1 && name === 'more' ? `::::::::::::::\n${f}\n::::::::::::::\n${r.text}` : r.text);
      // less without a terminal reports on stdout; more's directory notice is on stdout too
      else if (r.error === 'Is a directory') out.out(name === 'less' ? `${f} is a directory\n` : `\n*** ${f}: directory ***\n\n`);
      else if (name === 'less') out.out(`${f}: ${r.error}\n`);
      else out.err(`more: cannot open ${f}: ${r.error}`, 0);
    }
    // neither fails its exit status over a file it could not show
    return { ...out.result(), exitCode: 0 };
  };
}

export const less = pager('less');
export const more = pager('more');
