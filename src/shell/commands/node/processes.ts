/**
 * The process table of a simulated node, derived from what runs on it: systemd's own services,
 * containerd and the kubelet when their units are active (the kubelet's command line as systemd
 * expands the kubeadm drop-in), and for every pod sandbox the runtime holds a containerd shim and
 * the pause process, plus each running container's process: the command and args of its spec
 * (static pods: of the manifest the kubelet runs, so `ps aux | grep kube-apiserver` shows the
 * flags a learner just edited once the kubelet restarted it) or the image's entrypoint, as the
 * user its security context or image gives it; and the children that process forks, as the node
 * sees them: an nginx master's workers (sim/runtime/ps-tool.ts nginxWorkerProcs, the ones
 * `kubectl exec POD -- ps` lists), with host PIDs as far past the master's as theirs are in the
 * container (the master forks them right after start).
 *
 * PIDs are deterministic: systemd units keep systemctl's Main PID; other processes are numbered
 * in the order they started. CPU and memory follow the simulation's usage model (sim/metrics).
 */
import { userSockets } from '../../../sim/node/user-sockets.js';
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import type { Container, Node, Pod } from '../../../sim/api/types.js';
import { staticPods } from '../../../sim/node/runtime.js';
import { containerUsageNow, memBytes } from '../../../sim/metrics.js';
import { kubeletStartedConfig } from '../../../sim/controlplane.js';
import { containerArgs, repoBase } from '../../../sim/runtime/container-args.js';
import { processIdentity } from '../../../sim/runtime/identity.js';
import { nginxWorkerProcs } from '../../../sim/runtime/ps-tool.js';
import { parseYamlMemo } from '../../../util/yaml-memo.js';
import { fnv, pidOf } from './host.js';
import { runtimeState } from './crictl.js';
import { kubeletCmdline } from './systemctl.js';

export { containerArgs };

export interface Proc {
  user: string;
  pid: number;
  ppid: number;
  /** Percent of one CPU over the process's life. */
  cpu: number;
  /** Resident memory, KiB. */
  rss: number;
  /** Virtual size, KiB. */
  vsz: number;
  tty: string;
  stat: string;
  /** Start, ms since the epoch. */
  start: number;
  args: string;
  /** The executable's name (comm, at most 15 characters). */
  comm: string;
}

/** The container spec a static pod runs: its manifest as the kubelet last read it. */
function staticContainer(host: Host, file: string): Container | undefined {
  try {
    const doc = parseYamlMemo(host.fs.tryRead(file) ?? '') as { spec?: { containers?: Container[] } } | null;
    return doc?.spec?.containers?.[0];
  } catch {
    return undefined;
  }
}

interface Pending extends Omit<Proc, 'pid' | 'ppid'> {
  key: string;
  /** A fixed PID (systemd units keep systemctl's Main PID). */
  fixedPid?: number;
  parentKey?: string;
  /** Forked by the process `key`, `gap` PIDs after it (an nginx master's workers). */
  follows?: { key: string; gap: number };
}

/**
 * The node's names for the uids container processes run as (Ubuntu 24.04's /etc/passwd: 101 is
 * messagebus, which procps shows for the nginx image's `nginx` user); any other uid prints as its number.
 */
const NODE_USERS: Readonly<Record<number, string>> = { 0: 'root', 101: 'messagebus' };
const nodeUser = (uid: number): string => NODE_USERS[uid] ?? String(uid);

/** Resident memory (KiB) of a container from the usage model, its VSZ a Go binary's. */
function sized(c: Cluster, pod: Pod | undefined, ct: Container | undefined, seed: string, fallbackMiB: number): { rss: number; vsz: number; cpu: number } {
  const u = pod && ct ? containerUsageNow(c, pod, ct) : undefined;
  const rss = u ? Math.max(512, Math.round(u.memory / 1024)) : fallbackMiB * 1024 + (fnv(seed) % 4096);
  const cpu = u ? Math.round(u.cpu / 10) / 10 : (fnv(`${seed}/cpu`) % 10) / 10;
  return { rss, vsz: 1_200_000 + (fnv(`${seed}/vsz`) % 1_000_000), cpu };
}

const SYSTEM: Array<{ user: string; args: string; stat: string; rssMiB: number }> = [
  { user: 'root', args: '/sbin/init', stat: 'Ss', rssMiB: 12 },
  { user: 'root', args: '/usr/lib/systemd/systemd-journald', stat: 'Ss', rssMiB: 20 },
  { user: 'root', args: '/usr/lib/systemd/systemd-udevd', stat: 'Ss', rssMiB: 7 },
  { user: 'systemd-network', args: '/usr/lib/systemd/systemd-networkd', stat: 'Ss', rssMiB: 8 },
  { user: 'systemd-resolve', args: '/usr/lib/systemd/systemd-resolved', stat: 'Ss', rssMiB: 12 },
  { user: 'root', args: '/usr/sbin/cron -f -P', stat: 'Ss', rssMiB: 2 },
  { user: 'messagebus', args: '@dbus-daemon --system --address=systemd: --nofork --nopidfile --systemd-activation --syslog-only', stat: 'Ss', rssMiB: 5 },
  { user: 'root', args: 'sshd: /usr/sbin/sshd -D [listener] 0 of 10-100 startups', stat: 'Ss', rssMiB: 8 },
];

