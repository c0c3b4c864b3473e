/**
 * The CoreDNS processes of the coredns Deployment (pods labelled k8s-app=kube-dns in kube-system),
 * each loading the Corefile AS MOUNTED in its container:
 *  - the kubelet refreshes a ConfigMap volume on its periodic pod sync (pkg/kubelet/volumemanager,
 *    configmap volume plugin: "eventually", up to syncFrequency = 1 min + the cache TTL): modelled
 *    as one refresh per minute at a per-pod phase derived from the pod's uid (deterministic, and it
 *    leaves the cluster's Random untouched);
 *  - the `reload` plugin checks the mounted file every 30 s ± jitter (server.ts maybeReload);
 *  - a (re)started container reads the current mount at once (`kubectl rollout restart`).
 * A Corefile that fails to start exits the container with CoreDNS's stderr (CrashLoopBackOff via
 * the kubelet, runtime/overrides.ts); readiness follows the `ready` plugin's /ready answer, so a
 * broken CoreDNS leaves kube-dns without ready endpoints. State persists as plain data in
 * cluster.state.coredns; the in-memory servers are rebuilt from it after a snapshot restore.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { ConfigMap, Container, EndpointSlice, Namespace, Pod, Service } from '../api/types.js';
import type { ProgramOverride } from '../runtime/overrides.js';
import { podFs } from '../runtime/podfs.js';
import { containerFs } from '../runtime/volumes.js';
import { startCoreDns, type CoreDns } from '../dns/server.js';
import type { ClusterView } from '../dns/cluster-view.js';
import type { Clock } from '../../util/clock.js';
import { dnsTransport } from '../traffic/dns.js';
import { Random } from '../../util/random.js';
import { fnv32a } from './util.js';

export const COREDNS_IMAGES = ['registry.k8s.io/coredns/coredns', 'registry.cn-hangzhou.aliyuncs.com/google_containers/coredns'];
/** kubelet --sync-frequency default: how often a mounted ConfigMap can be refreshed. */
export const VOLUME_SYNC_MS = 60_000;

interface Instance {
  /** Corefile text in the container's mounted volume. */
  mounted: string;
  /** Phase of the kubelet's volume refreshes for this pod (0 ≤ x < VOLUME_SYNC_MS). */
  syncOffsetMs: number;
  /** The text the server loaded at start (what the in-memory server is rebuilt from). */
  loaded: string;
  running: boolean;
  startedAt: number;
  /** Reload checks fall at phaseAt + k·period (null period: no reload plugin). */
  phaseAt: number;
  period: number | null;
  /** The mounted text the last reload check saw, and when the mount last changed. */
  checked: string;
  mountedAt: number;
  logs: string[];
  previousLogs: string[];
  fatal?: string;
  /** When the controller first saw the ConfigMap differ from the mount. */
  pendingSince?: number;
}

export interface DnsState {
  pods: Record<string, Instance>;
  lastChangeMs: number;
}

function state(c: Cluster): DnsState {
  return (c.state.coredns ??= { pods: {}, lastChangeMs: c.now() });
}

const servers = new WeakMap<Cluster, Map<string, CoreDns>>();

function serverTable(c: Cluster): Map<string, CoreDns> {
  let m = servers.get(c);
  if (!m) {
    m = new Map();
    servers.set(c, m);
  }
  return m;
}

export function isCoreDnsPod(p: Pod): boolean {
  return p.metadata.namespace === 'kube-system' && p.metadata.labels?.['k8s-app'] === 'kube-dns';
}

/** The ConfigMap and key the pod's config volume mounts (kubeadm: coredns / Corefile). */
function mountedSource(c: Cluster, pod: Pod): string {
  const vol = pod.spec.volumes?.find((v) => v.configMap);
  const name = vol?.configMap?.name ?? 'coredns';
  const key = vol?.configMap?.items?.[0]?.key ?? 'Corefile';
  return c.store.get<ConfigMap>('ConfigMap', pod.metadata.namespace, name)?.data?.[key] ?? '';
}

function clusterView(c: Cluster): ClusterView {
  return {
    services: () => c.store.list<Service>('Service'),
    endpointSlices: () => c.store.list<EndpointSlice>('EndpointSlice'),
    pods: () => c.store.list<Pod>('Pod'),
    namespaces: () => c.store.list<Namespace>('Namespace').map((n) => n.metadata.name),
    namespaceLabels: (n) => c.store.get<Namespace>('Namespace', undefined, n)?.metadata.labels,
    lastChangeMs: () => state(c).lastChangeMs,
  };
}

