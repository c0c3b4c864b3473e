/**
 * Control-plane configuration read from the control-plane node's files, as kubeadm lays them out:
 * static pod manifests in /etc/kubernetes/manifests and the kubelet's /var/lib/kubelet/config.yaml.
 * The files are the single source of truth: edit a flag on the node and the next read sees it.
 */
import { parseYamlMemo as parseYaml } from '../util/yaml-memo.js';
import type { Cluster } from './cluster.js';
import type { Host } from './node/host.js';
import type { Pod } from './api/types.js';
import { recordKubeletStart } from './node/packages.js';
import { activeSwaps, procSwaps } from './node/swap.js';
import { CONTAINERD_ENDPOINT, CONTAINERD_SOCKET, endpointSocket, runtimeDialError, runtimeValidateError } from './node/runtime-health.js';
import { kubeletCmdline, kubeletFlag } from './node/kubelet-cmdline.js';

export const MANIFEST_DIR = '/etc/kubernetes/manifests';
export const KUBELET_CONFIG = '/var/lib/kubelet/config.yaml';

export type ManifestResult = { ok: true; pod: Pod } | { ok: false; error: string };

/** Parse a static pod manifest; errors carry the kubelet's wording for a file it cannot decode. */
export function parseManifest(path: string, text: string): ManifestResult {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    const msg = e instanceof Error ? e.message.split('\n')[0] : String(e);
    return { ok: false, error: `Could not process manifest file "${path}": ${msg}` };
  }
  if (!doc || typeof doc !== 'object' || (doc as { kind?: unknown }).kind !== 'Pod') {
    return { ok: false, error: `Could not process manifest file "${path}": invalid pod: kind is not Pod` };
  }
  const pod = doc as Pod;
  if (!pod.metadata?.name || !Array.isArray(pod.spec?.containers) || pod.spec.containers.length === 0)
    return { ok: false, error: `Could not process manifest file "${path}": invalid pod: spec.containers: Required value` };
  return { ok: true, pod };
}

/** `--key=value` flags of a component's first container command, in order. */
export function commandFlags(pod: Pod): Map<string, string> {
  const flags = new Map<string, string>();
  const c = pod.spec.containers[0];
  for (const arg of [...(c?.command ?? []), ...(c?.args ?? [])]) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(String(arg));
    if (m) flags.set(m[1]!, m[2] ?? 'true');
  }
  return flags;
}

export function controlPlaneHost(c: Cluster): Host | undefined {
  return c.host(c.meta.controlPlane);
}

/** Flags of a control-plane component from its manifest, or undefined when the manifest is missing or broken. */
export function componentFlags(c: Cluster, component: string): Map<string, string> | undefined {
  const host = controlPlaneHost(c);
  const path = `${MANIFEST_DIR}/${component}.yaml`;
  const text = host?.fs.tryRead(path);
  if (text === undefined) return undefined;
  const r = parseManifest(path, text);
  return r.ok ? commandFlags(r.pod) : undefined;
}

/**
 * The flags the running component last started with. Falls back to the manifest: a component
 * that failed to start keeps no flags of its own, so callers use the last good ones (see kubelet).
 * Read-only: a frozen record's map is shared by every caller (FLAG_MAPS).
 */
export function runningFlags(c: Cluster, component: string): ReadonlyMap<string, string> {
  const saved = c.state.componentFlags?.[component];
  if (saved) return flagMap(saved);
  return componentFlags(c, component) ?? new Map();
}

/**
 * The map of a started component's flags record, by the record: a record is replaced whole at
 * each start and frozen once a snapshot takes it (controllers/static-pods.ts, Cluster.snapshot),
 * and shared by every copy of the state, so its map is the same for all of them. Every kubectl
 * line asks for the API server's flags several times (its dial, its authentication), and each
 * asking built the map again. Only frozen records are kept, so a record nobody froze cannot
 * change under a map made of it.
 */
const FLAG_MAPS = new WeakMap<Record<string, string>, ReadonlyMap<string, string>>();

function flagMap(saved: Record<string, string>): ReadonlyMap<string, string> {
  const had = FLAG_MAPS.get(saved);
  if (had) return had;
  const m = new Map(Object.entries(saved));
  if (Object.isFrozen(saved)) FLAG_MAPS.set(saved, m);
  return m;
}

/**
 * The version the API server reports (`kubectl version`, /version): the tag of the image its
 * static pod last started with, so an upgraded manifest changes it once the kubelet restarts it.
 */
export function apiServerVersion(c: Cluster): string {
  const rec = c.state.staticPods?.[c.meta.controlPlane]?.[`${MANIFEST_DIR}/kube-apiserver.yaml`];
  const tag = /:(v\d+\.\d+\.\d+)$/.exec(rec?.running ? rec.image : '')?.[1];
  return tag ?? c.meta.kubernetesVersion;
}

