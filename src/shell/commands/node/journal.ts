/**
 * The systemd journal of a node as journalctl and `systemctl status` show it: lines stored in
 * host.data.journal (full journal lines, or bare klog lines from the simulation whose time comes
 * from the klog header) plus lines synthesised for problems that exist right now, the way the
 * kubelet keeps logging them: "Container runtime network not ready" every 5 s while the CNI
 * config is missing (pkg/kubelet/kubelet.go syncLoop → runtime status check), and a kubelet that
 * cannot load its config exiting with status 1 and being restarted by systemd every 10 s
 * (kubeadm's kubelet.service: Restart=always, RestartSec=10). Pods of the node that cannot run
 * make the kubelet log on every sync of the pod (pkg/kubelet/pod_workers.go "Error syncing pod,
 * skipping"; pkg/kubelet/kuberuntime/kuberuntime_image.go "Failed to pull image"), here every
 * 10 s of the current back-off window. While containerd is down the kubelet logs its failed runtime
 * check every 5 s (cri-client "Status from runtime service failed", kubelet.go updateRuntimeUp
 * "Container runtime sanity check failed"), and once it finds the runtime down its sync loop logs
 * "Skipping pod synchronization" with back-off from 100 ms doubling to 5 s (kubelet.go syncLoop);
 * pods are not synced, so their errors stop (node/runtime-health.ts).
 */
import type { Cluster } from '../../../sim/cluster.js';
import type { Host } from '../../../sim/node/host.js';
import type { Node, Pod } from '../../../sim/api/types.js';
import { staticPods } from '../../../sim/node/runtime.js';
import { parseManifest, snapshotKubeletConfig } from '../../../sim/controlplane.js';
import { cniStatus } from '../../../sim/cni/config.js';
import { kubeletRunning, kubeletStartedConfig } from '../../../sim/controlplane.js';
import { fnv, journalTime, klogTime, pidOf } from './host.js';
import { runningKubeletVersion } from '../../../sim/node/packages.js';
import { kubeletFlag } from '../../../sim/node/kubelet-cmdline.js';
import { RUNTIME_CHECK_MS, outageMessage, runtimeOutage } from '../../../sim/node/runtime-health.js';
import { kubeletRuntimeDialError } from '../../../sim/controlplane.js';
import { goDuration } from '../../../util/go-duration.js';
import { errImagePullMessage } from '../../../sim/runtime/image-pull.js';

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
  out.push(...unjournaledStart(c, host, unit));
  if (unit === 'kubelet') out.push(...kubeletProblems(c, host), ...podProblems(c, host));
  return out.sort((a, b) => a.at - b.at);
}

/** The pid of a unit's process started at `at` (pidOf's for the current start). */
export function startPid(host: Host, unit: string, at: number): number {
  return 300 + (fnv(`${host.name}/${unit}/${at}`) % 3700);
}

/** Whether a command (systemctl, kubeadm join) journaled the unit's current start. */
function startJournaled(host: Host, unit: string, now: number): boolean {
  const since = host.data.units[unit]?.since;
  if (since === undefined) return true;
  // journal lines carry whole seconds
  const second = since - (since % 1000);
  return (host.data.journal[unit] ?? []).some((l) => (parseAt(l, now) ?? -1) >= second);
}

/**
 * The start of a unit's running process that no command journaled: the fixture's boot or a reboot
 * started containerd and the kubelet. systemd logs `Started UNIT.service - DESCRIPTION.`
 * (containerd's Type=notify unit first logs `Starting …`), and a kubelet whose config loads logs
 * its start-up (kubeletStartLines). A kubelet that fails at start is kubeletProblems' crash loop.
 */
function unjournaledStart(c: Cluster, host: Host, unit: string): Entry[] {
  const st = host.data.units[unit];
  const desc = UNIT_DESCRIPTION[unit];
  if (!st?.active || !desc || startJournaled(host, unit, c.now())) return [];
  const at = st.since;
  const sd = (msg: string): Entry => ({ at, text: `${journalTime(at)} ${host.name} systemd[1]: ${msg}` });
  if (unit === 'containerd') return [sd(`Starting containerd.service - ${desc}...`), sd(`Started containerd.service - ${desc}.`)];
  if (unit !== 'kubelet' || 'error' in kubeletStartedConfig(host)) return [];
  return [sd(`Started kubelet.service - ${desc}.`), ...kubeletStartLines(c, host, at).map((text) => ({ at, text }))];
}

