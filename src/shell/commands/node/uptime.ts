/**
 * uptime (procps-ng 4.0 src/uptime.c, library/uptime.c procps_uptime_sprint and _sprint_short):
 * the time, how long the node has been up since it booted (sim/node/runtime.ts bootTime; a
 * `reboot` starts it again), the logged-in users (the learner's one ssh session) and load
 * averages derived from what runs on the node (the process table's CPU shares). `-p` pretty, `-s`
 * since.
 */
import type { CommandFn } from '../../types.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import { bootTime } from '../../../sim/node/runtime.js';
import { getopt, has, usageError } from '../util.js';
import { fnv, hostEnv, notInstalled } from './host.js';
import { processTable } from './processes.js';

const pad = (n: number): string => String(n).padStart(2, '0');

/** procps_uptime_sprint_short: "up 2 weeks, 3 days, 4 hours, 5 minutes". */
export function prettyUptime(secs: number): string {
  const parts: Array<[number, string]> = [
    [Math.floor(secs / (60 * 60 * 24 * 365 * 10)), 'decade'],
    [Math.floor(secs / (60 * 60 * 24 * 365)) % 10, 'year'],
    [Math.floor(secs / (60 * 60 * 24 * 7)) % 52, 'week'],
    [Math.floor(secs / (60 * 60 * 24)) % 7, 'day'],
    [Math.floor(secs / (60 * 60)) % 24, 'hour'],
  ];
  const out = parts.filter(([n]) => n > 0).map(([n, u]) => `${n} ${u}${n > 1 ? 's' : ''}`);
  const minutes = Math.floor(secs / 60) % 60;
  if (minutes > 0 || out.length === 0) out.push(`${minutes} minute${minutes !== 1 ? 's' : ''}`);
  return `up ${out.join(', ')}`;
}

/** procps_uptime_sprint: " 10:04:31 up 5 days,  4:02,  1 user,  load average: 0.21, 0.25, 0.18". */
export function uptimeLine(now: number, secs: number, users: number, loads: [number, number, number]): string {
  const d = new Date(now);
  let s = ` ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} up `;
  const days = Math.floor(secs / 86400);
  const hours = Math.floor(secs / 3600) % 24;
  const minutes = Math.floor(secs / 60) % 60;
  if (days) s += `${days} ${days > 1 ? 'days' : 'day'}, `;
  s += hours ? `${String(hours).padStart(2)}:${pad(minutes)}, ` : `${minutes} min, `;
  s += `${String(users).padStart(2)} ${users > 1 ? 'users' : 'user'}, `;
  return `${s} load average: ${loads.map((l) => l.toFixed(2)).join(', ')}`;
}

/**
 * The node's 1, 5 and 15 minute load averages: the run queue (the processes' CPU shares in cores),
 * smoothed differently per window. A container reads its node's (pod/uptime.ts).
 */
export function loadAverages(c: Cluster, host: Host, now: number): [number, number, number] {
  const load = processTable(c, host, 'uptime', bootTime(host, now)).reduce((a, pr) => a + pr.cpu, 0) / 100;
  const minute = Math.floor(now / 60_000);
  const wobble = (k: string, spread: number): number => load * (1 + ((fnv(`${host.name}/${k}/${minute}`) % 1000) / 1000 - 0.5) * spread);
  return [wobble('1', 0.6), wobble('5', 0.3), wobble('15', 0.1)];
}

/**
 * /proc/loadavg (fs/proc/loadavg.c): the three averages as `%lu.%02lu` (truncated fixed point),
 * runnable/total scheduling entities and the last pid handed out; uptime, top and a
 * `cat /proc/loadavg` agree.
 */
export function procLoadavg(c: Cluster, host: Host, now: number): string {
  const procs = processTable(c, host, 'cat', bootTime(host, now));
  const last = Math.max(1, ...procs.map((p) => p.pid));
  return `${loadAverages(c, host, now).map((l) => (Math.floor(l * 100) / 100).toFixed(2)).join(' ')} 1/${procs.length} ${last}\n`;
}

export const uptime: CommandFn = (ctx) => {
  const env = hostEnv(ctx);
  if (!env) return notInstalled(ctx);
  const p = getopt('uptime', ctx.argv.slice(1), { short: 'psV', long: { pretty: { key: 'p', arg: false }, since: { key: 's', arg: false }, version: { key: 'V', arg: false } } });
  if (!p.ok) return usageError('uptime', p.error, '');
  const { cluster: c, host } = env;
  const now = c.now();
  const boot = bootTime(host, now);
  if (has(p.opts, 'V')) return { stdout: 'uptime from procps-ng 4.0.4\n', stderr: '', exitCode: 0 };
  if (has(p.opts, 's')) {
    const b = new Date(boot);
    return { stdout: `${b.getUTCFullYear()}-${pad(b.getUTCMonth() + 1)}-${pad(b.getUTCDate())} ${pad(b.getUTCHours())}:${pad(b.getUTCMinutes())}:${pad(b.getUTCSeconds())}\n`, stderr: '', exitCode: 0 };
  }
  const secs = Math.max(0, Math.floor((now - boot) / 1000));
  if (has(p.opts, 'p')) return { stdout: `${prettyUptime(secs)}\n`, stderr: '', exitCode: 0 };
  // procps reads /proc/loadavg, whose averages are truncated to two decimals (procLoadavg)
  const loads = loadAverages(c, host, now).map((l) => Math.floor(l * 100) / 100) as [number, number, number];
  return { stdout: `${uptimeLine(now, secs, 1, loads)}\n`, stderr: '', exitCode: 0 };
};
