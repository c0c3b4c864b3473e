/**
 * uptime in the busybox image (procps/uptime.c, busybox 1.36.1): sysinfo(2) is the node's (its
 * boot time and load averages, node/uptime.ts), and a container has no utmp, so `0 users`:
 * ` HH:MM:SS up [N days, ]H:MM,  0 users,  load average: 0.21, 0.25, 0.18`; -s the boot time;
 * getopt32 "s", another option the glibc message and the usage.
 */
import type { CommandFn } from '../../types.js';
import { bootTime } from '../../../sim/node/runtime.js';
import { busyboxOpts } from '../busybox.js';
import { loadAverages } from '../node/uptime.js';
import { has } from '../util.js';
import { podNode } from './uname.js';

const two = (n: number): string => String(n).padStart(2, '0');

export const uptime: CommandFn = (ctx) => {
  const env = podNode(ctx);
  if (!env) return { stdout: '', stderr: `${ctx.argv[0]}: not found\n`, exitCode: 127 };
  const b = busyboxOpts('uptime', ctx.argv.slice(1), { short: 's' });
  if (!b.ok) return b.result;
  const now = env.cluster.now();
  const boot = bootTime(env.host, now);
  const secs = Math.max(0, Math.floor((now - boot) / 1000));
  if (has(b.opts, 's')) {
    const d = new Date(now - secs * 1000);
    return { stdout: `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}\n`, stderr: '', exitCode: 0 };
  }
  const d = new Date(now);
  let s = ` ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} up `;
  const days = Math.floor(secs / 86400);
  if (days) s += `${days} day${days !== 1 ? 's' : ''}, `;
  const minutes = Math.floor(secs / 60);
  const hours = Math.floor(minutes / 60) % 24;
  s += hours ? `${String(hours).padStart(2)}:${two(minutes % 60)}` : `${minutes % 60} min`;
  // LOAD_INT.LOAD_FRAC: the fixed-point averages truncated to two decimals
  const loads = loadAverages(env.cluster, env.host, now).map((l) => (Math.floor(l * 100) / 100).toFixed(2));
  return { stdout: `${s},  0 users,  load average: ${loads.join(', ')}\n`, stderr: '', exitCode: 0 };
};
