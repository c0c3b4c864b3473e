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
import { busyboxOpts, isBusybox } from './busybox.js';

const CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * In the busybox image it is busybox 1.36.1's applet (debianutils/mktemp.c): getopt32 "dqtp:u"
 * with at most one TEMPLATE, `tmp.XXXXXX` under $TMPDIR or /tmp by default, -t or -p prefixing the
 * directory, and glibc's mkstemp rules: the template must end in six X's, else EINVAL, which
 * bb_perror_nomsg_and_die prints as `mktemp: Invalid argument` (silent with -q), status 1.
 */
export const mktemp: CommandFn = (ctx) => {
  const bb = isBusybox(ctx);
  if (bb) {
    const b = busyboxOpts('mktemp', ctx.argv.slice(1), { short: 'dqtp:u', long: { directory: { key: 'd', arg: false }, quiet: { key: 'q', arg: false }, 'dry-run': { key: 'u', arg: false } } });
    if (!b.ok) return b.result;
  }
  const p = getopt('mktemp', ctx.argv.slice(1), bb ? { short: 'dqtp:u' } : { short: 'dup:tq', long: { directory: { key: 'd', arg: false }, 'dry-run': { key: 'u', arg: false }, tmpdir: { key: 'p', arg: true }, quiet: { key: 'q', arg: false } } });
  if (!p.ok) return usageError('mktemp', p.error, '');
  const template = p.opts.operands[0] ?? (bb ? 'tmp.XXXXXX' : 'tmp.XXXXXXXXXX');
  const xs = /X+$/.exec(template)?.[0].length ?? 0;
  if (bb && xs < 6) return { stdout: '', stderr: has(p.opts, 'q') ? '' : 'mktemp: Invalid argument\n', exitCode: 1 };
  if (xs < 3) return { stdout: '', stderr: `mktemp: too few X's in template ‘${template}’\n`, exitCode: 1 };
  const tmpdir = ctx.env['TMPDIR'] || '/tmp';
  const dir = bb
    ? (value(p.opts, 'p') ?? (p.opts.operands[0] === undefined || has(p.opts, 't') ? tmpdir : ''))
    : (value(p.opts, 'p') ?? (p.opts.operands[0] === undefined || has(p.opts, 't') ? (ctx.env['TMPDIR'] ?? '/tmp') : ''));
  // busybox replaces only the last six X's (glibc's __gen_tempname)
  const randLen = bb ? 6 : xs;
  const fs = ctx.fs;
  for (let attempt = 0; attempt < 100; attempt++) {
    let h = fnv(`${ctx.now()}/${template}/${attempt}/${fs.list(resolvePath(ctx.cwd, dir || '.')).length}`);
    let rand = '';
    for (let i = 0; i < randLen; i++) {
      rand += CHARS[h % CHARS.length];
      h = Math.imul(h ^ (i + 0x9e37), 0x01000193) >>> 0;
    }
    const name = `${dir ? `${dir.replace(/\/+$/, '')}/` : ''}${template.slice(0, template.length - randLen)}${rand}`;
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