export function serviceCIDR(c: Cluster): string {
  return runningFlags(c, 'kube-apiserver').get('service-cluster-ip-range') ?? '10.96.0.0/12';
}

export function nodePortRange(c: Cluster): [number, number] {
  const r = runningFlags(c, 'kube-apiserver').get('service-node-port-range') ?? '30000-32767';
  const m = /^(\d+)-(\d+)$/.exec(r);
  return m ? [Number(m[1]), Number(m[2])] : [30000, 32767];
}

export function clusterCIDR(c: Cluster): string | undefined {
  return runningFlags(c, 'kube-controller-manager').get('cluster-cidr');
}

export interface KubeletConfig {
  clusterDNS: string[];
  clusterDomain: string;
  staticPodPath: string;
  resolvConf: string;
  /** The CRI endpoint it dials (absent in sessions saved before it was recorded: containerd's default). */
  runtimeEndpoint?: string;
}

/** A kubelet that starts while containerd is down exits with this (server.go Run wraps run's error). */
const KUBELET_RUNTIME_ERROR_PREFIX = 'failed to run Kubelet: ';

/** A kubelet start that failed on its runtime (down, or a wrong endpoint), not on its config file. */
function isRuntimeStartError(error: string): boolean {
  return error.startsWith(`${KUBELET_RUNTIME_ERROR_PREFIX}validate service connection`) || error === `${KUBELET_RUNTIME_ERROR_PREFIX}only support unix socket endpoint`;
}

/** The CRI endpoint a starting kubelet dials: its flag wins over the config file, whose default is containerd's socket. */
export function runtimeEndpoint(host: Host, doc: Record<string, unknown>): string {
  const fromFile = typeof doc['containerRuntimeEndpoint'] === 'string' ? doc['containerRuntimeEndpoint'] : '';
  return kubeletFlag(host, 'container-runtime-endpoint') || fromFile || CONTAINERD_ENDPOINT;
}

/**
 * A node's kubelet configuration (/var/lib/kubelet/config.yaml) as a starting kubelet loads it,
 * or the error that stops the start (an unreadable file, swap on with failSwapOn, or no runtime
 * to connect to).
 */
export function kubeletConfig(host: Host): KubeletConfig | { error: string } {
  // cmd/kubelet/app/server.go NewKubeletCommand parses the flags first ("failed to parse kubelet
  // flag: %w"); kubelet v1.35 no longer has --pod-infra-container-image (kubernetes PR #133779), which
  // kubeadm up to v1.34 put in kubeadm-flags.env and v1.35's upgrade removes (postupgrade.go): a v1.35
  // kubelet started before `kubeadm upgrade apply|node` cleaned the file exits with pflag's error
  const deb = host.data.state.packages?.installed['kubelet'];
  if (deb && Number(deb.split('.')[1]) >= 35 && kubeletFlag(host, 'pod-infra-container-image') !== undefined)
    return { error: 'failed to parse kubelet flag: unknown flag: --pod-infra-container-image' };
  const text = host.fs.tryRead(KUBELET_CONFIG);
  if (text === undefined)
    return { error: `failed to load Kubelet config file ${KUBELET_CONFIG}, error failed to read kubelet config file "${KUBELET_CONFIG}", error: open ${KUBELET_CONFIG}: no such file or directory` };
  let doc: Record<string, unknown>;
  try {
    doc = (parseYaml(text) ?? {}) as Record<string, unknown>;
  } catch (e) {
    return { error: `failed to load Kubelet config file ${KUBELET_CONFIG}, error: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}` };
  }
  // pkg/kubelet/cm/container_manager_linux.go validateSwapConfiguration: with failSwapOn (the
  // default) an active swap area stops the kubelet at start; the error lists /proc/swaps' lines
  if (doc['failSwapOn'] !== false && activeSwaps(host).length > 0) {
    const lines = procSwaps(host).split('\n').slice(1).filter((l) => l !== '');
    return { error: `failed to run Kubelet: running with swap on is not supported, please disable swap! or set --fail-swap-on flag to false. /proc/swaps contained: [${lines.join(' ')}]` };
  }
  // cmd/kubelet/app/server.go run: after the container manager (the swap check above),
  // PreInitRuntimeService dials the runtime, and a kubelet that cannot reach it exits: containerd
  // is down, or the endpoint (--container-runtime-endpoint over the file's containerRuntimeEndpoint,
  // empty meaning the v1beta1 default, containerd's socket) names a socket nothing listens on
  const endpoint = runtimeEndpoint(host, doc);
  if (!host.unitActive('containerd') || endpointSocket(endpoint) !== CONTAINERD_SOCKET) return { error: `${KUBELET_RUNTIME_ERROR_PREFIX}${runtimeValidateError(endpoint)}` };
  const dns = doc['clusterDNS'];
  return {
    clusterDNS: Array.isArray(dns) ? dns.map(String) : [],
    clusterDomain: typeof doc['clusterDomain'] === 'string' ? doc['clusterDomain'] : 'cluster.local',
    staticPodPath: typeof doc['staticPodPath'] === 'string' ? doc['staticPodPath'] : MANIFEST_DIR,
    resolvConf: typeof doc['resolvConf'] === 'string' ? doc['resolvConf'] : '/etc/resolv.conf',
    runtimeEndpoint: endpoint,
  };
}

