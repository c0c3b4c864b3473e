/**
 * cat — GNU coreutils src/cat.c: concatenate files or stdin (`-`), with -n (number all lines,
 * `%6d\t`), -b (number non-blank), -E (`$` at line end), -s (squeeze blank lines), -A/-T (tabs as ^I).
 * In busybox containers busybox's coreutils/cat.c: options -nbvteAu, "can't open 'F'" and
 * "read error" for a directory (busybox.ts).
 */
import type { CommandFn } from '../types.js';
import { busyboxOpts, cantOpen, isBusybox } from './busybox.js';
import { getopt, has, Out, readInput, type ParsedOpts } from './util.js';

const SPEC = {
  short: 'nbEsTAv',
  long: {
    number: { key: 'n', arg: false },
    'number-nonblank': { key: 'b', arg: false },
    'show-ends': { key: 'E', arg: false },
    'squeeze-blank': { key: 's', arg: false },
    'show-tabs': { key: 'T', arg: false },
    'show-all': { key: 'A', arg: false },
  },
};

export const cat: CommandFn = (ctx) => {
  const bb = isBusybox(ctx);
  let o: ParsedOpts;
  if (bb) {
    const p = busyboxOpts('cat', ctx.argv.slice(1), { short: 'etvAnbu' });
    if (!p.ok) return p.result;
    o = p.opts;
  } else {
    const p = getopt('cat', ctx.argv.slice(1), SPEC);
    if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'cat --help' for more information.\n`, exitCode: 1 };
    o = p.opts;
  }
  const numberNonBlank = has(o, 'b');
  const number = has(o, 'n') && !numberNonBlank;
  const ends = has(o, 'E') || has(o, 'A') || has(o, 'e');
  const tabs = has(o, 'T') || has(o, 'A') || has(o, 't');
  const squeeze = has(o, 's');
  const plain = !number && !numberNonBlank && !ends && !tabs && !squeeze;
  const out = new Out();
  const files = o.operands.length > 0 ? o.operands : ['-'];
  let lineNo = 0;
  let prevBlank = false;
  // GNU cat keeps numbering and squeezing state across files.
  for (const f of files) {
    const r = readInput(ctx, f);
    if (!r.ok) {
      out.err(!bb ? `cat: ${f}: ${r.error}` : r.error === 'Is a directory' ? 'cat: read error: Is a directory' : cantOpen('cat', f, r.error));
      continue;
    }
    if (plain) {
      out.out(r.text);
      continue;
    }
    const parts = r.text.split('\n');
    parts.forEach((line, idx) => {
      const last = idx === parts.length - 1;
      if (last && line === '') return;
      const blank = line === '' && !last;
      if (squeeze && blank && prevBlank) return;
      prevBlank = blank;
      let s = tabs ? line.replace(/\t/g, '^I') : line;
      if (number || (numberNonBlank && line !== '')) s = `${String(++lineNo).padStart(6)}\t${s}`;
      if (!last) s += ends ? '$\n' : '\n';
      out.out(s);
    });
  }
  return out.result();
};
