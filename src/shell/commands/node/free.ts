/**
 * free (procps-ng 4.0 free.c): memory from the node's capacity (its Node object), used by what
 * runs on it (the process table's resident sizes plus the kernel's share), and swap from the
 * node's active swap areas, so `free -h` shows swap disappear after `swapoff -a`. Units: -b -k
 * (default, KiB) -m -g and -h (procps scale_size: Bi/Ki/Mi/Gi with one decimal under 10), -t.
 */
import type { CommandFn } from '../../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import { activeSwaps, SWAP_KIB } from '../../../sim/node/swap.js';
import { fnv, hostEnv, notInstalled } from './host.js';
import { memTotalKiB, processTable } from './processes.js';
import { bootTime } from '../../../sim/node/runtime.js';
import { getopt, has, usageError } from '../util.js';

/** procps scale_size for -h: the largest unit that keeps the number at least 1. */
function human(kib: number): string {
  const units = ['Ki', 'Mi', 'Gi', 'Ti'];
  if (kib === 0) return '0B';
  let v = kib;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return v < 10 ? `${(Math.round(v * 10) / 10).toFixed(1)}${units[i]}` : `${Math.round(v)}${units[i]}`;
}

/** A node's memory in KiB as /proc/meminfo and sysinfo(2) give it (shared by pod/free.ts: a container sees its node's). */
export interface MemoryFigures {
  total: number;
  used: number;
  free: number;
  shared: number;
  cache: number;
  available: number;
  swapTotal: number;
}

/**
 * The node's memory: capacity from its Node object, used by what runs on it (the process table's
 * resident sizes plus the kernel's share), a page cache, and swap from its active swap areas.
 */
export function memoryFigures(c: Cluster, host: Host): MemoryFigures {
  const total = memTotalKiB(c, host);
  const rss = processTable(c, host, 'free', bootTime(host, c.now())).reduce((a, pr) => a + pr.rss, 0);
  const kernel = 180_000 + (fnv(`${host.name}/kernel`) % 40_000);
  const cache = Math.min(Math.round(total * 0.3), 1_100_000 + (fnv(`${host.name}/cache`) % 400_000));
  const shared = 2_000 + (fnv(`${host.name}/shm`) % 3_000);
  const used = Math.min(total - cache, rss + kernel);
  const free = total - used - cache;
  return { total, used, free, shared, cache, available: free + Math.round(cache * 0.85), swapTotal: activeSwaps(host).length * SWAP_KIB };
}

export const free: CommandFn = (ctx) => {
  const env = hostEnv(ctx);
  if (!env) return notInstalled(ctx);
  const p = getopt('free', ctx.argv.slice(1), { short: 'bkmghtw', long: { bytes: { key: 'b', arg: false }, kibi: { key: 'k', arg: false }, mebi: { key: 'm', arg: false }, gibi: { key: 'g', arg: false }, human: { key: 'h', arg: false }, total: { key: 't', arg: false }, wide: { key: 'w', arg: false } } });
  if (!p.ok) return usageError('free', p.error, '');
  const { total, used, free: freeMem, shared, cache, available, swapTotal } = memoryFigures(env.cluster, env.host);
  const fmt = (kib: number): string => {
    if (has(p.opts, 'h')) return human(kib);
    if (has(p.opts, 'b')) return String(kib * 1024);
    if (has(p.opts, 'm')) return String(Math.floor(kib / 1024));
    if (has(p.opts, 'g')) return String(Math.floor(kib / 1024 / 1024));
    return String(kib);
  };
  const row = (label: string, cells: number[]): string => `${label.padEnd(8)}${cells.map((v) => fmt(v).padStart(12)).join('')}`.trimEnd() + '\n';
  let out = `${''.padEnd(8)}${['total', 'used', 'free', 'shared', 'buff/cache', 'available'].map((h) => h.padStart(12)).join('')}\n`;
  out += row('Mem:', [total, used, freeMem, shared, cache, available]);
  out += row('Swap:', [swapTotal, 0, swapTotal]);
  if (has(p.opts, 't')) out += row('Total:', [total + swapTotal, used, freeMem + swapTotal]);
  return { stdout: out, stderr: '', exitCode: 0 };
};