/**
 * gRPC's dial error of the running kubelet's CRI calls while the runtime's socket is gone: the path
 * is the endpoint it loaded at start (kubeadm's nodes: the instance configuration's
 * unix:///var/run/containerd/containerd.sock), as cri-client dials it.
 */
export function kubeletRuntimeDialError(host: Host): string {
  const cfg = kubeletStartedConfig(host);
  return runtimeDialError(('runtimeEndpoint' in cfg ? cfg.runtimeEndpoint : undefined) ?? CONTAINERD_ENDPOINT);
}

/**
 * The kubelet reads /var/lib/kubelet/config.yaml once, when its process starts
 * (cmd/kubelet/app/server.go loadConfigFile): snapshot the parsed file into host state when the
 * unit starts (fixture build, `systemctl start|restart kubelet`, and systemd's auto-restart of
 * a kubelet that exited). Later edits of the file change nothing until the next start.
 */
export function snapshotKubeletConfig(host: Host): KubeletConfig | { error: string } {
  const cfg = kubeletConfig(host);
  host.data.state.kubeletStartedConfig = cfg;
  host.data.state.kubeletCmdlineAtStart = kubeletCmdline(host);
  recordKubeletStart(host);
  return cfg;
}

/**
 * The configuration the running kubelet loaded at start. A kubelet that could not load its
 * config exits and systemd restarts it every 10 s (Restart=always, RestartSec=10), re-reading the
 * file each time: while the snapshot is an error, the file as it is now is what the next start
 * sees. Hosts without a snapshot (old snapshots) read the file.
 */
export function kubeletStartedConfig(host: Host): KubeletConfig | { error: string } {
  const snap = host.data.state.kubeletStartedConfig;
  if (!snap || 'error' in snap) return kubeletConfig(host);
  return snap;
}

/** systemd's auto-restart of a kubelet that exited on a bad config: the new process re-reads the file. */
export function refreshFailedKubeletConfig(host: Host): void {
  const snap = host.data.state.kubeletStartedConfig;
  if (host.unitActive('kubelet') && (!snap || 'error' in snap)) snapshotKubeletConfig(host);
}

/**
 * A unit's ActiveState as `systemctl is-active` prints it: a started kubelet whose config does not
 * load keeps exiting and systemd restarts it every 10 s (Restart=always), so between two attempts
 * it is `activating` (SubState auto-restart), not `active`.
 */
export function unitActiveState(host: Host, unit: string): 'active' | 'activating' | 'inactive' {
  if (!host.unitActive(unit)) return 'inactive';
  return unit === 'kubelet' && 'error' in kubeletStartedConfig(host) ? 'activating' : 'active';
}

/**
 * Whether the kubelet process is actually running on a host: its unit is active and its start
 * got through (a bad /var/lib/kubelet/config.yaml, swap, or a containerd that was down when it
 * started make it exit at start and systemd restart it in a loop). A containerd that stops later
 * does not stop it: it keeps posting node status, NotReady (node/runtime-health.ts).
 */
export function kubeletRunning(host: Host): boolean {
  return unitActiveState(host, 'kubelet') === 'active';
}

/**
 * When the kubelet stopped running (for the node lifecycle grace period and the Lease): when its
 * unit stopped; for a host that is rebooting, when it went down; for a kubelet that failed at its
 * last start, that start (a missing runtime) or the config edit that broke it.
 */
export function kubeletStoppedAt(host: Host, fallback: number): number {
  const k = host.data.units['kubelet'];
  if (k && !k.active) return k.since;
  if (k && k.since > fallback) return host.data.state.bootedAt ?? fallback;
  const snap = host.data.state.kubeletStartedConfig;
  if (k && snap && 'error' in snap && isRuntimeStartError(snap.error)) return k.since;
  const cfg = host.fs.stat(KUBELET_CONFIG);
  return cfg?.mtime ?? fallback;
}
