/**
 * kube-proxy on every node (cmd/kube-proxy/app/{server,options}.go, pkg/proxy/iptables/proxier.go):
 * each kube-proxy pod reads `config.conf` from the kube-proxy ConfigMap when its container starts;
 * a config that does not decode or validate makes the process exit with the error that
 * component-base's cli.Run logs (`"command failed" err="failed complete: …"` /
 * `"failed validate: …"`), so the pod crash-loops and that node's rules stay as last synced.
 * A running kube-proxy syncs the node's iptables (node/runtime.ts nodeIptables) on every
 * Service/EndpointSlice change; it exits when its config file changes (options.go eventHandler)
 * and the kubelet restarts it. Its container log holds what it prints at start and at that exit
 * (kube-proxy-startup.ts); a pod already running when the simulation begins (a fixture's) is
 * adopted as an instance that started with its container, so it logs and exits the same way.
 *
 * Full and partial syncs as pkg/proxy/iptables/proxier.go (KEP-3453, GA in v1.28) does them: the
 * first sync of a process, the retry after a failed restore, a sync an hour after the last full one
 * (proxyutil.FullSyncPeriod, which is also the BoundedFrequencyRunner's longest interval) and a
 * reload after the iptables Monitor saw its canary chain deleted (checked every syncPeriod) are full:
 * every kube-proxy chain is rewritten and the jump rules from the built-in chains are ensured. Any
 * other sync is partial: the top-level chains (KUBE-SERVICES, KUBE-NODEPORTS, …) are rewritten, but
 * the per-service chains only of Services whose Service or endpoints changed. So a rule someone
 * deleted from a KUBE-SVC-… chain stays deleted until that Service changes or the next full sync.
 * The nftables proxier (pkg/proxy/nftables/proxier.go) decides full and partial syncs the same way
 * (first sync, failure, FullSyncPeriod; no canary) and keeps its own memory between syncs
 * (NodeSync.nft: the map elements it wrote, stale chains to delete later): net/kube-proxy/nftables-sync.ts.
 * On a dual-stack cluster each family's proxier (NewDualStackProxier) keeps its own memory and
 * change tracker (NodeSync.nft6/fps6 for IPv6) and syncs partially like the IPv4 one, in either mode.
 */
import { parseYamlMemo as parseYaml } from '../../util/yaml-memo.js';
import type { Cluster, Controller } from '../cluster.js';
import type { ConfigMap, Container, EndpointSlice, Node, Pod, Service } from '../api/types.js';
import type { Host } from '../node/host.js';
import { iptablesRev, ip6RulesDerived, nodeIp6tables, nodeIptables, nodeNftables, resetIp6tables } from '../node/runtime.js';
import { cleanupIptablesLeftovers, syncProxyRules, type FingerprintChanges, type KubeProxyConfig, type SyncResult } from '../net/kube-proxy/sync.js';
import { cleanupNftables } from '../net/kube-proxy/nftables.js';
import { familyViews as bothFamilyViews } from '../net/kube-proxy/family-view.js';
import { syncNftablesRules, type NftProxierMemory } from '../net/kube-proxy/nftables-sync.js';
import { serviceCIDR } from '../controlplane.js';
import type { ProgramOverride } from '../runtime/overrides.js';
import type { HttpSite } from '../images.js';
import { klogLine } from '../../util/klog.js';
import { sameJSONText } from '../../util/json-copy.js';
import { beforeProxySync, noteProxySync } from './kube-proxy-derived.js';
import { kubeProxyExitLogs, kubeProxyStartupLogs } from './kube-proxy-startup.js';

export const KUBE_PROXY_IMAGE = 'registry.k8s.io/kube-proxy';
/** iptables.syncPeriod default (pkg/proxy/apis/config/v1alpha1/defaults.go). */
export const SYNC_PERIOD_MS = 30_000;
/** pkg/proxy/util FullSyncPeriod. */
export const FULL_SYNC_PERIOD_MS = 3_600_000;

interface ProxyInstance {
  /** config.conf text the running process loaded. */
  config: string;
  logs: string[];
  previousLogs: string[];
  running: boolean;
  /** Whether this process already removed the other backend's rules (platformCleanup at startup). */
  cleanedUp?: boolean;
  /** Whether this process made its first (full) sync: needFullSync starts true in NewProxier. */
  synced?: boolean;
}

