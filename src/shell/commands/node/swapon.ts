/**
 * `swapon` (util-linux 2.39, sys-utils/swapon.c): `-a` activates the swap entries of /etc/fstab,
 * `swapon PATH` one area, and `swapon` / `--show` list the active ones (NAME TYPE SIZE USED PRIO);
 * `-s` prints the kernel's /proc/swaps summary.
 */
import type { CommandFn, CommandResult } from '../../types.js';
import { SWAP_KIB, activeSwaps, fstabSwaps, procSwaps, setSwap } from '../../../sim/node/runtime.js';
import { isRoot, nodeEnv, notInstalled } from './host.js';

/** util-linux size_to_human_string for the swap sizes the lab has (bytes → 2G, 0B). */
function human(bytes: number): string {
  if (bytes === 0) return '0B';
  const units = ['B', 'K', 'M', 'G', 'T'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  const r = Math.round(v * 10) / 10;
  return `${Number.isInteger(r) ? r : r.toFixed(1)}${units[i]}`;
}

function show(paths: readonly string[]): string {
  if (paths.length === 0) return '';
  const rows = [['NAME', 'TYPE', 'SIZE', 'USED', 'PRIO'], ...paths.map((p, i) => [p, p.startsWith('/dev/') ? 'partition' : 'file', human(SWAP_KIB * 1024), '0B', String(-2 - i)])];
  const w = [0, 1, 2, 3, 4].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => (c < 2 ? cell.padEnd(w[c]!) : cell.padStart(w[c]!))).join(' ').trimEnd() + '\n').join('');
}

export const swapon: CommandFn = (ctx): CommandResult => {
  const env = nodeEnv(ctx);
  if (!env) return notInstalled(ctx);
  const { host } = env;
  const args = ctx.argv.slice(1);
  if (args.length === 0 || args.includes('--show')) return { stdout: show(activeSwaps(host)), stderr: '', exitCode: 0 };
  if (args.includes('-s') || args.includes('--summary')) return { stdout: activeSwaps(host).length ? procSwaps(host) : '', stderr: '', exitCode: 0 };
  const all = args.some((a) => a === '-a' || a === '--all');
  const paths = all ? fstabSwaps(host).filter((p) => host.fs.isFile(p) && !activeSwaps(host).includes(p)) : args.filter((a) => !a.startsWith('-'));
  if (!isRoot(ctx)) return { stdout: '', stderr: 'swapon: Not superuser.\n', exitCode: 1 };
  let err = '';
  let rc = 0;
  for (const p of paths) {
    if (!host.fs.isFile(p)) {
      err += `swapon: cannot open ${p}: No such file or directory\n`;
      rc = 4;
    } else if (activeSwaps(host).includes(p)) {
      err += `swapon: ${p}: swapon failed: Device or resource busy\n`;
      rc = 4;
    } else setSwap(host, p, true);
  }
  env.cluster.touchHosts();
  return { stdout: '', stderr: err, exitCode: rc };
};
