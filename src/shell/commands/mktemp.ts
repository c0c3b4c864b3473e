/**
 * mktemp (GNU coreutils src/mktemp.c): a new file (or with -d a directory) named from a template
 * whose trailing X's become random characters, `tmp.XXXXXXXXXX` in $TMPDIR or /tmp by default;
 * `-u` only prints the name, `-p DIR`/`--tmpdir` choose the directory. The characters come from
 * the simulated clock and the names already there, so a session replays the same names.
 */
import { resolvePath } from '../../sim/node/vfs.js';
import type { CommandFn } from '../types.js';
import { fnv } from './node/host.js';
import { getopt, has, usageError, value } from './util.js';

const CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export const mktemp: CommandFn = (ctx) => {
  const p = getopt('mktemp', ctx.argv.slice(1), { short: 'dup:tq', long: { directory: { key: 'd', arg: false }, 'dry-run': { key: 'u', arg: false }, tmpdir: { key: 'p', arg: true }, quiet: { key: 'q', arg: false } } });
  if (!p.ok) return usageError('mktemp', p.error, '');
  const template = p.opts.operands[0] ?? 'tmp.XXXXXXXXXX';
  const xs = /X+$/.exec(template)?.[0].length ?? 0;
  if (xs < 3) return { stdout: '', stderr: `mktemp: too few X's in template ‘${template}’\n`, exitCode: 1 };
  const dir = value(p.opts, 'p') ?? (p.opts.operands[0] === undefined || has(p.opts, 't') ? (ctx.env['TMPDIR'] ?? '/tmp') : '');
  const fs = ctx.fs;
  for (let attempt = 0; attempt < 100; attempt++) {
    let h = fnv(`${ctx.now()}/${template}/${attempt}/${fs.list(resolvePath(ctx.cwd, dir || '.')).length}`);
    let rand = '';
    for (let i = 0; i < xs; i++) {
      rand += CHARS[h % CHARS.length];
      h = Math.imul(h ^ (i + 0x9e37), 0x01000193) >>> 0;
    }
    const name = `${dir ? `${dir.replace(/\/+$/, '')}/` : ''}${template.slice(0, template.length - xs)}${rand}`;
    const abs = resolvePath(ctx.cwd, name);
    if (fs.exists(abs)) continue;
    if (!has(p.opts, 'u')) {
      if (has(p.opts, 'd')) fs.mkdir(abs);
      else fs.write(abs, '', 0o600);
    }
    return { stdout: `${name}\n`, stderr: '', exitCode: 0 };
  }
  return { stdout: '', stderr: `mktemp: failed to create file via template ‘${template}’: File exists\n`, exitCode: 1 };
};
