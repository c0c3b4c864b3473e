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
import { remember } from '../../util/bounded-map.js';
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

/** A cluster's own table in `tables` (made at its first use). */
function tableOf<V>(tables: WeakMap<Cluster, Map<string, V>>, c: Cluster): Map<string, V> {
  let m = tables.get(c);
  if (!m) {
    m = new Map();
    tables.set(c, m);
  }
  return m;
}

function serverTable(c: Cluster): Map<string, CoreDns> {
  return tableOf(servers, c);
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

/**
 * What one launch takes from the cluster besides its arguments, so that a rebuild after a restore
 * can be recorded and replayed (see `lookAt`). `active` spans the build and the startup hooks.
 */
interface LaunchIo {
  active: boolean;
  /** The first read of each path while active (nothing writes a file while a launch runs). */
  reads: Map<string, string | undefined>;
  /** The launch asked the cluster view while active: its answers were inputs too. */
  viewed: boolean;
}

function clusterView(c: Cluster, io?: LaunchIo): ClusterView {
  const ask = (): void => {
    if (io?.active) io.viewed = true;
  };
  return {
    services: () => (ask(), c.store.list<Service>('Service')),
    endpointSlices: () => (ask(), c.store.list<EndpointSlice>('EndpointSlice')),
    pods: () => (ask(), c.store.list<Pod>('Pod')),
    namespaces: () => (ask(), c.store.list<Namespace>('Namespace').map((n) => n.metadata.name)),
    namespaceLabels: (n) => (ask(), c.store.get<Namespace>('Namespace', undefined, n)?.metadata.labels),
    lastChangeMs: () => (ask(), state(c).lastChangeMs),
  };
}

function coreDnsContainer(pod: Pod): Container | undefined {
  return pod.spec.containers.find((ct) => COREDNS_IMAGES.some((i) => ct.image?.startsWith(i))) ?? pod.spec.containers[0];
}

/**
 * The files as the process sees them: the Corefile is the text this process loaded; other files
 * (zone files of the file plugin, hosts files, import globs) are read through the container's
 * mounts, so a ConfigMap key is only visible if the config volume projects it (kubeadm's volume
 * lists only `Corefile`).
 */
function fileReader(c: Cluster, pod: Pod, corefile: string, oneLook = false): (p: string) => string | undefined {
  const fs = podFs(c, pod.metadata.uid ?? '');
  const container = coreDnsContainer(pod);
  // `oneLook`: the reads are one look at the files, with nothing between them that could change a
  // mount (lookAt's comparison with a recorded rebuild): the container's view is built once for
  // them (it was built per read). A running server's reader builds it at each read, as the mounts
  // then are.
  let view: ReturnType<typeof containerFs> | undefined;
  const build = (name: string): ReturnType<typeof containerFs> => (coreDnsRebuilds.views++, containerFs(c, pod, name));
  const containerView = (name: string): ReturnType<typeof containerFs> => (oneLook ? (view ??= build(name)) : build(name));
  return (p) => {
    if (p === '/etc/coredns/Corefile') return corefile;
    coreDnsRebuilds.reads++;
    return container ? (containerView(container.name).tryRead(p) ?? fs.tryRead(p)) : fs.tryRead(p);
  };
}

/**
 * Build a CoreDNS process for `pod` from `corefile`. The clock can be pinned for reload checks.
 * With `io`, reads while it is active come from (and go into) `io.reads`.
 */
function launch(c: Cluster, pod: Pod, corefile: string, clock: Clock, io?: LaunchIo): ReturnType<typeof startCoreDns> {
  const read = fileReader(c, pod, corefile);
  const opts = {
    corefile,
    readFile: (p: string): string | undefined => {
      if (!io?.active) return read(p);
      if (io.reads.has(p)) return io.reads.get(p);
      const v = read(p);
      io.reads.set(p, v);
      return v;
    },
    view: clusterView(c, io),
    transport: dnsTransport(c, { kind: 'pod', ns: pod.metadata.namespace ?? 'kube-system', name: pod.metadata.name }, undefined, () => rebuilding),
    clock,
    // Each process has its own seeded source, so rebuilding a server after a restore does not
    // perturb the cluster's Random (same seed + same commands → same bytes).
    random: new Random(fnv32a(pod.metadata.uid ?? pod.metadata.name)),
    podIp: pod.status?.podIP ?? '',
  };
  if (io) io.active = true;
  try {
    return startCoreDns(opts);
  } finally {
    if (io) io.active = false;
  }
}

/** A clock that follows the cluster, except while a reload check runs (forced "due"). */
function runtimeClock(c: Cluster): Clock & { force?: number } {
  const clk: Clock & { force?: number } = { now: () => clk.force ?? c.now() };
  return clk;
}

/** True while a server is rebuilt after a restore: its startup probes must not send traffic again. */
let rebuilding = false;

const clocks = new WeakMap<CoreDns, Clock & { force?: number }>();

/** What the kubelet asks of a server (its probes and ports): HTTP statuses, undefined = no such endpoint. */
interface Facts {
  ports: readonly number[];
  ready: number | undefined;
  health: number | undefined;
}

/**
 * A rebuild after a restore that has not run yet: the server it would build at `at`, from `pod` as
 * it was then and the files it read then (`reads`), is what `facts` describe.
 */
interface Deferred {
  at: number;
  pod: Pod;
  reads: Map<string, string | undefined>;
  facts: Facts;
}

const deferreds = new WeakMap<Cluster, Map<string, Deferred>>();

function deferredTable(c: Cluster): Map<string, Deferred> {
  return tableOf(deferreds, c);
}

/**
 * Rebuilds after a restore, as recorded: the files the rebuild read (in order) and what its
 * server answered the kubelet. A rebuild is a pure function of its key (the Corefile, the pod's
 * uid — its Random's seed —, name, namespace, IP and container), the files it reads, and the
 * clock (pinned when replayed); its transport is quiet (`rebuilding`); one that asked the cluster
 * view is not recorded. So when a later rebuild of the same key would read the same files, its
 * server is the recorded one's twin, and until something needs the server itself (a query, a
 * reload check) the kubelet's questions have the recorded answers: every copy of a session (each
 * validate or grading run) skips building CoreDNS servers it never sends a query to. Bounded;
 * never saved.
 */
const RECORDED = new Map<string, { reads: [string, string | undefined][]; facts: Facts }>();
const RECORDED_MAX = 64;

function rebuildKey(pod: Pod, corefile: string): string {
  const m = pod.metadata;
  return `${m.uid ?? ''}\0${m.namespace ?? ''}\0${m.name}\0${pod.status?.podIP ?? ''}\0${coreDnsContainer(pod)?.name ?? ''}\0${corefile}`;
}

/** For tests: rebuilds run (each a full parse, setup and startup of a server); forget the recorded ones. */
export const coreDnsRebuilds = {
  count: 0,
  /** Container views built to read a pod's files (fileReader), and files read through them. */
  views: 0,
  reads: 0,
  forget(): void {
    RECORDED.clear();
  },
};

/** The running server of a CoreDNS pod (rebuilt from state after a restore), or undefined. */
export function coreDnsServer(c: Cluster, pod: Pod): CoreDns | undefined {
  const uid = pod.metadata.uid ?? '';
  const inst = state(c).pods[uid];
  if (!inst?.running) return undefined;
  const table = serverTable(c);
  let srv = table.get(uid);
  if (!srv) {
    const d = deferredTable(c).get(uid);
    deferredTable(c).delete(uid);
    const clock = runtimeClock(c);
    const io: LaunchIo = { active: false, reads: d ? d.reads : new Map(), viewed: false };
    // a deferred rebuild runs as it would have run at `at`, on the pod as it was then
    if (d) clock.force = d.at;
    rebuilding = true;
    coreDnsRebuilds.count++;
    let r: ReturnType<typeof launch>;
    try {
      r = launch(c, d ? d.pod : pod, inst.loaded, clock, io);
    } finally {
      rebuilding = false;
      delete clock.force;
    }
    if (!r.ok) return undefined;
    srv = r.server;
    if (!d) record(pod, inst.loaded, io, srv);
    clocks.set(srv, clock);
    srv.logs.length = 0;
    table.set(uid, srv);
  }
  return srv;
}

function factsOf(srv: CoreDns): Facts {
  return { ports: srv.listeningPorts(), ready: srv.ready()?.status, health: srv.health()?.status };
}

function record(pod: Pod, corefile: string, io: LaunchIo, srv: CoreDns): void {
  io.active = true;
  let facts: Facts;
  try {
    facts = factsOf(srv);
  } finally {
    io.active = false;
  }
  if (!io.viewed) remember(RECORDED, rebuildKey(pod, corefile), { reads: [...io.reads], facts }, RECORDED_MAX);
}

/**
 * The running server of a CoreDNS pod, or what its rebuild would answer the kubelet while the
 * rebuild can wait (RECORDED); undefined when not running. The first look after a restore reads
 * the files a recorded rebuild read: the same text defers the rebuild, else it runs now.
 */
function lookAt(c: Cluster, pod: Pod): { srv: CoreDns } | { facts: Facts } | undefined {
  const uid = pod.metadata.uid ?? '';
  const inst = state(c).pods[uid];
  if (!inst?.running) return undefined;
  const srv = serverTable(c).get(uid);
  if (srv) return { srv };
  const d = deferredTable(c).get(uid);
  if (d) return { facts: d.facts };
  const rec = RECORDED.get(rebuildKey(pod, inst.loaded));
  if (rec) {
    const read = fileReader(c, pod, inst.loaded, true);
    const reads = new Map<string, string | undefined>();
    if (rec.reads.every(([p, v]) => (reads.set(p, v), read(p) === v))) {
      deferredTable(c).set(uid, { at: c.now(), pod, reads, facts: rec.facts });
      return { facts: rec.facts };
    }
  }
  const built = coreDnsServer(c, pod);
  return built ? { srv: built } : undefined;
}

function appendLogs(inst: Instance, srv: CoreDns): void {
  if (srv.logs.length > 0) {
    inst.logs.push(...srv.logs);
    srv.logs.length = 0;
  }
}

function ready(ct: Container, look: ReturnType<typeof lookAt>): boolean {
  if (!look) return false;
  const probe = ct.readinessProbe?.httpGet;
  if (!probe) return true;
  const facts = 'srv' in look ? undefined : look.facts;
  const srv = 'srv' in look ? look.srv : undefined;
  const port = typeof probe.port === 'number' ? probe.port : ct.ports?.find((p) => p.name === probe.port)?.containerPort;
  if (port === undefined || !(facts ? facts.ports : (srv as CoreDns).listeningPorts()).includes(port)) return false;
  if (probe.path === '/ready') return (facts ? facts.ready : srv?.ready()?.status) === 200;
  if (probe.path === '/health') return (facts ? facts.health : srv?.health()?.status) === 200;
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
    deferredTable(c).delete(uid);
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
    const look = lookAt(c, pod);
    const srv = look && 'srv' in look ? look.srv : undefined;
    if (srv?.fatal && inst.running) {
      inst.running = false;
      inst.fatal = srv.fatal;
      appendLogs(inst, srv);
    }
    if (!inst.running) return { running: false, ready: false, exitCode: 1 };
    // (a rebuild that fails leaves no server: asking again would fail the same way)
    return { running: true, ready: ready(ct, look) };
  },
  logs(c: Cluster, pod: Pod, _container: string, previous: boolean): string | undefined {
    return coreDnsLogs(c, pod, previous);
  },
  listens(c: Cluster, pod: Pod, _ct: Container, port: number): boolean | undefined {
    const look = lookAt(c, pod);
    return look ? ('srv' in look ? look.srv.listeningPorts() : look.facts.ports).includes(port) : false;
  },
  // queries reaching a kube-dns pod are answered by its running server (traffic/dns.ts)
  dns: { serves: isCoreDnsPod, server: coreDnsServer },
};

/** What `kubectl logs` shows for a CoreDNS pod (undefined for other pods). */
export function coreDnsLogs(c: Cluster, pod: Pod, previous: boolean): string | undefined {
  if (!isCoreDnsPod(pod)) return undefined;
  const inst = state(c).pods[pod.metadata.uid ?? ''];
  if (!inst) return '';
  // a rebuilt server starts with no lines of its own (they were logged before the restore)
  const look = inst.running ? lookAt(c, pod) : undefined;
  if (look && 'srv' in look) appendLogs(inst, look.srv);
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
      else seenGen.delete(c);
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
        deferredTable(c).delete(uid);
      }
    }
  },
};
