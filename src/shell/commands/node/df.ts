/**
 * df (GNU coreutils 9 src/df.c) over the node's mount table (mounts.ts): the default and -h
 * (human_ceiling, powers of 1024), -k, -m, -T, -a (pseudo file systems too), -t/-x TYPE, --total
 * and FILE operands (the file system holding each). Column minimum widths and alignment are
 * df.c's field table: Filesystem 14 and Type 4 left-aligned, the numbers 5 and Use% 4 right-aligned.
 */
import { resolvePath } from '../../../sim/node/vfs.js';
import type { CommandFn } from '../../types.js';
import { getopt, has, Out, usageError, values } from '../util.js';
import { humanCeil } from '../du.js';
import { hostEnv, notInstalled } from './host.js';
import { DUMMY_TYPES, nodeMounts, type Mount } from './mounts.js';

/** The mount a path lives on: the longest mount point that is a prefix of it. */
function mountOf(mounts: readonly Mount[], abs: string): Mount | undefined {
  let best: Mount | undefined;
  for (const m of mounts) {
    const inside = m.target === '/' || abs === m.target || abs.startsWith(`${m.target}/`);
    if (inside && (!best || m.target.length >= best.target.length)) best = m;
  }
  return best;
}

export const df: CommandFn = (ctx) => {
  const env = hostEnv(ctx);
  if (!env) return notInstalled(ctx);
  const p = getopt('df', ctx.argv.slice(1), {
    short: 'ahkmTt:x:lPv',
    long: { all: { key: 'a', arg: false }, 'human-readable': { key: 'h', arg: false }, 'print-type': { key: 'T', arg: false }, type: { key: 't', arg: true }, 'exclude-type': { key: 'x', arg: true }, total: { key: 'total', arg: false }, local: { key: 'l', arg: false }, portability: { key: 'P', arg: false } },
  });
  if (!p.ok) return usageError('df', p.error, '');
  const o = p.opts;
  const human = has(o, 'h');
  const mega = !human && [...o.list].reverse().find(([k]) => k === 'k' || k === 'm')?.[0] === 'm';
  const only = values(o, 't');
  const exclude = values(o, 'x');
  const all = nodeMounts(env.cluster, env.host);
  const out = new Out();
  let rows: Mount[];
  if (o.operands.length) {
    rows = [];
    for (const f of o.operands) {
      const abs = resolvePath(ctx.cwd, f);
      if (!ctx.fs.exists(abs) && !all.some((m) => m.target === abs)) {
        out.err(`df: ${f}: No such file or directory`);
        continue;
      }
      const m = mountOf(all.filter((x) => x.size !== undefined), abs);
      if (m) rows.push(m);
    }
  } else rows = all.filter((m) => has(o, 'a') || (m.size !== undefined && !DUMMY_TYPES.has(m.type)));
  rows = rows.filter((m) => (only.length === 0 || only.includes(m.type)) && !exclude.includes(m.type));
  if (rows.length === 0) {
    if (o.operands.length === 0) out.err('df: no file systems processed');
    return out.result();
  }
  const num = (kib: number | undefined): string => (kib === undefined ? '-' : human ? (kib === 0 ? '0' : humanCeil(kib * 1024)) : String(mega ? Math.ceil(kib / 1024) : kib));
  const pcent = (m: Mount): string => (!m.size ? '-' : `${Math.ceil(((m.used ?? 0) * 100) / ((m.used ?? 0) + (m.avail ?? 0)) - 1e-9)}%`);
  const table: string[][] = [['Filesystem', ...(has(o, 'T') ? ['Type'] : []), human ? 'Size' : mega ? '1M-blocks' : '1K-blocks', 'Used', human ? 'Avail' : 'Available', 'Use%', 'Mounted on']];
  const line = (m: Mount): string[] => [m.source, ...(has(o, 'T') ? [m.type] : []), num(m.size), num(m.used), num(m.avail), pcent(m), m.target];
  for (const m of rows) table.push(line(m));
  if (has(o, 'total')) {
    const sum = (k: 'size' | 'used' | 'avail'): number => rows.reduce((a, m) => a + (m[k] ?? 0), 0);
    table.push(line({ source: 'total', type: '-', options: '', target: '-', size: sum('size'), used: sum('used'), avail: sum('avail') }));
  }
  const typed = has(o, 'T') ? 1 : 0;
  const mins = [14, ...(typed ? [4] : []), 5, 5, 5, 4, 0];
  const widths = mins.map((min, i) => Math.max(min, ...table.map((r) => r[i]!.length)));
  for (const r of table)
    out.out(
      `${r
        .map((cell, i) => (i === r.length - 1 ? cell : i <= typed ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join(' ')}\n`,
    );
  return out.result();
};
