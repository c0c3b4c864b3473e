/**
 * chmod (GNU coreutils src/chmod.c, lib/modechange.c): octal modes and symbolic ones
 * (`u+x`, `go-w`, `a=r`, `+x`, comma-separated), `-R` through directories. Files keep their mode
 * in the Vfs; directories have none to keep (they always read 755), so a directory operand is
 * accepted and its files change only with -R.
 */
import { resolvePath, type Vfs } from '../../sim/node/vfs.js';
import type { CommandFn } from '../types.js';
import { getopt, has, Out, usageError } from './util.js';

/** The new mode, or undefined for an invalid mode string. */
export function applyMode(spec: string, mode: number): number | undefined {
  if (/^[0-7]{1,4}$/.test(spec)) return parseInt(spec, 8);
  let m = mode;
  for (const clause of spec.split(',')) {
    const c = /^([ugoa]*)([-+=])([rwxXst]*)$/.exec(clause);
    if (!c) return undefined;
    const who = c[1] === '' || c[1]!.includes('a') ? 'ugo' : c[1]!;
    let bits = 0;
    for (const ch of c[3]!) bits |= ch === 'r' ? 4 : ch === 'w' ? 2 : ch === 'x' || ch === 'X' ? 1 : 0;
    for (const w of who) {
      const shift = w === 'u' ? 6 : w === 'g' ? 3 : 0;
      if (c[2] === '+') m |= bits << shift;
      else if (c[2] === '-') m &= ~(bits << shift);
      else m = (m & ~(7 << shift)) | (bits << shift);
    }
  }
  return m;
}

export const chmod: CommandFn = (ctx) => {
  const args = ctx.argv.slice(1);
  // a leading `-x` / `-w` is a mode, not an option (chmod's own argument scan)
  const modeIdx = args.findIndex((a) => !/^-[Rvcf]+$/.test(a) && a !== '--recursive');
  const p = getopt('chmod', args.filter((_, i) => i !== modeIdx), { short: 'Rvcf', long: { recursive: { key: 'R', arg: false } } });
  if (!p.ok) return usageError('chmod', p.error, '');
  const spec = args[modeIdx];
  if (spec === undefined) return usageError('chmod', 'chmod: missing operand', '');
  if (p.opts.operands.length === 0) return usageError('chmod', `chmod: missing operand after ‘${spec}’`, '');
  if (applyMode(spec, 0o644) === undefined) return usageError('chmod', `chmod: invalid mode: ‘${spec}’`, '');
  const out = new Out();
  const fs = ctx.fs;
  const change = (v: Vfs, abs: string): void => {
    if (v.isDir(abs)) {
      if (has(p.opts, 'R')) for (const n of v.list(abs)) change(v, `${abs === '/' ? '' : abs}/${n}`);
      return;
    }
    const st = v.stat(abs);
    if (st) v.write(abs, st.content, applyMode(spec, st.mode & 0o7777));
  };
  for (const name of p.opts.operands) {
    const abs = resolvePath(ctx.cwd, name);
    if (!fs.exists(abs)) {
      out.err(`chmod: cannot access '${name}': No such file or directory`);
      continue;
    }
    change(fs, abs);
  }
  return out.result();
};