/** Every process on the host, by PID; `self` is the command line of the running `ps`. */
/** `peers`: the later members of the asking command's pipeline (ShellContext.pipelinePeers). */
export function processTable(c: Cluster, host: Host, self: string, bootAt: number, peers: readonly string[][] = []): Proc[] {
  const pending: Pending[] = [];
  const cmdName = (args: string): string => {
    const first = args.startsWith('@') ? args.slice(1).split(' ')[0]! : args.split(' ')[0]!;
    const name = first.endsWith(':') ? first.slice(0, -1) : first.slice(first.lastIndexOf('/') + 1);
    return (args === '/sbin/init' ? 'systemd' : name).slice(0, 15);
  };
  SYSTEM.forEach((s, i) => pending.push({ key: `sys/${i}`, user: s.user, cpu: 0, rss: s.rssMiB * 1024 + (fnv(`${host.name}/${i}`) % 2048), vsz: 20_000 + (fnv(`${host.name}/v${i}`) % 90_000), tty: '?', stat: s.stat, start: bootAt, args: s.args, comm: cmdName(s.args), ...(i === 0 ? { fixedPid: 1 } : {}) }));
  const units = host.data.units;
  const unit = (name: string, args: string, rssMiB: number, cpu: number): void => {
    const st = units[name];
    if (!st?.active) return;
    if (name === 'kubelet' && 'error' in kubeletStartedConfig(host)) return;
    pending.push({ key: `unit/${name}`, fixedPid: pidOf(host, name), user: 'root', cpu, rss: rssMiB * 1024 + (fnv(`${host.name}/${name}`) % 8192), vsz: 1_900_000 + (fnv(`${host.name}/${name}/v`) % 600_000), tty: '?', stat: 'Ssl', start: st.since, args, comm: name });
  };
  unit('containerd', '/usr/bin/containerd', 48, 0.6);
  unit('kubelet', kubeletCmdline(host), 70, 1.4);
  // the shims and their containers outlive a stopped containerd (containerd.service KillMode=process)
  if (units['containerd']) {
    const { sandboxes, containers } = runtimeState(c, host);
    const pods = new Map(c.store.list<Pod>('Pod').filter((p) => p.spec.nodeName === host.name).map((p) => [p.metadata.uid ?? '', p]));
    const statics = Object.values(staticPods(c)[host.name] ?? {});
    for (const sb of sandboxes) {
      const shim = `shim/${sb.id}`;
      pending.push({ key: shim, user: 'root', cpu: 0.1, rss: 12_000 + (fnv(shim) % 3000), vsz: 1_238_000 + (fnv(`${shim}/v`) % 9000), tty: '?', stat: 'Sl', start: sb.created, args: `/usr/bin/containerd-shim-runc-v2 -namespace k8s.io -id ${sb.id} -address /run/containerd/containerd.sock`, comm: 'containerd-shim' });
      pending.push({ key: `pause/${sb.id}`, user: '65535', cpu: 0, rss: 1024 + (fnv(sb.id) % 64), vsz: 1020, tty: '?', stat: 'Ss', start: sb.created, args: '/pause', comm: 'pause', parentKey: shim });
    }
    for (const ctr of containers) {
      if (ctr.state !== 'Running') continue;
      const pod = [...pods.values()].find((p) => p.metadata.name === ctr.pod && (p.metadata.namespace ?? 'default') === ctr.namespace);
      const st = statics.find((s) => s.containerId === ctr.id);
      const spec = pod?.spec.containers.find((x) => x.name === ctr.name) ?? (st ? staticContainer(host, st.file) : undefined);
      const lines = spec ? containerArgs(spec, pod) : [`/${repoBase(ctr.image)}`];
      const size = sized(c, pod, spec, ctr.id, st ? 120 : 30);
      // the container's processes run as its user; a static pod's as root
      const user = nodeUser(pod && spec ? processIdentity(pod, spec).uid : 0);
      const workers = pod && spec ? nginxWorkerProcs(c, pod, spec) : undefined;
      lines.forEach((args, i) => {
        const key = `ctr/${ctr.id}/${i}`;
        // an nginx master is one thread (Ss); the Go programs of the cluster run many (Ssl)
        pending.push({ key, user, ...size, ...(i > 0 ? { cpu: 0, rss: Math.round(size.rss / 3) } : {}), tty: '?', stat: i > 0 ? 'Sl' : workers ? 'Ss' : 'Ssl', start: ctr.created, args, comm: cmdName(args), parentKey: `shim/${ctr.podId}` });
      });
      const master = `ctr/${ctr.id}/0`;
      workers?.pids.forEach((pid, i) => {
        const key = `${master}/w${String(i).padStart(3, '0')}`;
        pending.push({ key, user: nodeUser(workers.uid), cpu: 0, rss: 2_800 + (fnv(key) % 900), vsz: 11_900 + (fnv(`${key}/v`) % 600), tty: '?', stat: 'S', start: ctr.created, args: 'nginx: worker process', comm: 'nginx', parentKey: master, follows: { key: master, gap: pid - 1 } });
      });
    }
  }
  // the learner's background processes that listen (kubectl port-forward, proxy: node/user-sockets.ts)
  const seen = new Set<number>();
  for (const s of userSockets(host)) {
    if (seen.has(s.pid)) continue;
    seen.add(s.pid);
    const args = s.cmdline ?? s.comm;
    pending.push({ key: `job/${s.pid}`, fixedPid: s.pid, user: 'root', cpu: 0, rss: 52_000 + (fnv(`${s.pid}`) % 4096), vsz: 1_320_000 + (fnv(`${s.pid}/v`) % 9000), tty: 'pts/0', stat: 'Sl', start: s.started ?? c.now(), args, comm: s.comm, parentKey: 'session/bash' });
  }
  // the learner's own session: sshd for the connection, the login shell, and ps itself
  const now = c.now();
  pending.push({ key: 'session/sshd', user: 'root', cpu: 0, rss: 11_000, vsz: 17_600, tty: '?', stat: 'Ss', start: now - 61_000, args: 'sshd: root@pts/0', comm: 'sshd', parentKey: 'sys/7' });
  pending.push({ key: 'session/bash', user: 'root', cpu: 0, rss: 5_400, vsz: 8_900, tty: 'pts/0', stat: 'Ss', start: now - 60_000, args: '-bash', comm: 'bash', parentKey: 'session/sshd' });
  // the line's pipeline: bash forks every member at once, left to right, so `ps aux | grep x`
  // lists the grep (sleeping on its empty pipe) right after ps itself
  pending.push({ key: 'session/ps', user: 'root', cpu: 0, rss: 4_300, vsz: 11_400, tty: 'pts/0', stat: 'R+', start: now, args: self, comm: cmdName(self), parentKey: 'session/bash' });
  const peer = (key: string, argv: readonly string[]): void => {
    const args = argv.join(' ');
    pending.push({ key, user: 'root', cpu: 0, rss: 2_100 + (fnv(`${key}/${args}`) % 400), vsz: 6_300 + (fnv(`${key}/v`) % 500), tty: 'pts/0', stat: 'S+', start: now, args, comm: cmdName(args), parentKey: 'session/bash' });
  };
  // keys sort the members after ps in pipeline order (number: same start, then by key)
  peers.forEach((a, i) => peer(`session/pz${String(i).padStart(3, '0')}`, a));
  return number(pending);
}

