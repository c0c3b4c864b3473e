/**
 * free in the busybox image (procps/free.c, busybox 1.36.1): sysinfo(2) and /proc/meminfo are the
 * node's (a container sees its node's memory, node/free.ts memoryFigures). Only argv[1] is looked
 * at: -b -k (default) -m -g or -h, any other option the bare usage (status 1); columns %12s after
 * a 7-wide label, values through make_human_readable_str (rounded to the unit; -h one decimal).
 */
import type { CommandFn } from '../../types.js';
import { busyboxUsageError } from '../busybox.js';
import { memoryFigures } from '../node/free.js';
import { podNode } from './uname.js';

/** libbb make_human_readable_str(val, 1, unit): rounded to `unit`, or with unit 0 one decimal and K/M/G. */
export function bbHumanReadable(bytes: number, unit: number): string {
  if (bytes === 0) return '0';
  if (unit) return String(Math.floor((bytes + Math.floor(unit / 2)) / unit));
  const units = ['', 'K', 'M', 'G', 'T', 'P'];
  let val = bytes;
  let frac = 0;
  let u = 0;
  while (val >= 1024) {
    frac = Math.floor((((val % 1024) * 10) + 512) / 1024);
    val = Math.floor(val / 1024);
    u++;
  }
  if (frac >= 10) {
    val++;
    frac = 0;
  }
  return u === 0 ? String(val) : `${val}.${frac}${units[u]}`;
}

export const free: CommandFn = (ctx) => {
  const env = podNode(ctx);
  if (!env) return { stdout: '', stderr: `${ctx.argv[0]}: not found\n`, exitCode: 127 };
  const a = ctx.argv[1];
  if (a === '--help') return busyboxUsageError('free', 0);
  let unit = 1024;
  if (a?.startsWith('-')) {
    const u = ({ b: 1, k: 1024, m: 1 << 20, g: 1 << 30, h: 0 } as Record<string, number>)[a[1] ?? ''];
    if (u === undefined) return busyboxUsageError('free');
    unit = u;
  }
  const m = memoryFigures(env.cluster, env.host);
  const cells = (kibs: number[]): string => kibs.map((k) => bbHumanReadable(k * 1024, unit).padStart(12)).join('');
  const out =
    `       ${['total', 'used', 'free', 'shared', 'buff/cache', 'available'].map((h) => h.padStart(12)).join('')}\n` +
    `Mem:   ${cells([m.total, m.used, m.free, m.shared, m.cache, m.available])}\n` +
    `Swap:  ${cells([m.swapTotal, 0, m.swapTotal])}\n`;
  return { stdout: out, stderr: '', exitCode: 0 };
};
