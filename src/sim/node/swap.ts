/**
 * A node's active swap areas: the kernel's own state (swapon/swapoff, the boot's fstab read), which
 * /proc/swaps mirrors and the kubelet checks when it starts.
 */
import type { Host } from './host.js';

/** Size in KiB of a swap area, as /proc/swaps reports it (a 2 GiB swap file minus its header page). */
export const SWAP_KIB = 2097148;

/** Active swap areas, in activation order (the kernel's own state; /proc/swaps mirrors it). */
export function activeSwaps(host: Host): readonly string[] {
  return host.data.state.swaps ?? [];
}

/**
 * /proc/swaps as the kernel prints it (mm/swapfile.c swap_show): the path padded to 40 columns,
 * type, size and used in KiB, priority (-2 for the first area without a priority, then -3 …).
 */
export function procSwaps(host: Host): string {
  let s = 'Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n';
  activeSwaps(host).forEach((p, i) => {
    const pad = p.length < 40 ? 40 - p.length : 1;
    const type = p.startsWith('/dev/') ? 'partition' : 'file\t';
    s += `${p}${' '.repeat(pad)}${type}\t${SWAP_KIB}\t\t0\t\t${-2 - i}\n`;
  });
  return s;
}