/** What a node's last sync left, as its proxier remembers it. */
interface NodeSync {
  /** When it ran. */
  at: number;
  /** The ruleset's revision (iptables) or hash (nftables) it left: someone else's edits change it. */
  hash: number;
  /** The Service/EndpointSlice change counters it had seen (`services/endpointslices`). */
  gen?: string;
  mode?: string;
  /** The last full sync (proxier.lastFullSync). */
  fullAt?: number;
  /** The last stale-chain cleanup (proxier.lastIPTablesCleanup), for large-cluster mode. */
  cleanupAt?: number;
  /** The restore failed: the retry, a syncPeriod later, is full (proxier.needFullSync). */
  needFull?: boolean;
  /** When a foreign edit of the rules was first seen since the last full sync (partial syncs keep it). */
  editedAt?: number;
  /** When the Monitor's canary was first seen gone (it looks every syncPeriod). */
  canaryGoneAt?: number;
  /** Each Service's fingerprint at that sync: what the change trackers compare against (with fpsDelta over it). */
  fps?: Record<string, number>;
  /**
   * The fingerprints that changed since `fps` was written, over it (the same Services: a key here
   * is a key there). Partial syncs write this small record instead of a copy of `fps`, which at
   * 10,000 Services was a third of re-programming one endpoint change; it is folded into a new
   * `fps` once it outgrows FPS_DELTA_MAX.
   */
  fpsDelta?: Record<string, number>;
  /** nftables mode: what the running proxier remembers (its element record, staleChains). */
  nft?: NftProxierMemory;
  /** The same of the IPv6 proxier (the `ip6 kube-proxy` table), once it programmed IPv6 Services. */
  nft6?: NftProxierMemory;
  /** The IPv6 proxier's Service fingerprints at its last successful sync, for its partial syncs (either mode). */
  fps6?: Record<string, number>;
}

export interface ProxyState {
  instances: Record<string, ProxyInstance>;
  /**
   * node → time of the last full sync, a hash of the ruleset it left and the Service/EndpointSlice
   * change counters it had seen (`services/endpointslices`). Kept in the cluster state, so it
   * travels with the snapshot like the store's counters do (Cluster.snapshot `__controllers`).
   */
  synced: Record<string, NodeSync>;
}

function state(c: Cluster): ProxyState {
  return (c.state['kubeProxy'] ??= { instances: {}, synced: {} }) as ProxyState;
}

function configMapText(c: Cluster): string | undefined {
  return c.store.get<ConfigMap>('ConfigMap', 'kube-system', 'kube-proxy')?.data?.['config.conf'];
}

/** klog's header for an error line from pid 1, as the container log shows it. */
function klogError(now: number, file: string, msg: string): string {
  return klogLine('E', now, 1, file, msg);
}

function quoteErr(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Valid Linux modes in v1.35 (validation.go validateProxyModeLinux; nftables is GA). */
const VALID_MODES = ['iptables', 'ipvs', 'nftables'];

export type LoadedConfig = { ok: true; config: KubeProxyConfig } | { ok: false; error: string };

/** options.go loadConfig + Validate, reduced to the fields the simulation uses. */
export function loadKubeProxyConfig(text: string | undefined): LoadedConfig {
  // read at every reconcile of every node: the same text decodes to the same (frozen) answer
  if (text !== undefined && text === lastConfig?.text) return lastConfig.loaded;
  const loaded = decodeKubeProxyConfig(text);
  if (loaded.ok) {
    if (loaded.config.nodePortAddresses) Object.freeze(loaded.config.nodePortAddresses);
    Object.freeze(loaded.config);
  }
  Object.freeze(loaded);
  if (text !== undefined) lastConfig = { text, loaded };
  return loaded;
}

let lastConfig: { text: string; loaded: LoadedConfig } | undefined;

function decodeKubeProxyConfig(text: string | undefined): LoadedConfig {
  if (text === undefined) return { ok: false, error: 'failed complete: open /var/lib/kube-proxy/config.conf: no such file or directory' };
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    const line = (e as { linePos?: { line: number }[] }).linePos?.[0]?.line ?? 1;
    return { ok: false, error: `failed complete: failed to decode: error converting YAML to JSON: yaml: line ${line}: mapping values are not allowed in this context` };
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
    return { ok: false, error: "failed complete: failed to decode: Object 'Kind' is missing in '" + String(text).trim() + "'" };
  }
  const d = doc as Record<string, unknown>;
  if (d['kind'] !== 'KubeProxyConfiguration') {
    return { ok: false, error: `failed complete: failed to decode: no kind "${String(d['kind'] ?? '')}" is registered for version "${String(d['apiVersion'] ?? '')}" in scheme "pkg/proxy/apis/config/scheme/scheme.go:28"` };
  }
  const mode = typeof d['mode'] === 'string' ? d['mode'] : '';
  if (mode !== '' && !VALID_MODES.includes(mode)) {
    return {
      ok: false,
      error: `failed validate: KubeProxyConfiguration.ProxyMode: Invalid value: "${mode}": must be ${VALID_MODES.join(', ')} or blank (blank means the best-available proxy [currently iptables])`,
    };
  }
  const ipt = (d['iptables'] ?? {}) as Record<string, unknown>;
  const cfg: KubeProxyConfig = { mode: mode as 'iptables' | 'ipvs' | 'nftables' | '', randomFully: true };
  if (typeof d['clusterCIDR'] === 'string' && d['clusterCIDR'] !== '') cfg.clusterCIDR = d['clusterCIDR'];
  if (ipt['masqueradeAll'] === true) cfg.masqueradeAll = true;
  if (typeof ipt['masqueradeBit'] === 'number') cfg.masqueradeBit = ipt['masqueradeBit'];
  if (typeof ipt['localhostNodePorts'] === 'boolean') cfg.localhostNodePorts = ipt['localhostNodePorts'];
  if (Array.isArray(d['nodePortAddresses'])) cfg.nodePortAddresses = d['nodePortAddresses'].filter((x): x is string => typeof x === 'string');
  return { ok: true, config: cfg };
}

