/**
 * top in the busybox image (procps/top.c, busybox 1.36.1 with defconfig's features: decimals,
 * SMP CPU and process columns, memory view): one frame per iteration of the container's PID
 * namespace. The Mem, CPU and load lines read the node's /proc (a container sees its node's
 * meminfo, stat and loadavg; node/free.ts, node/uptime.ts); the processes are the container's own
 * (sim/runtime/ps-tool.ts, as `ps` lists them), the exec'd shell and top itself, each
 * `%5u %5u %-8.8s %s  %.5s%3u.%c %3d%3u.%c COMMAND`. Sorted by %CPU, then VSZ (mult_lvl_cmp);
 * every process here is idle, so by VSZ, ties in PID order. Without -b real top redraws the
 * screen until `q`; here every frame is written as in batch mode, and -n (default 1 here) frames
 * are written one after another without the -d delay.
 */
import type { Node } from '../../../sim/api/types.js';
import type { CommandFn } from '../../types.js';
import { namespaceProcesses, psUser } from '../../../sim/runtime/ps-tool.js';
import { busyboxOpts } from '../busybox.js';
import { memoryFigures } from '../node/free.js';
import { loadAverages } from '../node/uptime.js';
import { fnv } from '../node/host.js';
import { processTable } from '../node/processes.js';
import { bootTime } from '../../../sim/node/runtime.js';
import { shellExtras } from '../types.js';
import { value } from '../util.js';
import { podContainerNode } from './uname.js';

/** VSZ in KiB of a program: busybox applets share the one binary's mapping; others a typical size. */
function vszOf(cmd: string): number {
  const prog = cmd.split(' ')[0]!.split('/').pop()!;
  if (prog === 'nginx:') return 11_000 + (fnv(cmd) % 600);
  return 4_300 + (fnv(prog) % 200);
}

/** smart_ulltoa5: at most five characters, a suffix (m, g) past 99999 KiB. */
function ulltoa5(kib: number): string {
  if (kib < 100_000) return String(kib).padStart(5);
  const m = Math.floor(kib / 1024);
  return m < 10_000 ? `${String(m).padStart(4)}m` : `${String(Math.floor(m / 1024)).padStart(4)}g`;
}

/** fmt_100percent_8: " N.N% " (tenths), "  100% " at the top. */
function pct8(tenths: number): string {
  if (tenths >= 1000) return '  100% ';
  const t = Math.floor(tenths / 100);
  const r = tenths % 100;
  return ` ${t ? String(t) : ' '}${Math.floor(r / 10)}.${r % 10}% `;
}

export const top: CommandFn = (ctx) => {
  const env = podContainerNode(ctx);
  const self = env?.container;
  if (!env || !self) return { stdout: '', stderr: `${ctx.argv[0]}: not found\n`, exitCode: 127 };
  const b = busyboxOpts('top', ctx.argv.slice(1), { short: 'bmHn:d:' });
  if (!b.ok) return b.result;
  const nRaw = value(b.opts, 'n');
  if (nRaw !== undefined && !/^\d+$/.test(nRaw)) return { stdout: '', stderr: `top: invalid number '${nRaw}'\n`, exitCode: 1 };
  const frames = Math.min(Math.max(1, Number(nRaw ?? '1')), 10);
  const { cluster: c, host } = env;
  const mem = memoryFigures(c, host);
  const now = c.now();
  const loads = loadAverages(c, host, now);
  const ncpu = Number.parseInt(String(c.store.get<Node>('Node', undefined, host.name)?.status?.capacity?.['cpu'] ?? ''), 10) || 2;
  const busy = Math.min(1000, Math.round((loads[0] / ncpu) * 1000));
  const usr = Math.round(busy * 0.6);
  const sys = busy - usr;
  const hostProcs = processTable(c, host, 'top', bootTime(host, now)).length;
  // the container's processes, the shell exec'd into it, top and the rest of its pipeline
  const shell = shellExtras(ctx).execShell;
  const me = psUser(env.pod, self);
  const own = namespaceProcesses(env.pod, self, false, c);
  const rows: Array<{ pid: number; ppid: number; user: string; cmd: string; state: string }> = [];
  let pid = 1;
  own.forEach((p, i) => {
    if (i > 0) pid += p.gap ?? 6 + (i % 3) * 3;
    rows.push({ pid, ppid: i === 0 ? 0 : 1, user: p.user, cmd: p.cmd, state: 'S' });
  });
  const shellPid = pid + 6 + (rows.length % 3) * 3;
  if (shell) rows.push({ pid: shellPid, ppid: 0, user: me, cmd: shell.join(' '), state: 'S' });
  const parent = shell ? shellPid : 0;
  let next = (shell ? shellPid : pid) + 6;
  rows.push({ pid: next, ppid: parent, user: me, cmd: ctx.argv.join(' '), state: 'R' });
  for (const peer of shellExtras(ctx).pipelinePeers ?? []) rows.push({ pid: ++next, ppid: parent, user: me, cmd: peer.join(' '), state: 'S' });
  const sorted = rows.map((r) => ({ ...r, vsz: vszOf(r.cmd) })).sort((a, b2) => b2.vsz - a.vsz || a.pid - b2.pid);
  let frame = `Mem: ${mem.total - mem.free}K used, ${mem.free}K free, ${mem.shared}K shrd, ${Math.round(mem.cache * 0.04)}K buff, ${mem.cache - Math.round(mem.cache * 0.04)}K cached\n`;
  frame += `CPU:${pct8(usr)}usr${pct8(sys)}sys${pct8(0)}nic${pct8(1000 - busy)}idle${pct8(0)}io${pct8(0)}irq${pct8(0)}sirq\n`;
  frame += `Load average: ${loads.map((l) => (Math.floor(l * 100) / 100).toFixed(2)).join(' ')} 1/${hostProcs} ${next}\n`;
  frame += '  PID  PPID USER     STAT   VSZ %VSZ CPU %CPU COMMAND\n';
  for (const r of sorted) {
    const pmem = Math.round((r.vsz * 1000) / mem.total);
    frame += `${String(r.pid).padStart(5)} ${String(r.ppid).padStart(5)} ${r.user.slice(0, 8).padEnd(8)} ${r.state.padEnd(3)}  ${ulltoa5(r.vsz)}${String(Math.floor(pmem / 10)).padStart(3)}.${pmem % 10} ${String(r.pid % ncpu).padStart(3)}  0.0 ${r.cmd}\n`;
  }
  return { stdout: frame.repeat(frames), stderr: '', exitCode: 0 };
};
