/**
 * du (GNU coreutils 9 src/du.c) over the host's Vfs, as on an ext4 disk with 4 KiB blocks: a
 * directory takes one block, a file its size rounded up to whole blocks, a symlink none (a fast
 * symlink). Options -s -a -c -h -k -m -b, --apparent-size and -d/--max-depth. Directories are
 * walked in name order (a real disk's readdir order is its own, as in find); a path met twice
 * (an operand inside an earlier one) is counted and printed once, as du's hard-link/cycle check does.
 */
import { resolvePath } from '../../sim/node/vfs.js';
import type { CommandFn } from '../types.js';
import { getopt, has, Out, usageError, value } from './util.js';

const BLOCK = 4096;

/** coreutils human_readable with human_ceiling | human_autoscale | human_base_1024 (du -h). */
export function humanCeil(bytes: number): string {
  if (bytes < 1024) return String(bytes);
  const units = 'KMGTPE';
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  if (v < 10) {
    const t = Math.ceil(v * 10 - 1e-9) / 10;
    if (t < 10) return `${t.toFixed(1)}${units[i]}`;
    v = t;
  }
  const n = Math.ceil(v - 1e-9);
  return n >= 1024 && i < units.length - 1 ? `1.0${units[i + 1]}` : `${n}${units[i]}`;
}

export const du: CommandFn = (ctx) => {
  const p = getopt('du', ctx.argv.slice(1), {
    short: 'sachkmbd:',
    long: {
      summarize: { key: 's', arg: false },
      all: { key: 'a', arg: false },
      total: { key: 'c', arg: false },
      'human-readable': { key: 'h', arg: false },
      bytes: { key: 'b', arg: false },
      'apparent-size': { key: 'A', arg: false },
      'max-depth': { key: 'd', arg: true },
    },
  });
  if (!p.ok) return usageError('du', p.error, '');
  const o = p.opts;
  const depthText = value(o, 'd');
  if (depthText !== undefined && !/^\d+$/.test(depthText)) return usageError('du', `du: invalid maximum depth ‘${depthText}’`, '');
  const summarize = has(o, 's');
  if (summarize && depthText !== undefined && depthText !== '0') {
    return usageError('du', `du: warning: summarizing conflicts with --max-depth=${depthText}`, '');
  }
  const maxDepth = summarize ? 0 : depthText !== undefined ? Number(depthText) : Infinity;
  const bytes = has(o, 'b');
  const apparent = bytes || has(o, 'A');
  // the last of -b -k -m -h decides the unit, as du's option loop does
  const unit = [...o.list].reverse().find(([k]) => 'bkmh'.includes(k))?.[0] ?? 'k';
  const show = (n: number): string => {
    if (unit === 'h') return humanCeil(n);
    if (unit === 'b') return String(n);
    return String(Math.ceil(n / (unit === 'm' ? 1024 * 1024 : 1024)));
  };
  const fs = ctx.fs;
  const out = new Out();
  const seen = new Set<string>();
  let total = 0;
  /** The usage of `abs` (shown as `shown`), printing what the options ask for; undefined when seen before. */
  const walk = (shown: string, abs: string, depth: number): number | undefined => {
    if (seen.has(abs)) return undefined;
    seen.add(abs);
    if (fs.isLink(abs)) {
      const n = apparent ? (fs.readlink(abs) ?? '').length : 0;
      if (has(o, 'a') && depth <= maxDepth) out.out(`${show(n)}\t${shown}\n`);
      return n;
    }
    if (fs.isDir(abs)) {
      let n = BLOCK;
      for (const name of fs.list(abs)) {
        const child = walk(`${shown.endsWith('/') ? shown : `${shown}/`}${name}`, abs === '/' ? `/${name}` : `${abs}/${name}`, depth + 1);
        if (child !== undefined) n += child;
      }
      if (depth <= maxDepth) out.out(`${show(n)}\t${shown}\n`);
      return n;
    }
    const size = Buffer.byteLength(fs.tryRead(abs) ?? '');
    const n = apparent ? size : Math.ceil(size / BLOCK) * BLOCK;
    if ((has(o, 'a') || depth === 0) && depth <= maxDepth) out.out(`${show(n)}\t${shown}\n`);
    return n;
  };
  for (const name of o.operands.length ? o.operands : ['.']) {
    const abs = resolvePath(ctx.cwd, name);
    if (!fs.exists(abs) && !fs.isLink(abs)) {
      out.err(`du: cannot access '${name}': No such file or directory`);
      continue;
    }
    total += walk(name, abs, 0) ?? 0;
  }
  if (has(o, 'c')) out.out(`${show(total)}\ttotal\n`);
  return out.result();
};