/** What the process logs as it starts on its pod's node (kube-proxy-startup.ts). */
function startupLogs(c: Cluster, pod: Pod, at: number, text: string, config: KubeProxyConfig): string[] {
  const node = pod.spec.nodeName ? c.store.get<Node>('Node', '', pod.spec.nodeName) : undefined;
  return kubeProxyStartupLogs({ at, text, config, node, image: pod.spec.containers[0]?.image ?? KUBE_PROXY_IMAGE });
}

/**
 * A kube-proxy pod that was already running when the simulation began (a fixture's): its process
 * started with the ConfigMap it finds, at its container's start, long since cleaned up and synced.
 * From here on it is an instance like any other (its log, the exit on a config change).
 */
function adoptRunning(c: Cluster, st: ProxyState, kubeSystemPods: readonly Pod[]): void {
  for (const pod of kubeSystemPods) {
    const uid = pod.metadata.uid ?? '';
    if (!isKubeProxyPod(pod) || st.instances[uid]) continue;
    const startedAt = Date.parse(pod.status?.containerStatuses?.[0]?.state.running?.startedAt ?? '');
    if (Number.isNaN(startedAt)) continue;
    const text = configMapText(c);
    const loaded = loadKubeProxyConfig(text);
    if (!loaded.ok) continue;
    st.instances[uid] = { config: text ?? '', logs: startupLogs(c, pod, startedAt, text ?? '', loaded.config), previousLogs: [], running: true, cleanedUp: true, synced: true };
  }
}

function isKubeProxyPod(p: Pod): boolean {
  return p.metadata.namespace === 'kube-system' && p.metadata.labels?.['k8s-app'] === 'kube-proxy';
}

