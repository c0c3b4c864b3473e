/**
 * head — GNU coreutils src/head.c: -n N (default 10), -n -N (all but the last N), -c N, the
 * obsolete -N form (-c counting bytes, util/bytes.ts), and `==> file <==` headers when several files are given. In busybox
 * containers busybox's coreutils/head.c: plain getopt (no long options), `head: F: ERRNO`, and the
 * blank line before a header follows any earlier operand, even one that failed to open.
 */
import { byteLength, sliceBytes } from '../../util/bytes.js';
import type { CommandFn } from '../types.js';
import { busyboxOpts, isBusybox } from './busybox.js';
import { busyboxCount, countError, gnuCount } from './size-suffix.js';
import { getopt, has, Out, readInput, seedOf, type OptResult } from './util.js';
import { RANDOM_DEVICES, randomBytes } from './devices.js';

/** The most NUL bytes `head -c N /dev/zero` writes here (16 MiB). */
const ZERO_CAP = 1 << 24;

export const head: CommandFn = (ctx) => {
  const args = ctx.argv.slice(1).map((a, i) => (i === 0 && /^-\d+$/.test(a) ? `-n${a.slice(1)}` : a));
  const bb = isBusybox(ctx);
  let p: OptResult;
  if (bb) {
    const b = busyboxOpts('head', args, { short: 'n:c:qv' }, 1, false);
    if (!b.ok) return b.result;
    p = b;
  } else {
    p = getopt('head', args, {
      short: 'n:c:qv',
      long: { lines: { key: 'n', arg: true }, bytes: { key: 'c', arg: true }, quiet: { key: 'q', arg: false }, silent: { key: 'q', arg: false }, verbose: { key: 'v', arg: false } },
    });
  }
  if (!p.ok) return { stdout: '', stderr: `${p.error}\nTry 'head --help' for more information.\n`, exitCode: 1 };
  const o = p.opts;
  let mode: 'n' | 'c' = 'n';
  let spec = '10';
  for (const [k, v] of o.list) if (k === 'n' || k === 'c') [mode, spec] = [k, v];
  const allBut = spec.startsWith('-');
  const count = (bb ? busyboxCount : gnuCount)(allBut ? spec.slice(1) : spec);
  if (!count.ok) return { stdout: '', stderr: countError('head', spec, mode, bb, count.overflow), exitCode: 1 };
  const n = count.n;
  const files = o.operands.length > 0 ? o.operands : ['-'];
  const headers = has(o, 'v') || (files.length > 1 && !has(o, 'q'));
  const out = new Out();
  let first = true;
  for (const f of files) {
    // /dev/zero never ends: `head -c N /dev/zero` is how a script makes an N-byte file
    if (f === '/dev/zero' && mode === 'c' && !allBut) {
      if (headers) out.out(`${first ? '' : '\n'}==> ${f} <==\n`);
      first = false;
      // a simulated line holds at most ZERO_CAP bytes of it (`head -c 1G /dev/zero` must not exhaust memory)
      out.out('\0'.repeat(Math.min(n, ZERO_CAP)));
      continue;
    }
    // nor do the random devices: N bytes from the seeded source (`head -c 16 /dev/urandom | base64`)
    if (RANDOM_DEVICES.has(f) && mode === 'c' && !allBut && ctx.fs.stat(f)?.rdev) {
      if (headers) out.out(`${first ? '' : '\n'}==> ${f} <==\n`);
      first = false;
      out.out(randomBytes(seedOf(ctx), Math.min(n, ZERO_CAP)));
      continue;
    }
    const r = readInput(ctx, f);
    if (!r.ok && bb) {
      // busybox reads a directory it opened and reports the failed read as EIO (recorded)
      out.err(`head: ${f}: ${r.error === 'Is a directory' ? 'Input/output error' : r.error}`);
      first = false;
      continue;
    }
    if (!r.ok) {
      out.err(`head: ${r.error === 'Is a directory' ? `error reading '${f}'` : `cannot open '${f}' for reading`}: ${r.error}`);
      continue;
    }
    if (headers) out.out(`${first ? '' : '\n'}==> ${f === '-' ? 'standard input' : f} <==\n`);
    first = false;
    const t = r.text;
    if (mode === 'c') {
      // bytes, not characters: `head -c 2` of `hé` keeps half of the é (head.c reads bytes)
      out.out(allBut ? sliceBytes(t, 0, Math.max(0, byteLength(t) - n)) : sliceBytes(t, 0, n));
      continue;
    }
    const pieces = t.split(/(?<=\n)/);
    if (pieces[pieces.length - 1] === '') pieces.pop();
    out.out((allBut ? pieces.slice(0, Math.max(0, pieces.length - n)) : pieces.slice(0, n)).join(''));
  }
  return out.result();
};