/**
 * Write the synthesised start of the units' running processes into the journal before a command
 * replaces them (systemctl stop/restart, reboot), so that history stays as it was shown.
 */
export function keepStartHistory(c: Cluster, host: Host): void {
  for (const unit of Object.keys(UNIT_DESCRIPTION)) for (const e of unjournaledStart(c, host, unit)) host.log(unit, e.text);
}

/** Every unit's entries merged by time (journalctl without -u). */
export function allEntries(c: Cluster, host: Host): Entry[] {
  const units = new Set([...Object.keys(host.data.journal), 'kubelet']);
  return [...units].flatMap((u) => unitEntries(c, host, u)).sort((a, b) => a.at - b.at);
}

const MAX_SYNTH = 12;

/** The latest start of a kubelet that exits at start and is restarted every 10 s from `since`. */
export function restartAt(since: number, now: number): number {
  return since + Math.floor(Math.max(0, now - since) / 10_000) * 10_000;
}

function kubeletProblems(c: Cluster, host: Host): Entry[] {
  if (!host.unitActive('kubelet')) return [];
  const now = c.now();
  const since = host.data.units['kubelet']?.since ?? now;
  const pid = pidOf(host, 'kubelet');
  const out: Entry[] = [];
  const cfg = kubeletStartedConfig(host);
  if ('error' in cfg) {
    // it exits at each start, and systemd starts it again 10 s later (RestartSec=10) as a new
    // process, counting the restarts since the unit was started (systemd 255 service.c
    // service_enter_restart "Scheduled restart job, restart counter is at %u.")
    const cycles: Entry[][] = [];
    for (let at = restartAt(since, now); at >= since && at > now - (MAX_SYNTH / 3) * 10_000; at -= 10_000) {
      const p = startPid(host, 'kubelet', at);
      const sd = (msg: string): Entry => ({ at, text: `${journalTime(at)} ${host.name} systemd[1]: ${msg}` });
      const cycle: Entry[] = [];
      if (at > since) cycle.push(sd(`kubelet.service: Scheduled restart job, restart counter is at ${(at - since) / 10_000}.`), sd(`Started kubelet.service - ${UNIT_DESCRIPTION['kubelet']}.`));
      else if (!startJournaled(host, 'kubelet', now)) cycle.push(sd(`Started kubelet.service - ${UNIT_DESCRIPTION['kubelet']}.`));
      for (const w of flagDeprecations(host)) cycle.push({ at, text: `${journalTime(at)} ${host.name} kubelet[${p}]: ${w}` });
      cycle.push({ at, text: `${journalTime(at)} ${host.name} kubelet[${p}]: E${klogTime(at)} ${String(p).padStart(7)} run.go:72] "command failed" err="${cfg.error.replace(/"/g, '\\"')}"` });
      cycle.push(sd('kubelet.service: Main process exited, code=exited, status=1/FAILURE'), sd("kubelet.service: Failed with result 'exit-code'."));
      cycles.unshift(cycle);
    }
    return cycles.flat();
  }
  const outage = runtimeOutage(host);
  if (outage) {
    const checks: Entry[] = [];
    for (let at = outage.lastSync + RUNTIME_CHECK_MS; at <= now; at += RUNTIME_CHECK_MS)
      checks.push(
        kline(host, at, 'E', 'log.go:32', `"Status from runtime service failed" err=${q(kubeletRuntimeDialError(host))}`),
        kline(host, at, 'E', 'kubelet.go:3102', `"Container runtime sanity check failed" err=${q(kubeletRuntimeDialError(host))}`),
      );
    const skips: Entry[] = [];
    for (let at = outage.downAt, wait = 100; at <= now; at += wait, wait = Math.min(5_000, wait * 2))
      skips.push(kline(host, at, 'E', 'kubelet.go:2460', `"Skipping pod synchronization" err=${q(outageMessage(outage, at))}`));
    return [...checks.slice(-MAX_SYNTH), ...skips.slice(-MAX_SYNTH)];
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

/** klog's structured string value: Go-quoted (strconv.Quote for printable text). */
function q(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

const SYNC_MS = 10_000;
const PER_CONTAINER = 6;

/** Every SYNC_MS from `from` to `to` (inclusive), the latest PER_CONTAINER of them. */
function syncTimes(from: number, to: number): number[] {
  const out: number[] = [];
  for (let at = from; at <= to; at += SYNC_MS) out.push(at);
  return out.slice(-PER_CONTAINER);
}

function kline(host: Host, at: number, level: 'I' | 'E', src: string, msg: string): Entry {
  const pid = pidOf(host, 'kubelet');
  return { at, text: `${journalTime(at)} ${host.name} kubelet[${pid}]: ${level}${klogTime(at)} ${String(pid).padStart(7)} ${src}] ${msg}` };
}

function syncError(host: Host, at: number, ct: string, reason: string, message: string, podKey: string, uid: string): Entry {
  const err = `failed to "StartContainer" for "${ct}" with ${reason}: ${q(message)}`;
  return kline(host, at, 'E', 'pod_workers.go:1301', `"Error syncing pod, skipping" err=${q(err)} pod=${q(podKey)} podUID=${q(uid)}`);
}

/**
 * A container whose image does not pull, on each sync: the runtime's error
 * (kuberuntime_image.go "Failed to pull image") and the pod worker's (ErrImagePull with the pull
 * error, ImagePullBackOff with `Back-off pulling image`).
 */
function pullProblems(host: Host, from: number, now: number, ct: string, reason: string, image: string, pullErr: string, podKey: string, uid: string): Entry[] {
  const out: Entry[] = [];
  for (const at of syncTimes(from, now)) {
    out.push(kline(host, at, 'E', 'kuberuntime_image.go:43', `"Failed to pull image" err=${q(pullErr)} image=${q(image)}`));
    const msg = reason === 'ErrImagePull' ? pullErr : `Back-off pulling image ${q(image)}`;
    out.push(syncError(host, at, ct, reason, msg, podKey, uid));
  }
  return out;
}

/**
 * What the kubelet logs right now about the node's pods that cannot run: containers in
 * CrashLoopBackOff (API pods from their status, static pods from the kubelet's own run record,
 * which it has even while the API server is down) and failing image pulls.
 */
function podProblems(c: Cluster, host: Host): Entry[] {
  if (!kubeletRunning(host)) return [];
  // while containerd is down no pod is synced
  const now = Math.min(c.now(), runtimeOutage(host)?.stoppedAt ?? Infinity);
  const since = host.data.units['kubelet']?.since ?? now;
  const out: Entry[] = [];
  for (const pod of c.store.list<Pod>('Pod')) {
    if (pod.spec.nodeName !== host.name || pod.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined) continue;
    const ns = pod.metadata.namespace ?? 'default';
    const key = `${ns}/${pod.metadata.name}`;
    const uid = pod.metadata.uid ?? '';
    for (const cs of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
      const w = cs.state.waiting;
      if (!w?.reason) continue;
      const image = pod.spec.containers.find((x) => x.name === cs.name)?.image ?? cs.image;
      if (w.reason === 'CrashLoopBackOff') {
        const fin = Date.parse(cs.lastState?.terminated?.finishedAt ?? '');
        for (const at of syncTimes(Math.max(since, Number.isNaN(fin) ? now : fin), now)) out.push(syncError(host, at, cs.name, w.reason, w.message ?? '', key, uid));
      } else if (w.reason === 'ErrImagePull' || w.reason === 'ImagePullBackOff') {
        const start = Date.parse(pod.status?.startTime ?? pod.metadata.creationTimestamp ?? '');
        const pullErr = (w.message ?? '').replace(/^Back-off pulling image "[^"]*": ErrImagePull: /, '');
        out.push(...pullProblems(host, Math.max(since, Number.isNaN(start) ? now : start), now, cs.name, w.reason, image, pullErr, key, uid));
      }
    }
  }
  for (const r of Object.values(staticPods(c)[host.name] ?? {})) {
    if (r.name && r.pull) {
      const text = host.fs.tryRead(r.file);
      const parsed = text === undefined ? undefined : parseManifest(r.file, text);
      const ct = parsed?.ok ? parsed.pod.spec.containers[0] : undefined;
      if (ct) out.push(...pullProblems(host, Math.max(since, r.pull.firstAt), now, ct.name, r.pull.reason, ct.image, errImagePullMessage(ct.image), `${r.namespace}/${r.name}-${host.name}`, r.hash));
      continue;
    }
    if (r.name === '' || r.running || !r.exited) continue;
    const text = host.fs.tryRead(r.file);
    const parsed = text === undefined ? undefined : parseManifest(r.file, text);
    const ct = parsed?.ok ? parsed.pod.spec.containers[0]?.name ?? r.name : r.name;
    const pod = `${r.name}-${host.name}`;
    const message = `back-off ${goDuration(Math.max(0, r.nextStart - r.since))} restarting failed container=${ct} pod=${pod}_${r.namespace}(${r.hash})`;
    for (const at of syncTimes(Math.max(since, r.since), now)) out.push(syncError(host, at, ct, 'CrashLoopBackOff', message, `${r.namespace}/${pod}`, r.hash));
  }
  return out;
}

/**
 * A (re)started kubelet: it loads config.yaml once now (the snapshot the running kubelet uses
 * until its next start) and, when the config loads, logs its start-up
 * (cmd/kubelet/app/server.go, pkg/kubelet/kubelet.go Run, pkg/kubelet/status/status_manager.go).
 */
export function kubeletStarted(c: Cluster, host: Host): void {
  const cfg = snapshotKubeletConfig(host);
  if ('error' in cfg) return;
  for (const line of kubeletStartLines(c, host, c.now())) host.log('kubelet', line);
}

/**
 * What pflag prints on stderr for each deprecated flag on the kubelet's command line, before
 * anything else (cmd/kubelet/app/options/options.go marks the flags that moved into the
 * KubeletConfiguration file deprecated with this message).
 */
function flagDeprecations(host: Host, cmdline?: string): string[] {
  const moved = ['container-runtime-endpoint'];
  return moved
    .filter((f) => kubeletFlag(host, f, cmdline) !== undefined)
    .map((f) => `Flag --${f} has been deprecated, This parameter should be set via the config file specified by the Kubelet's --config flag. See https://kubernetes.io/docs/tasks/administer-cluster/kubelet-config-file/ for more information.`);
}

/** The start-up lines of a kubelet started at `at`, as full journal lines of that process. */
function kubeletStartLines(c: Cluster, host: Host, at: number): string[] {
  const pid = startPid(host, 'kubelet', at);
  const line = (src: string, msg: string): string => `${journalTime(at)} ${host.name} kubelet[${pid}]: I${klogTime(at)} ${String(pid).padStart(7)} ${src}] ${msg}`;
  return [
    ...flagDeprecations(host, host.data.state.kubeletCmdlineAtStart).map((w) => `${journalTime(at)} ${host.name} kubelet[${pid}]: ${w}`),
    line('server.go:525', `"Kubelet version" kubeletVersion="${runningKubeletVersion(host, c.meta.kubernetesVersion)}"`),
    line('server.go:527', '"Golang settings" GOGC="" GOMAXPROCS="" GOTRACEBACK=""'),
    line('server.go:956', '"Client rotation is on, will bootstrap in background"'),
    line('dynamic_cafile_content.go:161', '"Starting controller" name="client-ca-bundle::/etc/kubernetes/pki/ca.crt"'),
    line('kuberuntime_manager.go:291', '"Container runtime initialized" containerRuntime="containerd" version="v2.1.4" apiVersion="v1"'),
    line('server.go:1262', '"Started kubelet"'),
    line('status_manager.go:230', '"Starting to sync pod status with apiserver"'),
    line('kubelet.go:2436', '"Starting kubelet main sync loop"'),
    line('kubelet_node_status.go:75', `"Attempting to register node" node="${host.name}"`),
    line('kubelet_node_status.go:124', `"Node was previously registered" node="${host.name}"`),
  ];
}