/** The kube-proxy process (listed in runtime/overrides.ts PROGRAM_OVERRIDES). */
export const kubeProxyProgram: ProgramOverride = {
  repositories: [KUBE_PROXY_IMAGE],
  start(c: Cluster, pod: Pod): { ok: true } | { ok: false; exitCode: number; output: string } {
    const st = state(c);
    const uid = pod.metadata.uid ?? '';
    const prev = st.instances[uid];
    const text = configMapText(c);
    const loaded = loadKubeProxyConfig(text);
    const previousLogs = prev ? prev.logs : [];
    if (!loaded.ok) {
      const line = klogError(c.now(), 'run.go:72', `"command failed" err=${quoteErr(loaded.error)}`);
      st.instances[uid] = { config: text ?? '', logs: [line], previousLogs, running: false };
      return { ok: false, exitCode: 1, output: `${line}\n` };
    }
    st.instances[uid] = { config: text ?? '', logs: startupLogs(c, pod, c.now(), text ?? '', loaded.config), previousLogs, running: true };
    return { ok: true };
  },
  status(c: Cluster, pod: Pod): { running: boolean; ready: boolean; exitCode?: number } {
    const inst = state(c).instances[pod.metadata.uid ?? ''];
    if (!inst) return { running: true, ready: true };
    if (inst.running && inst.config !== (configMapText(c) ?? '')) {
      // options.go eventHandler: the mounted config changed → the process exits and is restarted
      inst.logs.push(...kubeProxyExitLogs(c.now(), "content of the proxy server's configuration file was updated"));
      inst.running = false;
    }
    return inst.running ? { running: true, ready: true } : { running: false, ready: false, exitCode: 1 };
  },
  /**
   * The metrics server on 10249 (cmd/kube-proxy/app/server.go serveMetrics: /proxyMode prints the
   * mode in use, /healthz "ok") and the health server on 10256
   * (pkg/proxy/healthcheck/proxy_health.go: JSON with the last sync time, Go's time.Time String).
   */
  http(c: Cluster, pod: Pod, _ct: Container, port: number): HttpSite | undefined {
    const inst = state(c).instances[pod.metadata.uid ?? ''];
    const loaded = loadKubeProxyConfig(inst ? inst.config : configMapText(c));
    const mode = (loaded.ok ? loaded.config.mode : '') || 'iptables';
    if (port === 10249) return { server: 'Go', pages: { '/proxyMode': mode, '/healthz': 'ok' } };
    if (port !== 10256) return undefined;
    const started = Date.parse(pod.status?.containerStatuses?.[0]?.state.running?.startedAt ?? '') || c.now();
    const goTime = (ms: number): string => {
      // time.Time String of time.Now(): fractional seconds without trailing zeros, then the monotonic reading
      const iso = new Date(ms).toISOString();
      const frac = iso.slice(20, 23).replace(/0+$/, '');
      return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? `.${frac}` : ''} +0000 UTC m=+${((ms - started) / 1000).toFixed(9)}`;
    };
    const body = `{"lastUpdated": "${goTime(c.now())}","currentTime": "${goTime(c.now())}", "nodeEligible": true}`;
    return { server: 'Go', pages: { '/healthz': body, '/livez': body } };
  },
  logs(c: Cluster, pod: Pod, _container: string, previous: boolean): string | undefined {
    const inst = state(c).instances[pod.metadata.uid ?? ''];
    if (!inst) return undefined;
    const lines = previous ? inst.previousLogs : inst.logs;
    return lines.map((l) => `${l}\n`).join('');
  },
};

/**
 * Each node's running kube-proxy pod: the first of `kubeSystemPods` (store order) on that node,
 * as a search of the list per node finds it. Made once per reconcile, which writes no pod.
 */
function runningProxies(kubeSystemPods: readonly Pod[]): Map<string, Pod> {
  const byNode = new Map<string, Pod>();
  for (const p of kubeSystemPods) {
    const node = p.spec.nodeName;
    if (node === undefined || byNode.has(node)) continue;
    if (isKubeProxyPod(p) && !p.metadata.deletionTimestamp && p.status?.containerStatuses?.[0]?.state.running !== undefined) byNode.set(node, p);
  }
  return byNode;
}

/**
 * The node's ruleset revision (IptablesState.rev: every `iptables` and `iptables-restore` write
 * counts, kube-proxy's own included): a different one after kube-proxy's sync means someone else
 * wrote since. (Hashing the ruleset JSON cost a second per sync at 10,000 Services.)
 */
function rulesetHash(host: Host): number {
  // the IPv6 ruleset counts once it is written state (a dual-stack cluster's, or edited by hand):
  // an edit there also starts the timer of the hourly full sync
  const v6 = host.data.state.ip6tables && !ip6RulesDerived(host) ? (host.data.state.ip6tables.rev ?? 0) : 0;
  return iptablesRev(host) + v6 * 2 ** 32;
}

/** The node's nftables revision (NftState.rev: every batch that changed it counts, kube-proxy's own included). */
function nftHash(host: Host): number {
  return nodeNftables(host).rev ?? 0;
}

/**
 * A node's ruleset hash, remembered until a host changes: a user's `iptables` or
 * `iptables-restore` edit touches the hosts (Cluster.touchHosts), so while the host generation stands still
 * the rules are the ones last hashed. Hashing 20 KB of rules per Service at every wake-up was a
 * tenth of a settle. kube-proxy's own writes forget the entry (forgetHash).
 */
const HASHES = new WeakMap<Host, { gen: number; mode: string; hash: number }>();

function cachedHash(c: Cluster, host: Host, mode: string): number {
  const had = HASHES.get(host);
  if (had && had.gen === c.hostGeneration && had.mode === mode) return had.hash;
  const hash = mode === 'nftables' ? nftHash(host) : rulesetHash(host);
  HASHES.set(host, { gen: c.hostGeneration, mode, hash });
  return hash;
}

function forgetHash(host: Host): void {
  HASHES.delete(host);
}

/** A node's sync result; in nftables mode with what the proxier remembers afterwards. */
export type NodeSyncResult = SyncResult & { nft?: NftProxierMemory; nft6?: NftProxierMemory; fps6?: Record<string, number> };

/**
 * One sync of `host`'s rules with the config its kube-proxy loaded, in its mode: partial when
 * `previous` (the last sync's Service fingerprints) is given. In nftables mode `nft` is the running
 * proxier's memory (undefined for a new process), updated in place (net/kube-proxy/nftables-sync.ts).
 */
export function syncNode(c: Cluster, host: Host, config: KubeProxyConfig, previous?: ReadonlyMap<string, number>, staleCleanupDue = true, nft?: NftProxierMemory, nft6?: NftProxierMemory, fps6?: Record<string, number>): NodeSyncResult {
  const allServices = c.store.list<Service>('Service');
  const allSlices = c.store.list<EndpointSlice>('EndpointSlice');
  // the dual-stack proxier: each family's proxier sees its own ClusterIPs and slices (family-view.ts)
  const views = familyViews(c, allServices, allSlices);
  const { services, endpointSlices } = views.IPv4;
  const node = { name: host.name, ips: [host.ip] };
  if (config.mode === 'nftables') {
    const opts = { now: c.now(), ...(previous ? { previous } : {}), ...(nft ? { memory: nft } : {}) };
    const firstOfProcess = !nft?.syncedOnce;
    const r = syncNftablesRules(nodeNftables(host), { services, endpointSlices, node, config, serviceCIDRs: serviceCIDR(c).split(',').filter((x) => !x.includes(':')) }, opts);
    // server_linux.go platformCheckSupported assumes both families in nftables mode, so the
    // dual-stack proxier also keeps `ip6 kube-proxy`: with no IPv6 Service it holds the fixed part
    // only (written by full syncs); on a dual-stack cluster the IPv6 proxier programs the IPv6
    // ClusterIPs with its own memory and its own change tracker: partially when this sync is
    // (the caller's `previous`) and it knows what its last successful sync saw, fully otherwise
    // (its first sync, after its own failure, the hourly one)
    const v6 = views.IPv6;
    if (r.full || v6.services.length > 0) {
      const memory = nft6 ?? { elements: {}, staleChains: {}, syncedOnce: !firstOfProcess };
      const ranges = serviceCIDR(c).split(',').filter((x) => x.includes(':'));
      const node6 = { name: host.name, ips: v6.services.length > 0 && host.data.ip6 ? [host.data.ip6] : [] };
      const previous6 = previous && nft6 && fps6 ? new Map(Object.entries(fps6)) : undefined;

      const r6 = syncNftablesRules(
        nodeNftables(host),
        { services: [...v6.services], endpointSlices: [...v6.endpointSlices], node: node6, config, serviceCIDRs: v6.services.length > 0 ? ranges : [], family: 'ip6' },
        { now: c.now(), memory, ...(previous6 ? { previous: previous6 } : {}) },
      );
      // (set on the result itself: spreading it would render its lazy payload)
      if (v6.services.length > 0) {
        (r as NodeSyncResult).nft6 = r6.nft;
        // a failed IPv6 transaction leaves no fingerprints: its next sync is full
        if (r6.error === undefined) (r as NodeSyncResult).fps6 = Object.fromEntries(r6.fingerprints);
      }
    }
    return r;
  }
  const r: NodeSyncResult = syncProxyRules(nodeIptables(host), { services, endpointSlices, node, config, ...(previous ? { previous } : {}), staleCleanupDue });
  const next6 = syncIp6(host, config, previous ? fps6 : undefined, staleCleanupDue, views.IPv6);
  if (next6) r.fps6 = next6;
  return r;
}

type FamilyViews = ReturnType<typeof bothFamilyViews>;

/**
 * Both families' views of the stored Services and EndpointSlices, kept with the Service list while
 * it, the slice list and the store's change counters of both kinds stand (a write replaces an
 * object in the list it keeps, and counts): the nodes of a cluster sync from the same lists, and
 * each view walks all of them to see whether anything is of IPv6, 40,000 objects per node and
 * sync at 10,000 Services.
 */
const FAMILY_VIEWS = new WeakMap<readonly Service[], { slices: readonly EndpointSlice[]; gen: string; views: FamilyViews }>();

function familyViews(c: Cluster, services: readonly Service[], slices: readonly EndpointSlice[]): FamilyViews {
  const gen = `${c.store.changes.get('Service') ?? 0}/${c.store.changes.get('EndpointSlice') ?? 0}`;
  const had = FAMILY_VIEWS.get(services);
  if (had && had.slices === slices && had.gen === gen) return had.views;
  const views = bothFamilyViews(services, slices);
  FAMILY_VIEWS.set(services, { slices, gen, views });
  return views;
}

/**
 * The dual-stack proxier's IPv6 half (server_linux.go: iptables mode runs both families when the
 * kernel has them, as every Ubuntu node does). On an IPv4 cluster it writes the fixed chains only,
 * and while the node's ip6tables are untouched they stay derived: a full sync only records its
 * config (HostState.ip6Proxy) and drops a derived copy built with another, so the IPv6 half costs
 * nothing. A ruleset someone wrote, or one with IPv6 Services to program (a dual-stack cluster), is
 * synced like upstream's at every sync. Returns the fingerprints its next partial sync starts from.
 */
function syncIp6(
  host: Host,
  config: KubeProxyConfig,
  previous: Record<string, number> | undefined,
  staleCleanupDue: boolean,
  view: { services: readonly Service[]; endpointSlices: readonly EndpointSlice[] },
): Record<string, number> | undefined {
  const hs = host.data.state;
  // (sameJSONText stops at the config's identity: the loaded config is kept while its text stands)
  if (!previous && !sameJSONText(hs.ip6Proxy, config)) {
    hs.ip6Proxy = config;
    if (ip6RulesDerived(host)) resetIp6tables(host, false);
  }
  // on a dual-stack cluster the IPv6 proxier programs the IPv6 ClusterIPs: written state from then
  // on, synced like the IPv4 one (partially when the IPv4 sync is partial and it knows its last
  // fingerprints, so a hand edit in an unchanged Service's chains lasts until the next full sync)
  if (view.services.length === 0 && ip6RulesDerived(host)) return undefined;
  const node = { name: host.name, ips: host.data.ip6 ? [host.data.ip6] : [] };
  const prev = previous ? new Map(Object.entries(previous)) : undefined;
  const r = syncProxyRules(nodeIp6tables(host), { services: [...view.services], endpointSlices: [...view.endpointSlices], node, config, ...(prev ? { previous: prev } : {}), staleCleanupDue });
  return r.error === undefined && r.fingerprints ? Object.fromEntries(r.fingerprints) : undefined;
}

/**
 * NodeSync.fps (and fpsDelta) are plain data for the snapshot; the syncs read and write them as a
 * Map. The Map a record was made from (or read into) is kept with it, keyed by the record that
 * was written last (the delta when there is one), so a 10,000-Service cluster does not convert
 * 10,000 entries each way at every sync; a restored record (a new object) is read again.
 */
const FPS_MAPS = new WeakMap<Record<string, number>, ReadonlyMap<string, number>>();

/** The node's last fingerprints as a Map: `fps` with `fpsDelta` over it. */
function fingerprintMap(s: Pick<NodeSync, 'fps' | 'fpsDelta'> | undefined): ReadonlyMap<string, number> | undefined {
  if (!s?.fps) return undefined;
  const key = s.fpsDelta ?? s.fps;
  let m = FPS_MAPS.get(key);
  if (!m) {
    const fresh = new Map(Object.entries(s.fps));
    for (const [k, v] of Object.entries(s.fpsDelta ?? {})) if (fresh.has(k)) fresh.set(k, v);
    FPS_MAPS.set(key, fresh);
    m = fresh;
  }
  return m;
}

/** How many changed fingerprints fpsDelta holds before they are folded into fps: about √n, so copying the delta at each sync and the whole record at each fold cost about the same. */
function fpsDeltaMax(size: number): number {
  return Math.max(64, Math.ceil(Math.sqrt(size)));
}

/**
 * The records of `next` for the NodeSync, frozen: a snapshot shares them and a comparison of two
 * snapshots stops at their identity (util/json-copy.ts), so a command that syncs nothing copies
 * and compares none of a 10,000-Service cluster's fingerprints. A sync that changed a few of the
 * same Services writes a new delta (the last one with those changed) over the same `fps`; when
 * the sync said which Services changed since the previous map (`changes`), only those are
 * looked at. Other Services, or a delta grown past fpsDeltaMax, write a new `fps` (its keys in
 * the order Object.fromEntries(next) gives).
 */
function fingerprintRecord(prev: Pick<NodeSync, 'fps' | 'fpsDelta'> | undefined, next: ReadonlyMap<string, number>, changes?: FingerprintChanges): Pick<NodeSync, 'fps' | 'fpsDelta'> {
  const prevMap = fingerprintMap(prev);
  if (prev?.fps && prevMap === next) return { fps: prev.fps, ...(prev.fpsDelta ? { fpsDelta: prev.fpsDelta } : {}) };
  let changed: Iterable<string> | undefined;
  if (prevMap && changes && prevMap === changes.since) changed = changes.names;
  else if (prevMap && sameKeys(prevMap, next)) changed = [...next].filter(([k, v]) => prevMap.get(k) !== v).map(([k]) => k);
  if (prev?.fps && changed) {
    const delta: Record<string, number> = { ...prev.fpsDelta };
    for (const k of changed) delta[k] = next.get(k) as number;
    if (Object.keys(delta).length <= fpsDeltaMax(next.size)) {
      Object.freeze(delta);
      FPS_MAPS.set(delta, next);
      return { fps: prev.fps, fpsDelta: delta };
    }
  }
  const rec = Object.freeze(Object.fromEntries(next));
  FPS_MAPS.set(rec, next);
  return { fps: rec };
}

function sameKeys(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  if (a.size !== b.size) return false;
  const ka = a.keys();
  for (const k of b.keys()) if (ka.next().value !== k) return false;
  return true;
}

/** Large-cluster mode cleans stale chains only when syncPeriod passed since the last cleanup. */
function staleCleanupDue(last: NodeSync | undefined, now: number): boolean {
  return last?.cleanupAt === undefined || now - last.cleanupAt > SYNC_PERIOD_MS;
}

/** The iptables Monitor's trigger: its canary chain gone from the first table it watches (mangle). */
function canaryDeleted(host: Host, mode: string): boolean {
  if (mode === 'nftables') return false;
  const mangle = nodeIptables(host).tables.mangle;
  return !mangle || !mangle.chains.some((ch) => ch.name === 'KUBE-PROXY-CANARY');
}

/**
 * Whether this node syncs now, and how (proxier.go syncProxyRules' doFullSync): undefined when it
 * does not; a wake-up is set for a sync that is due later.
 */
function syncKind(c: Cluster, last: NodeSync | undefined, gen: string, mode: string, firstOfProcess: boolean, edited: () => boolean, host: Host): 'full' | 'partial' | undefined {
  const now = c.now();
  if (!last || last.mode !== mode || firstOfProcess) return 'full';
  if (last.needFull) {
    // a failed restore: syncRunner.RetryAfter(syncPeriod), then a full sync
    if (now >= last.at + SYNC_PERIOD_MS) return 'full';
    c.wakeAt(last.at + SYNC_PERIOD_MS);
    return undefined;
  }
  // (an edit seen now is remembered through a partial sync, which leaves it in place)
  const editedNow = edited();
  if (last.gen !== gen) return now >= (last.fullAt ?? 0) + FULL_SYNC_PERIOD_MS ? 'full' : 'partial';
  // Nothing changed in the API. The hourly sync only matters when someone edited the rules since
  // the last full one, so only then is a timer set: an idle cluster costs nothing.
  if (!editedNow && last.editedAt === undefined) return undefined;
  if (canaryDeleted(host, mode)) last.canaryGoneAt ??= now;
  const due = Math.min(last.canaryGoneAt !== undefined ? last.canaryGoneAt + SYNC_PERIOD_MS : Infinity, last.at + FULL_SYNC_PERIOD_MS);
  if (now >= due) return 'full';
  c.wakeAt(due);
  return undefined;
}

/**
 * server_linux.go platformCleanup, once per process: an nftables-mode kube-proxy deletes the
 * iptables (and ipvs) rules kube-proxy left; an iptables-based one deletes the `ip kube-proxy` table.
 */
function platformCleanup(host: Host, mode: string): void {
  if (mode === 'nftables') {
    cleanupIptablesLeftovers(nodeIptables(host));
    // both proxiers' leftovers (CleanupLeftovers runs per family); the IPv6 ones are written state from now on
    if (host.data.state.ip6Proxy) {
      cleanupIptablesLeftovers(nodeIp6tables(host));
      resetIp6tables(host, true);
      delete host.data.state.ip6Proxy;
    }
  }
  else if (host.data.state['nftables'] !== undefined) cleanupNftables(nodeNftables(host));
}

export const kubeProxyController: Controller = {
  name: 'kube-proxy',
  // its process runs in a container the kubelet keeps: a timed check that ends it is the kubelet's to see
  wakesAlso: ['kubelet'],
  // its configuration is kube-system's kube-proxy ConfigMap (configMapText): no other ConfigMap wakes it
  watches: ['Service', 'EndpointSlice', 'Pod', 'ConfigMap@kube-system', 'time', 'hosts'],
  reconcile(c: Cluster): void {
    const st = state(c);
    const gen = `${c.store.changes.get('Service') ?? 0}/${c.store.changes.get('EndpointSlice') ?? 0}`;
    const now = c.now();
    // (nothing below writes a pod or a ConfigMap: both are read once)
    const kubeSystemPods = c.store.list<Pod>('Pod', 'kube-system');
    const live = new Set(kubeSystemPods.filter(isKubeProxyPod).map((p) => p.metadata.uid ?? ''));
    for (const uid of Object.keys(st.instances)) if (!live.has(uid)) delete st.instances[uid];
    adoptRunning(c, st, kubeSystemPods);
    // A running kube-proxy whose config file changed exits (fsnotify); make sure the kubelet looks soon.
    const stored = configMapText(c);
    const text = stored ?? '';
    if (Object.values(st.instances).some((i) => i.running && i.config !== text)) c.wakeAt(now + 1_000, 'kubelet');
    const proxies = runningProxies(kubeSystemPods);
    for (const host of c.nodeHosts()) {
      const pod = proxies.get(host.name);
      if (!pod) continue;
      const inst = st.instances[pod.metadata.uid ?? ''];
      const loaded = loadKubeProxyConfig(inst ? inst.config : stored);
      if (!loaded.ok) continue;
      const mode = loaded.config.mode || 'iptables';
      if (mode === 'ipvs') continue; // ipvs is not simulated: rules left as they are
      if (inst && !inst.cleanedUp) {
        platformCleanup(host, mode);
        forgetHash(host);
        inst.cleanedUp = true;
      }
      const last = st.synced[host.name];
      const hash = (): number => cachedHash(c, host, mode);
      const edited = (): boolean => {
        if (hash() === last?.hash) return false;
        if (last && last.editedAt === undefined) last.editedAt = now;
        return true;
      };
      // The informers hand every change to the proxier (proxier.go OnServiceUpdate /
      // OnEndpointSliceUpdate → Sync), including the first one after a restore: a change is a
      // counter that moved since the node's last sync, compared with what that sync recorded.
      const kind = syncKind(c, last, gen, mode, !!inst && !inst.synced, edited, host);
      if (!kind) continue;
      const lastFps = fingerprintMap(last);
      const previous = kind === 'partial' ? lastFps : undefined;
      const before = beforeProxySync(c, host, lastFps); // (persistence: kube-proxy-derived.ts)
      // a new process (or one that just switched to nftables) starts without the proxier's memory
      const nft = inst && !inst.synced ? undefined : last?.mode === mode ? last.nft : undefined;
      const nft6 = inst && !inst.synced ? undefined : last?.mode === mode ? last.nft6 : undefined;
      const r = syncNode(c, host, loaded.config, previous, staleCleanupDue(last, now), nft, nft6, last?.fps6);
      noteProxySync(c, host, before, mode, kind === 'full' || !previous, loaded.config, r);
      forgetHash(host);
      if (inst) inst.synced = true;
      if (r.error !== undefined) {
        // proxier.go: a failed sync retries a syncPeriod later, as a full one
        st.synced[host.name] = { ...(last ?? { fullAt: 0 }), at: now, hash: hash(), gen, mode, needFull: true, ...(r.nft ? { nft: r.nft } : {}), ...(r.nft6 ? { nft6: r.nft6 } : {}) };
        c.wakeAt(now + SYNC_PERIOD_MS);
        continue;
      }
      const full = kind === 'full' || !previous;
      st.synced[host.name] = {
        at: now,
        hash: hash(),
        gen,
        mode,
        fullAt: full ? now : (last?.fullAt ?? now),
        // a partial sync leaves others' edits in the chains it did not write
        ...(!full && last?.editedAt !== undefined ? { editedAt: last.editedAt } : {}),
        ...(!full && last?.canaryGoneAt !== undefined ? { canaryGoneAt: last.canaryGoneAt } : {}),
        ...(r.staleCleanup === false && last?.cleanupAt !== undefined ? { cleanupAt: last.cleanupAt } : { cleanupAt: now }),
        ...(r.fingerprints ? fingerprintRecord(last, r.fingerprints, r.fingerprintChanges) : {}),
        ...(r.nft ? { nft: r.nft } : {}),
        ...(r.nft6 ? { nft6: r.nft6 } : {}),
        ...(r.fps6 ? { fps6: r.fps6 } : {}),
      };
      // an edit a partial sync left in place is undone by the hourly full sync: its timer (syncKind
      // sets it too, but only when it runs with nothing else changed)
      if (!full && last?.editedAt !== undefined) c.wakeAt(now + FULL_SYNC_PERIOD_MS);
    }
  },
};

/** kube-proxy container logs (for `kubectl logs`), undefined when the pod is not a kube-proxy pod. */
export function kubeProxyLogs(c: Cluster, pod: Pod, container: Container['name'], previous: boolean): string | undefined {
  if (!isKubeProxyPod(pod)) return undefined;
  const inst = state(c).instances[pod.metadata.uid ?? ''];
  void container;
  if (!inst) return '';
  return (previous ? inst.previousLogs : inst.logs).map((l) => `${l}\n`).join('');
}