/** Build a CoreDNS process for `pod` from `corefile`. The clock can be pinned for reload checks. */
function launch(c: Cluster, pod: Pod, corefile: string, clock: Clock): ReturnType<typeof startCoreDns> {
  const fs = podFs(c, pod.metadata.uid ?? '');
  const container = pod.spec.containers.find((ct) => COREDNS_IMAGES.some((i) => ct.image?.startsWith(i))) ?? pod.spec.containers[0];
  return startCoreDns({
    corefile,
    // The Corefile is the text this process loaded; other files (zone files of the file plugin,
    // hosts files, import globs) are read through the container's mounts, so a ConfigMap key is
    // only visible if the config volume projects it (kubeadm's volume lists only `Corefile`).
    readFile: (p) => (p === '/etc/coredns/Corefile' ? corefile : container ? (containerFs(c, pod, container.name).tryRead(p) ?? fs.tryRead(p)) : fs.tryRead(p)),
    view: clusterView(c),
    transport: dnsTransport(c, { kind: 'pod', ns: pod.metadata.namespace ?? 'kube-system', name: pod.metadata.name }, undefined, () => rebuilding),
    clock,
    // Each process has its own seeded source, so rebuilding a server after a restore does not
    // perturb the cluster's Random (same seed + same commands → same bytes).
    random: new Random(fnv32a(pod.metadata.uid ?? pod.metadata.name)),
    podIp: pod.status?.podIP ?? '',
  });
}

/** A clock that follows the cluster, except while a reload check runs (forced "due"). */
function runtimeClock(c: Cluster): Clock & { force?: number } {
  const clk: Clock & { force?: number } = { now: () => clk.force ?? c.now() };
  return clk;
}

/** True while a server is rebuilt after a restore: its startup probes must not send traffic again. */
let rebuilding = false;

const clocks = new WeakMap<CoreDns, Clock & { force?: number }>();

/** The running server of a CoreDNS pod (rebuilt from state after a restore), or undefined. */
export function coreDnsServer(c: Cluster, pod: Pod): CoreDns | undefined {
  const uid = pod.metadata.uid ?? '';
  const inst = state(c).pods[uid];
  if (!inst?.running) return undefined;
  const table = serverTable(c);
  let srv = table.get(uid);
  if (!srv) {
    const clock = runtimeClock(c);
    rebuilding = true;
    let r: ReturnType<typeof launch>;
    try {
      r = launch(c, pod, inst.loaded, clock);
    } finally {
      rebuilding = false;
    }
    if (!r.ok) return undefined;
    srv = r.server;
    clocks.set(srv, clock);
    srv.logs.length = 0;
    table.set(uid, srv);
  }
  return srv;
}

function appendLogs(inst: Instance, srv: CoreDns): void {
  if (srv.logs.length > 0) {
    inst.logs.push(...srv.logs);
    srv.logs.length = 0;
  }
}

function ready(c: Cluster, pod: Pod, ct: Container): boolean {
  const srv = coreDnsServer(c, pod);
  if (!srv) return false;
  const probe = ct.readinessProbe?.httpGet;
  if (!probe) return true;
  const port = typeof probe.port === 'number' ? probe.port : ct.ports?.find((p) => p.name === probe.port)?.containerPort;
  if (port === undefined || !srv.listeningPorts().includes(port)) return false;
  if (probe.path === '/ready') return srv.ready()?.status === 200;
  if (probe.path === '/health') return srv.health()?.status === 200;
  return true;
}

/** The CoreDNS process (listed in runtime/overrides.ts PROGRAM_OVERRIDES). */
export const coreDnsProgram: ProgramOverride = {
  repositories: COREDNS_IMAGES,
  start(c: Cluster, pod: Pod): { ok: true } | { ok: false; exitCode: number; output: string } {
    const st = state(c);
    const uid = pod.metadata.uid ?? '';
    const prev = st.pods[uid];
    const mounted = prev ? prev.mounted : mountedSource(c, pod);
    const clock = runtimeClock(c);
    serverTable(c).delete(uid);
    const r = launch(c, pod, mounted, clock);
    const inst: Instance = {
      mounted,
      syncOffsetMs: prev ? prev.syncOffsetMs : fnv32a(`${uid}/volume-sync`) % VOLUME_SYNC_MS,
      loaded: mounted,
      running: r.ok,
      startedAt: c.now(),
      phaseAt: c.now(),
      period: null,
      checked: mounted,
      mountedAt: c.now(),
      logs: [],
      previousLogs: prev ? prev.logs : [],
    };
    st.pods[uid] = inst;
    if (!r.ok) {
      inst.logs = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l !== '');
      return { ok: false, exitCode: r.exitCode, output: `${r.stdout}${r.stderr}` };
    }
    clocks.set(r.server, clock);
    serverTable(c).set(uid, r.server);
    appendLogs(inst, r.server);
    const period = r.server.reloadPeriodMs();
    if (period > 0) inst.period = period;
    return { ok: true };
  },
  status(c: Cluster, pod: Pod, ct: Container): { running: boolean; ready: boolean; exitCode?: number } {
    const inst = state(c).pods[pod.metadata.uid ?? ''];
    if (!inst) return { running: true, ready: false };
    const srv = coreDnsServer(c, pod);
    if (srv?.fatal && inst.running) {
      inst.running = false;
      inst.fatal = srv.fatal;
      appendLogs(inst, srv);
    }
    if (!inst.running) return { running: false, ready: false, exitCode: 1 };
    return { running: true, ready: ready(c, pod, ct) };
  },
  logs(c: Cluster, pod: Pod, _container: string, previous: boolean): string | undefined {
    return coreDnsLogs(c, pod, previous);
  },
  listens(c: Cluster, pod: Pod, _ct: Container, port: number): boolean | undefined {
    const srv = coreDnsServer(c, pod);
    return srv ? srv.listeningPorts().includes(port) : false;
  },
  // queries reaching a kube-dns pod are answered by its running server (traffic/dns.ts)
  dns: { serves: isCoreDnsPod, server: coreDnsServer },
};

