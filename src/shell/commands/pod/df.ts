/**
 * df in the busybox image (coreutils/df.c, busybox 1.36.1): the container's mount table, every
 * file system with blocks (-a also the empty ones), `%-20s %9s %9s %9s %3u%% %s` under
 * `Filesystem           1K-blocks      Used Available Use% Mounted on` (-h: `Size`, values through
 * make_human_readable_str; -m: `1M-blocks`). The mounts are what containerd and the kubelet give
 * a container: the overlay root (the node's disk), the /dev tmpfs and shm (64 MiB), the kubelet's
 * bind mounts of /etc/hosts, /dev/termination-log, /etc/hostname and /etc/resolv.conf from the
 * node's disk, the pod's volumes (secret, projected and Memory emptyDir volumes on tmpfs, the rest
 * on the node's disk), and containerd's masked paths that exist on an Ubuntu 24.04 x86 node
 * (oci/spec_opts.go defaultUnixMasked: tmpfs over /proc/acpi, /proc/scsi, /sys/firmware and
 * /sys/devices/virtual/powercap, /dev/null bound over /proc/kcore, /proc/keys, /proc/timer_list).
 * The numbers of the disk are the node's (node/mounts.ts).
 */
import type { Volume } from '../../../sim/api/types.js';
import type { CommandFn } from '../../types.js';
import { busyboxOpts } from '../busybox.js';
import { memTotalKiB } from '../node/processes.js';
import { nodeMounts } from '../node/mounts.js';
import { has } from '../util.js';
import { bbHumanReadable } from './free.js';
import { podContainerNode } from './uname.js';

interface Row {
  source: string;
  target: string;
  size: number;
  used: number;
  avail: number;
}

export const df: CommandFn = (ctx) => {
  const env = podContainerNode(ctx);
  const ct = env?.container;
  if (!env || !ct) return { stdout: '', stderr: `${ctx.argv[0]}: not found\n`, exitCode: 127 };
  const b = busyboxOpts('df', ctx.argv.slice(1), { short: 'PkmhTaiB:t:' });
  if (!b.ok) return b.result;
  const mem = memTotalKiB(env.cluster, env.host);
  const root = nodeMounts(env.cluster, env.host).find((m) => m.target === '/');
  const disk = (source: string, target: string): Row => ({ source, target, size: root?.size ?? 0, used: root?.used ?? 0, avail: root?.avail ?? 0 });
  const tmpfs = (source: string, target: string, size: number, used = 0): Row => ({ source, target, size, used, avail: size - used });
  const volume = (v: Volume | undefined, target: string): Row => {
    const memory = v?.secret || v?.projected || (v?.emptyDir as { medium?: string } | undefined)?.medium === 'Memory';
    return memory ? tmpfs('tmpfs', target, mem, 12) : disk(root?.source ?? '/dev/vda1', target);
  };
  const dev = root?.source ?? '/dev/vda1';
  const rows: Row[] = [
    disk('overlay', '/'),
    tmpfs('tmpfs', '/dev', 65_536),
    ...(ct.volumeMounts ?? []).map((m) => volume((env.pod.spec.volumes ?? []).find((v) => v.name === m.name), m.mountPath)),
    disk(dev, '/etc/hosts'),
    disk(dev, '/dev/termination-log'),
    disk(dev, '/etc/hostname'),
    disk(dev, '/etc/resolv.conf'),
    tmpfs('shm', '/dev/shm', 65_536),
    tmpfs('tmpfs', '/proc/acpi', Math.round(mem / 2)),
    tmpfs('tmpfs', '/proc/kcore', 65_536),
    tmpfs('tmpfs', '/proc/keys', 65_536),
    tmpfs('tmpfs', '/proc/timer_list', 65_536),
    tmpfs('tmpfs', '/proc/scsi', Math.round(mem / 2)),
    tmpfs('tmpfs', '/sys/firmware', Math.round(mem / 2)),
    tmpfs('tmpfs', '/sys/devices/virtual/powercap', Math.round(mem / 2)),
  ];
  const human = has(b.opts, 'h');
  const unit = human ? 0 : has(b.opts, 'm') ? 1 << 20 : 1024;
  let out = `Filesystem           ${human ? '     Size' : unit === 1024 ? '1K-blocks' : '1M-blocks'}      Used Available Use% Mounted on\n`;
  for (const r of rows) {
    // (used * 100 + total / 2) / total: rounded, where GNU df rounds up
    const pct = r.used + r.avail === 0 ? 0 : Math.floor((r.used * 100 + Math.floor((r.used + r.avail) / 2)) / (r.used + r.avail));
    const n = (kib: number): string => bbHumanReadable(kib * 1024, unit).padStart(9);
    out += `${r.source.length > 20 ? `${r.source}\n${' '.repeat(20)}` : r.source.padEnd(20)} ${n(r.size)} ${n(r.used)} ${n(r.avail)} ${String(pct).padStart(3)}% ${r.target}\n`;
  }
  return { stdout: out, stderr: '', exitCode: 0 };
};
