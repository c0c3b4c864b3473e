/**
 * The systemd journal of a node as journalctl and `systemctl status` show it: lines stored in
 * host.data.journal (full journal lines, or bare klog lines from the simulation whose time comes
 * from the klog header) plus lines synthesised for problems that exist right now, the way the
 * kubelet keeps logging them: "Container runtime network not ready" every 5 s while the CNI
 * config is missing (pkg/kubelet/kubelet.go syncLoop → runtime status check), and a kubelet that
 * cannot load its config exiting with status 1 and being restarted by systemd every 10 s
 * (kubeadm's kubelet.service: Restart=always, RestartSec=10).
 */
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import type { Node } from '../../../sim/api/types.js';
import { cniStatus } from '../../../sim/cni/config.js';
import { kubeletConfig } from '../../../sim/controlplane.js';
import { journalTime, klogTime, pidOf } from './host.js';

export interface Entry {
  at: number;
  text: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const FULL = /^([A-Z][a-z]{2}) (\d{2}) (\d{2}):(\d{2}):(\d{2}) /;
const KLOG = /^[IWEF](\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})/;

export const UNIT_DESCRIPTION: Record<string, string> = {
  kubelet: 'kubelet: The Kubernetes Node Agent',
  containerd: 'containerd container runtime',
};

/** Append a journal line stamped now, as `<ident>[<pid>]: <msg>`. */
export function logLine(host: Host, unit: string, now: number, ident: string, msg: string): void {
  host.log(unit, `${journalTime(now)} ${host.name} ${ident}: ${msg}`);
}

function yearOf(now: number): number {
  return new Date(now).getUTCFullYear();
}

function parseAt(line: string, now: number): number | undefined {
  const f = FULL.exec(line);
  if (f) return Date.UTC(yearOf(now), MONTHS.indexOf(f[1]!), Number(f[2]), Number(f[3]), Number(f[4]), Number(f[5]));
  const k = KLOG.exec(line);
  if (k) return Date.UTC(yearOf(now), Number(k[1]) - 1, Number(k[2]), Number(k[3]), Number(k[4]), Number(k[5]));
  return undefined;
}

/** A unit's journal entries, oldest first. */
export function unitEntries(c: Cluster, host: Host, unit: string): Entry[] {
  const now = c.now();
  const out: Entry[] = [];
  let last = 0;
  for (const line of host.data.journal[unit] ?? []) {
    const at = parseAt(line, now) ?? last;
    last = at;
    const text = FULL.test(line) ? line : `${journalTime(at)} ${host.name} ${unit}[${pidOf(host, unit)}]: ${line}`;
    out.push({ at, text });
  }
  if (unit === 'kubelet') out.push(...kubeletProblems(c, host));
  return out.sort((a, b) => a.at - b.at);
}

/** Every unit's entries merged by time (journalctl without -u). */
export function allEntries(c: Cluster, host: Host): Entry[] {
  const units = new Set([...Object.keys(host.data.journal), 'kubelet']);
  return [...units].flatMap((u) => unitEntries(c, host, u)).sort((a, b) => a.at - b.at);
}

const MAX_SYNTH = 12;

function kubeletProblems(c: Cluster, host: Host): Entry[] {
  if (!host.unitActive('kubelet')) return [];
  const now = c.now();
  const since = host.data.units['kubelet']?.since ?? now;
  const pid = pidOf(host, 'kubelet');
  const out: Entry[] = [];
  const cfg = kubeletConfig(host);
  if ('error' in cfg) {
    for (let t = Math.max(since, now - (MAX_SYNTH / 3) * 10_000); t <= now; t += 10_000) {
      const at = t - (t % 10_000);
      if (at < since) continue;
      out.push({ at, text: `${journalTime(at)} ${host.name} kubelet[${pid}]: E${klogTime(at)} ${String(pid).padStart(7)} run.go:72] "command failed" err="${cfg.error.replace(/"/g, '\\"')}"` });
      out.push({ at, text: `${journalTime(at)} ${host.name} systemd[1]: kubelet.service: Main process exited, code=exited, status=1/FAILURE` });
      out.push({ at, text: `${journalTime(at)} ${host.name} systemd[1]: kubelet.service: Failed with result 'exit-code'.` });
    }
    return out;
  }
  const cni = cniStatus(host);
  if (!cni.ready) {
    const node = c.store.get<Node>('Node', undefined, host.name);
    const ready = node?.status?.conditions?.find((x) => x.type === 'Ready');
    const from = Math.max(since, ready?.status === 'False' && ready.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : now);
    const start = Math.max(from, now - (MAX_SYNTH - 1) * 5_000);
    for (let at = start; at <= now; at += 5_000)
      out.push({
        at,
        text: `${journalTime(at)} ${host.name} kubelet[${pid}]: E${klogTime(at)} ${String(pid).padStart(7)} kubelet.go:3117] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: ${cni.message ?? 'cni plugin not initialized'}"`,
      });
  }
  return out;
}