/** What `kubectl logs` shows for a CoreDNS pod (undefined for other pods). */
export function coreDnsLogs(c: Cluster, pod: Pod, previous: boolean): string | undefined {
  if (!isCoreDnsPod(pod)) return undefined;
  const inst = state(c).pods[pod.metadata.uid ?? ''];
  if (!inst) return '';
  const srv = inst.running ? coreDnsServer(c, pod) : undefined;
  if (srv) appendLogs(inst, srv);
  return (previous ? inst.previousLogs : inst.logs).map((l) => `${l}\n`).join('');
}

/** Refresh the pod's mounted Corefile at the kubelet's volume sync instants. */
function syncVolume(c: Cluster, pod: Pod, inst: Instance): void {
  const want = mountedSource(c, pod);
  if (inst.mounted === want) return;
  const now = c.now();
  const phase = inst.startedAt + inst.syncOffsetMs;
  const k = Math.floor((now - phase) / VOLUME_SYNC_MS);
  const last = phase + k * VOLUME_SYNC_MS;
  const changedAt = inst.pendingSince;
  if (changedAt === undefined) {
    inst.pendingSince = now;
    c.wakeAt(last + VOLUME_SYNC_MS);
    return;
  }
  if (last >= changedAt && last <= now && now >= changedAt) {
    inst.mounted = want;
    inst.mountedAt = last;
    delete inst.pendingSince;
    return;
  }
  c.wakeAt(last + VOLUME_SYNC_MS);
}

/**
 * The reload plugin's check, evaluated lazily: checks fall at phaseAt + k·period; only a mount that
 * differs from what the last check saw can change anything, so only then is a timer set.
 */
function reloadCheck(c: Cluster, pod: Pod, inst: Instance): void {
  if (inst.period === null || !inst.running || inst.mounted === inst.checked) return;
  const now = c.now();
  const since = inst.mountedAt;
  const k = Math.max(0, Math.ceil((since - inst.phaseAt) / inst.period));
  const due = inst.phaseAt + k * inst.period;
  if (now < due) {
    c.wakeAt(due);
    return;
  }
  const srv = coreDnsServer(c, pod);
  if (!srv) return;
  const clock = clocks.get(srv);
  if (clock) clock.force = Number.MAX_SAFE_INTEGER / 2;
  try {
    srv.maybeReload(inst.mounted);
  } finally {
    if (clock) delete clock.force;
  }
  inst.checked = inst.mounted;
  if (srv.logs.includes('[INFO] Reloading complete')) inst.loaded = inst.mounted;
  appendLogs(inst, srv);
  const period = srv.reloadPeriodMs();
  inst.phaseAt = due;
  inst.period = period > 0 ? period : null;
}

const seenGen = new WeakMap<Cluster, string>();

export const corednsController: Controller = {
  name: 'coredns',
  // its process runs in a container the kubelet keeps: a timed check that ends it is the kubelet's to see
  wakesAlso: ['kubelet'],
  // CoreDNS pods run in kube-system (isCoreDnsPod) and mount their Corefile from there
  watches: ['Pod', 'ConfigMap@kube-system', 'Service', 'EndpointSlice', 'time'],
  // a restore records the counters afresh; a copy that is this cluster going on goes on comparing
  carry: {
    save: (c) => seenGen.get(c),
    load: (c, saved) => {
      if (typeof saved === 'string') seenGen.set(c, saved);
    },
  },
  reconcile(c: Cluster): void {
    const st = state(c);
    const gen = `${c.store.changes.get('Service') ?? 0}/${c.store.changes.get('EndpointSlice') ?? 0}`;
    // the store's change counters restart after a restore: the first look only records them
    const prev = seenGen.get(c);
    if (prev !== undefined && prev !== gen) st.lastChangeMs = c.now();
    seenGen.set(c, gen);
    const live = new Set<string>();
    for (const pod of c.store.list<Pod>('Pod', 'kube-system')) {
      if (!isCoreDnsPod(pod)) continue;
      const uid = pod.metadata.uid ?? '';
      live.add(uid);
      const inst = st.pods[uid];
      if (!inst) continue;
      syncVolume(c, pod, inst);
      if (inst.running && pod.status?.containerStatuses?.[0]?.state.running) reloadCheck(c, pod, inst);
    }
    for (const uid of Object.keys(st.pods)) {
      if (!live.has(uid)) {
        delete st.pods[uid];
        serverTable(c).delete(uid);
      }
    }
  },
};