/** PIDs in start order after the fixed ones, with the gaps other short-lived processes leave. */
function number(pending: Pending[]): Proc[] {
  const byKey = new Map<string, number>();
  const taken = new Set(pending.flatMap((p) => (p.fixedPid !== undefined ? [p.fixedPid] : [])));
  for (const p of pending) if (p.fixedPid !== undefined) byKey.set(p.key, p.fixedPid);
  // a sandbox's shim, then its pause process, then its containers, at the same instant
  const rank = (k: string): number => ['sys/', 'shim/', 'pause/', 'ctr/', 'session/'].findIndex((p) => k.startsWith(p));
  const order = pending.filter((p) => p.fixedPid === undefined).sort((a, b) => a.start - b.start || rank(a.key) - rank(b.key) || (a.key < b.key ? -1 : 1));
  let next = 300;
  let sys = 100;
  for (const p of order) {
    let pid: number;
    const parent = p.follows ? byKey.get(p.follows.key) : undefined;
    if (p.key.startsWith('sys/')) pid = sys += 40 + (fnv(p.key) % 120);
    else if (parent !== undefined) pid = next = Math.max(next, parent + p.follows!.gap);
    else {
      // a pipeline's members after ps are forked right after it: consecutive PIDs
      next = Math.max(next, 4000) + 1 + (p.key.startsWith('session/pz') ? 0 : fnv(p.key) % 60);
      pid = next;
    }
    while (taken.has(pid)) pid++;
    taken.add(pid);
    byKey.set(p.key, pid);
  }
  const procs = pending.map(({ key, fixedPid: _f, parentKey, follows: _w, ...rest }): Proc => ({ ...rest, pid: byKey.get(key)!, ppid: key === 'sys/0' ? 0 : parentKey ? (byKey.get(parentKey) ?? 1) : 1 }));
  return procs.sort((a, b) => a.pid - b.pid);
}

/** The node's memory (KiB) from its Node object's capacity. */
export function memTotalKiB(c: Cluster, host: Host): number {
  const node = c.store.get<Node>('Node', undefined, host.name);
  const bytes = memBytes(node?.status?.capacity?.['memory']);
  return bytes ? Math.round(bytes / 1024) : 4_005_000;
}
