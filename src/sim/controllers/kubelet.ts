/**
 * The kubelet on every node (k8s.io/kubernetes pkg/kubelet: kubelet.go syncPod, kuberuntime,
 * prober, images/image_manager.go, status/status_manager.go): creates the pod sandbox (CNI IPAM,
 * resolv.conf), pulls images, starts containers, runs their startup, liveness and readiness
 * probes on the workers' own tickers (prober.ts) and kills a container whose liveness or startup
 * probe fails, restarts crashed containers with exponential back-off (10s doubling to 5m), and
 * finishes graceful deletion.
 * A node whose kubelet is stopped does none of this. A node without a CNI config leaves pods in
 * ContainerCreating with the real sandbox error. While containerd is down the kubelet runs but
 * every CRI call fails: a new pod's sandbox fails with the dial error until the runtime check
 * gives up (node/runtime-health.ts downAt), after which the sync loop skips every pod
 * (kubelet.go syncLoop "Skipping pod synchronization"); running containers keep running in their
 * shims and their status stands until containerd is back.
 *
 * Volumes are set up before the sandbox (a missing ConfigMap is `FailedMount`), init containers
 * run one after another before the app containers, and a restartable init container (a native
 * sidecar, `restartPolicy: Always`) starts in its place and keeps running beside them. Each start
 * builds the container's environment (runtime/env.ts; a missing reference is
 * CreateContainerConfigError) and a run of its program (runtime/processes.ts), whose plan says
 * when it exits, with which code, or whether the OOM killer ends it.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Container, ContainerStatus, Node, Pod, PodCondition } from '../api/types.js';
import { clone } from '../api/store.js';
import { cacheOwnConditions, forgetOwnConditions, previousOwnConditions, readinessGatesMessage, withForeignConditions } from '../runtime/pod-conditions.js';
import { sameJSON } from '../../util/json-copy.js';
import { hostIPList, type Host } from '../node/host.js';
import { lookupImage, pullImage } from '../images.js';
import { containerListener } from '../traffic/path.js';
import { programOf, startRun, finishRun, extendPlan, dropRuns, execSync, nextFileChange } from '../runtime/processes.js';
import { containerProbes, forgetProbes, runProbe, syncProbes, type ProbeType } from './prober.js';
import { containerEnv } from '../runtime/env.js';
import { syncPodVolumes, podVolumesSettled, bindSubPaths, dropPodVolumes, seenVolumes, adoptSeenVolumes, type SeenVolumes } from '../runtime/volumes.js';
import { podQosClass } from '../runtime/qos.js';
import { allocatePodIP, allocatePodIPv6, podFamilies, release } from '../cni/ipam.js';
import { podFs, dropPodFs, podFsChangedSince, podFsGeneration } from '../runtime/podfs.js';
import { podResolvConf } from '../dns/resolv-conf.js';
import { overrideObjects, overrideReadsOnlyItsNode, programOverride } from '../runtime/overrides.js';
import { netToolsOf } from '../runtime/net-tools.js';
import { kubeletRuntimeDialError, kubeletStartedConfig, kubeletRunning, refreshFailedKubeletConfig } from '../controlplane.js';
import { cniStatusAt } from '../cni/config.js';
import { podSandboxes } from '../node/runtime.js';
import { podReferences } from '../runtime/references.js';
import { verifyRunAsNonRoot } from '../runtime/identity.js';
import { runtimeOutage } from '../node/runtime-health.js';
import { PULL_RETRY_MS, errImagePullMessage, imagePullBackOffMessage, pullBackOffEvents, pullBackoffMs, pullFailedEvents } from '../runtime/image-pull.js';
import { sameItems } from '../../util/same-items.js';
import { podPartKey } from '../runtime/pod-keys.js';

const PULL_MS = 1_500;
const BACKOFF_BASE_MS = 10_000;
const BACKOFF_MAX_MS = 300_000;

const watchMemo = new WeakMap<Cluster, { store: Cluster['store']; pods: number; lists: string[][]; keys: string[] }>();

/**
 * The watch keys of the ConfigMaps and Secrets one pod refers to, by its spec object and
 * namespace: they are a pure function of the two (runtime/references.ts reads the spec alone). A
 * stored pod is frozen and shared by every copy of the state, and a status write (the kubelet's,
 * line ~705) keeps the frozen spec it had, so neither a write to another pod nor one to this pod's
 * status walks the spec again. The namespace is kept beside the keys and compared: a spec object
 * is never moved to another namespace in practice, but a hit must not depend on that.
 */
const specWatchKeys = new WeakMap<Pod['spec'], { ns: string; keys: string[] }>();

function watchKeysOf(p: Pod): string[] {
  const ns = p.metadata.namespace ?? 'default';
  const had = specWatchKeys.get(p.spec);
  if (had && had.ns === ns) return had.keys;
  const r = podReferences(p);
  const keys = [...r.configMaps.map((n) => `ConfigMap@${ns}/${n}`), ...r.secrets.map((n) => `Secret@${ns}/${n}`)];
  if (Object.isFrozen(p.spec)) specWatchKeys.set(p.spec, { ns, keys });
  return keys;
}

export const kubeletController: Controller = {
  name: 'kubelet',
  // ConfigMaps and Secrets: a missing one a pod waits for, and volume contents to refresh; only
  // the ones a pod on a node refers to (the kubelet's configmap/secret managers register those)
  watches: ['Pod', 'Node', 'time', 'hosts', 'podfs'],
  // the list is made of the Pods alone (watchMemo follows their counter)
  dynamicInputs: ['Pod'],
  dynamicWatches(c: Cluster): string[] {
    // asked twice per controller per settle round: recomputed only when a Pod changed
    const pods = c.store.changes.get('Pod') ?? 0;
    const memo = watchMemo.get(c);
    if (memo && memo.store === c.store && memo.pods === pods) return memo.keys;
    // the answer is made of the scheduled pods' own key lists (watchKeysOf, memoised by spec): a
    // Pod write that leaves every one of them the same array (a status write) leaves it as it was
    const lists: string[][] = [];
    for (const p of c.store.list<Pod>('Pod')) if (p.spec.nodeName) lists.push(watchKeysOf(p));
    if (memo && sameItems(memo.lists, lists)) {
      watchMemo.set(c, { store: c.store, pods, lists, keys: memo.keys });
      return memo.keys;
    }
    const refs = new Set<string>();
    for (const list of lists) for (const k of list) refs.add(k);
    const keys = [...refs].sort();
    watchMemo.set(c, { store: c.store, pods, lists, keys });
    return keys;
  },
  // the quiet pods of an exact copy are those of its original (their objects are shared, frozen,
  // and the epoch's counters travel with the snapshot): a copy does not sync every pod once again
  // and so are the volumes whose content a sync found as it was written (runtime/volumes.ts SEEN)
  memory: {
    save(c: Cluster): KubeletMemory {
      return { quiet: quietToSave(c), volumes: seenVolumes(c) };
    },
    load(c: Cluster, saved: unknown): void {
      const { quiet, volumes } = saved as KubeletMemory;
      adoptSeenVolumes(c, volumes);
      if (!quiet) return;
      const pods = new Map<string, QuietPod>();
      for (const [uid, q] of quiet) pods.set(uid, { ...q, hosts: hostsKey(c, q.pod, q.node) });
      QUIET.set(c, { store: c.store, pods });
    },
  },
  reconcile(c: Cluster): void {
    for (const h of c.nodeHosts()) refreshFailedKubeletConfig(h);
    const nodes = new Map(c.store.list<Node>('Node').map((n) => [n.metadata.name, n]));
    const quiet = quietPods(c);
    const epoch = kubeletEpoch(c);
    const reads = readsKey(c);
    const tick = c.timeSignal('kubelet');
    const foreign = c.foreignTimeSignal('kubelet');
    const now = c.now();
    for (const pod of [...c.store.list<Pod>('Pod')]) {
      const nodeName = pod.spec.nodeName;
      if (!nodeName) continue;
      const host = c.host(nodeName);
      const node = nodes.get(nodeName);
      if (!host || !node || !kubeletRunning(host)) continue;
      if (pod.metadata.annotations?.['kubernetes.io/config.mirror']) continue; // static pods: static-pods controller
      const uid = pod.metadata.uid ?? '';
      const last = quiet.get(uid);
      // everything the last sync read is as it was: only time can have moved (a probe tick, a wake-up)
      const same = last !== undefined && last.pod === pod && last.node === node && last.epoch === epoch && sameReads(c, last, reads) && !podFsChangedSince(c, uid, last.fsGen);
      if (same && (last.tick === tick || ((!last.onTick || last.foreign === foreign) && now < last.due))) continue;
      const rv = c.store.currentResourceVersion();
      const fsGen = podFsGeneration(c);
      const hosts = hostsKey(c, pod, node);
      const objects = objectsKey(c, pod);
      // every wake-up the sync asks for, through whichever code (volumes, probes, processes)
      c.earliestWakeAsked();
      const full = syncPod(c, host, node, pod, same && last.full);
      const requested = c.earliestWakeAsked();
      // a sync that wrote nothing (no status, no event) on inputs that are all the same changes nothing the next time
      // (the hosts as they were before the sync: what it wrote to its own node's files, a hostPath it created, is a change it syncs again for)
      if (c.store.currentResourceVersion() === rv && pod.status?.podIP) quiet.set(uid, { pod, node, epoch, reads, hosts, objects, fsGen, tick, foreign, due: Math.min(requested, probeTicksFrom(c, pod)), onTick: runsOverride(c, pod), full });
      else quiet.delete(uid);
    }
  },
};

/** What an exact copy of a cluster takes of its kubelet (Controller.memory). */
interface KubeletMemory {
  quiet: [string, QuietPod][] | undefined;
  volumes: SeenVolumes;
}

/** The quiet pods an exact copy of the cluster starts with (QUIET), undefined while there is none for its store. */
function quietToSave(c: Cluster): [string, QuietPod][] | undefined {
  const had = QUIET.get(c);
  if (!had || had.store !== c.store) return undefined;
  const epoch = kubeletEpoch(c);
  const fsGen = podFsGeneration(c);
  // a pod whose files and hosts have not changed since its sync is quiet at the copy's
  // generations (a node's host generation is not saved: the copy's is taken when it loads)
  const reads = readsKey(c);
  return [...had.pods].flatMap(([uid, q]): [string, QuietPod][] => (q.epoch === epoch && sameReads(c, q, reads) && !podFsChangedSince(c, uid, q.fsGen) ? [[uid, { ...q, fsGen }]] : []));
}

/**
 * Pods whose last sync wrote nothing, with what that sync saw. The kubelet runs whenever any pod,
 * node, host or watched object changes, and used to sync every pod each time: on a cluster that
 * is settling, most of those syncs redid work whose answer had not changed. A pod is synced again
 * when its object or its node's object is another one (the store keeps each version frozen), a
 * wake-up asked for outside any controller is reached (the epoch), a host it reads changed
 * (hostsKey: its node's, or every host's when its programs reach the network), a ConfigMap or
 * Secret it reads changed (objectsKey: those it refers to, or every one when its programs reach
 * the network), or one of its own files changed (its own or a container's root: what its exec
 * probes and programs read; runtime/podfs.ts podFsChangedSince). The kubelet's own wake-ups (one pod's back-off, pull, probe tick or
 * process exit) sync only the pods that are due: those whose last sync asked for a wake-up (by any
 * code it ran: a volume's pending refresh too, Cluster.earliestWakeAsked) or has a probe worker's
 * tick at or before now (`due`; a later sync would move their bookkeeping), and
 * pods running a program another controller keeps (runtime/overrides.ts: CoreDNS, kube-proxy,
 * nginx), whose process that controller's wake-ups can end (`onTick`): those are synced again at
 * each wake-up of another controller that wakes the kubelet (wakesAlso: CoreDNS's reload check,
 * kube-proxy's config check) and, like every pod, when due; the kubelet's own wake-ups for other
 * pods (a probe tick, a back-off) leave them be. Pods without an IP yet are
 * always synced (they may wait for another pod's address to be released). Held per cluster and
 * store, beside the state: a session read from a file syncs each pod once; an in-memory copy
 * (grading, validate's runs) starts with its original's (memory).
 */
const QUIET = new WeakMap<Cluster, { store: Cluster['store']; pods: Map<string, QuietPod> }>();

interface QuietPod {
  pod: Pod;
  node: Node;
  epoch: string;
  /** Every host's generation and the ConfigMap and Secret counters at that sync (readsKey): while they stand, so do `hosts` and `objects`. */
  reads: string;
  /** The hosts' generation that sync saw: its node's alone when it reads no other host (hostsKey). */
  hosts: string;
  /** The ConfigMaps and Secrets that sync saw: the versions of those it reads, when it reaches no other pod (objectsKey). */
  objects: string;
  /** The container filesystems' generation before that sync (runtime/podfs.ts podFsChangedSince: this pod's files only). */
  fsGen: number;
  /** The kubelet's wake-up signal at that sync (Cluster.timeSignal). */
  tick: string;
  /** The part of `tick` that other controllers' wake-ups move (Cluster.foreignTimeSignal). */
  foreign: string;
  /** The earliest time that sync asked to be woken at, or a probe worker of the pod next ticks. */
  due: number;
  /** The pod runs a program another controller keeps: every wake-up of the kubelet syncs it. */
  onTick: boolean;
  /** That sync went through the running pod's whole sync, its volume pass included (syncPod's answer). */
  full: boolean;
}

/**
 * The earliest next tick of the pod's probe workers (prober.ts): a sync at or after it probes, or
 * moves a steady worker's ticker on, so the pod is due then even when no wake-up was asked for.
 */
function probeTicksFrom(c: Cluster, pod: Pod): number {
  const probers = c.state.probers;
  if (!probers) return Infinity;
  const uid = pod.metadata.uid ?? '';
  let min = Infinity;
  for (const list of [pod.spec.initContainers, pod.spec.containers, pod.spec.ephemeralContainers]) {
    for (const ct of list ?? []) {
      const workers = probers[podPartKey(uid, ct)]?.workers;
      if (!workers) continue;
      for (const w of Object.values(workers)) if (w && w.next < min) min = w.next;
    }
  }
  return min;
}

/** Whether a container of the pod runs a program another controller keeps (runtime/overrides.ts). */
function runsOverride(c: Cluster, pod: Pod): boolean {
  for (const list of [pod.spec.initContainers, pod.spec.containers, pod.spec.ephemeralContainers]) {
    for (const ct of list ?? []) {
      const image = pullImage(ct.image, c.meta);
      if (image && programOverride(image.repository)) return true;
    }
  }
  return false;
}

function quietPods(c: Cluster): Map<string, QuietPod> {
  const had = QUIET.get(c);
  if (had && had.store === c.store) return had.pods;
  const pods = new Map<string, QuietPod>();
  QUIET.set(c, { store: c.store, pods });
  return pods;
}

/** What every pod's sync depends on besides its own object, its node, the hosts and objects it reads (hostsKey, objectsKey) and its due time (see QUIET). */
function kubeletEpoch(c: Cluster): string {
  return c.sharedTimeSignal();
}

/**
 * The ConfigMaps and Secrets a pod's sync reads. The kubelet reads those the pod refers to
 * (runtime/references.ts: volumes, projected sources, env and envFrom: runtime/volumes.ts,
 * runtime/env.ts) and those its program override reads (kube-proxy's ConfigMap:
 * runtime/overrides.ts overrideObjects); the key is their resourceVersions (`-` for a missing one,
 * so its creation is a change). A pod whose programs reach the network (readsOnlyItsNode) may
 * read any of them through what answers it: it follows every ConfigMap and Secret write, as every
 * pod once did.
 */
function objectsKey(c: Cluster, pod: Pod): string {
  if (!readsOnlyItsNode(c, pod)) return `*${c.store.changes.get('ConfigMap') ?? 0}|${c.store.changes.get('Secret') ?? 0}`;
  let key = '';
  for (const [kind, ns, name] of objectRefsOf(pod)) key += `${c.store.get(kind, ns, name)?.metadata.resourceVersion ?? '-'};`;
  return key;
}

/** A watch key (`Kind@namespace/name`) as its kind, namespace and name. */
function parseObjectKey(key: string): ObjectRef {
  const at = key.indexOf('@');
  const slash = key.indexOf('/', at);
  return [key.slice(0, at), key.slice(at + 1, slash), key.slice(slash + 1)];
}

/** An object a pod's sync reads: kind, namespace, name (its watch key, parsed). */
type ObjectRef = readonly [string, string, string];

/**
 * objectRefsOf's answer by spec object and namespace, each watch key parsed once: objectsKey looks
 * them up at every sameReads miss, and re-parsing the keys there was most of its cost (kl27). The
 * triples are a function of the keys alone, which are a function of the frozen spec and the
 * namespace, so an entry answers exactly as building and parsing them again would.
 */
const specObjectKeys = new WeakMap<Pod['spec'], { ns: string; refs: readonly ObjectRef[] }>();

/** The objects a pod's sync reads (objectsKey), by spec object and namespace (a function of the two alone, as watchKeysOf). */
function objectRefsOf(pod: Pod): readonly ObjectRef[] {
  const ns = pod.metadata.namespace ?? 'default';
  const had = specObjectKeys.get(pod.spec);
  if (had && had.ns === ns) return had.refs;
  const keys = [...watchKeysOf(pod)];
  for (const list of [pod.spec.initContainers, pod.spec.containers, pod.spec.ephemeralContainers]) {
    for (const ct of list ?? []) {
      const image = lookupImage(ct.image);
      const override = image ? programOverride(image.repository) : undefined;
      if (override) for (const k of overrideObjects(override)) if (!keys.includes(k)) keys.push(k);
    }
  }
  const refs = keys.map(parseObjectKey);
  if (Object.isFrozen(pod.spec)) specObjectKeys.set(pod.spec, { ns, refs });
  return refs;
}

/** Every host's generation and the ConfigMap and Secret counters: what hostsKey and objectsKey are made of, cheaply compared. */
function readsKey(c: Cluster): string {
  return `${c.hostGeneration}|${c.store.changes.get('ConfigMap') ?? 0}|${c.store.changes.get('Secret') ?? 0}`;
}

/** Whether the hosts and objects a quiet pod's sync read are as they were: at once when nothing of either moved, else by its own keys. */
function sameReads(c: Cluster, q: QuietPod, reads: string): boolean {
  if (q.reads === reads) return true;
  if (q.hosts !== hostsKey(c, q.pod, q.node) || q.objects !== objectsKey(c, q.pod)) return false;
  // nothing it reads moved: it is as quiet as a sync now would leave it
  q.reads = reads;
  return true;
}

/**
 * The generation of the hosts a pod's sync reads. The kubelet itself reads only the pod's node:
 * its kubelet and runtime state, CNI config, resolv.conf and /etc/hosts for the sandbox, hostPath
 * volumes (runtime/volumes.ts), and what its containers' programs read through them. Another
 * host is reached only through the network: a script's network tools (runtime/processes.ts
 * netAnswers), CoreDNS's server (its forward and loop plugins); such a pod follows every host's
 * changes (Cluster.hostGeneration), as every pod once did. The others follow their node's alone
 * (Cluster.hostGenerationOf): a file written on one node no longer syncs every pod of every node.
 */
function hostsKey(c: Cluster, pod: Pod, node: Node): string {
  return readsOnlyItsNode(c, pod) ? c.hostGenerationOf(node.metadata.name) : `*${c.hostGeneration}`;
}

/**
 * readsOnlyItsNode's answers by spec object (frozen in the store, and kept by a status write, so
 * one answer serves every version of the pod's status) and the network tools' names they were made with.
 */
const NODE_LOCAL = new WeakMap<Pod['spec'], { names: readonly string[] | undefined; local: boolean }>();

/**
 * Whether nothing a sync of the pod runs can reach another host: every container runs no program,
 * the image's own (runtime/program.ts `default`), a program override that reads only its node
 * (runtime/overrides.ts readsOnlyItsNode), or a script that cannot start a network tool (it names
 * none of them and expands nothing that could become one). Exec probes run without the network
 * (processes.ts execSync); httpGet and tcpSocket probes reach the container itself.
 */
function readsOnlyItsNode(c: Cluster, pod: Pod): boolean {
  const names = netToolsOf(c)?.names;
  const had = NODE_LOCAL.get(pod.spec);
  if (had && had.names === names) return had.local;
  let local = true;
  for (const list of [pod.spec.initContainers, pod.spec.containers, pod.spec.ephemeralContainers]) {
    for (const ct of list ?? []) if (local && !containerReadsOnlyItsNode(ct, names ?? [])) local = false;
  }
  if (Object.isFrozen(pod.spec)) NODE_LOCAL.set(pod.spec, { names, local });
  return local;
}

function containerReadsOnlyItsNode(ct: Container, netTools: readonly string[]): boolean {
  // an image whose pull fails runs nothing; one that pulls runs its override, if any (stepContainer)
  const image = lookupImage(ct.image);
  const override = image ? programOverride(image.repository) : undefined;
  if (override) return overrideReadsOnlyItsNode(override);
  const prog = programOf(ct);
  if (prog?.kind !== 'script') return true;
  const text = 'sh' in prog.script ? prog.script.sh : prog.script.argv.join(' ');
  return !text.includes('$') && !text.includes('`') && !netTools.some((n) => text.includes(n));
}

interface Images {
  [node: string]: string[];
}

function pulledImages(c: Cluster, node: string): string[] {
  const t = (c.state['images'] ??= {}) as Images;
  return (t[node] ??= []);
}

function cond(type: string, ok: boolean, now: string, prev: PodCondition[] | undefined, reason?: string): PodCondition {
  const status = ok ? 'True' : 'False';
  const old = prev?.find((p) => p.type === type);
  const c: PodCondition = {
    type,
    status,
    lastProbeTime: null,
    lastTransitionTime: old && old.status === status && old.lastTransitionTime ? old.lastTransitionTime : now,
  };
  if (!ok && reason) {
    c.reason = reason;
  }
  return c;
}

function backoffMs(restarts: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, restarts));
}

/**
 * Sync one pod; true when the sync went through the running pod's whole sync (its volume pass
 * included), false when it stopped early (runtime outage, deletion, a finished pod, no sandbox).
 * `timeOnly`: the pod is due only because time moved (its probe tick, a wake-up it asked for)
 * since a sync that went through on the very same inputs and wrote nothing (QUIET): its volume
 * pass is skipped when it cannot change anything (runtime/volumes.ts podVolumesSettled).
 */
function syncPod(c: Cluster, host: Host, node: Node, podIn: Pod, timeOnly = false): boolean {
  const now = c.now();
  const ts = c.timestamp();
  // the kubelet writes only the pod's status (and metadata on deletion, to a copy of its own): the
  // stored spec and metadata are shared instead of copied at every sync of every pod (Store.put
  // gives what it stores a metadata object of its own)
  // the status in its place among the members (one spread, not two)
  const pod: Pod = podIn.status ? { ...podIn, status: statusCopy(podIn.status) } : { ...podIn };
  const uid = pod.metadata.uid ?? '';

  const outage = runtimeOutage(host);
  if (outage) {
    // containers cannot be started or killed: a new pod's RunPodSandbox fails
    // (kuberuntime_manager.go createPodSandbox) until the runtime is found down, and from then on
    // the sync loop skips every pod; a deleted pod stays Terminating
    if (!pod.metadata.deletionTimestamp && now < outage.downAt && !pod.status?.containerStatuses && podSandboxes(c)[uid] === undefined)
      pendingOnSandboxError(c, node, host, pod, podIn, `Failed to create pod sandbox: ${kubeletRuntimeDialError(host)}`);
    return false;
  }
  if (pod.metadata.deletionTimestamp) {
    // finished, and kept by its finalizers: nothing of it runs here any more
    if (pod.metadata.deletionGracePeriodSeconds === 0 && (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed')) return false;
    const started = Date.parse(pod.metadata.deletionTimestamp);
    const slow = pod.spec.containers.some(ignoresSigterm);
    const grace = (pod.metadata.deletionGracePeriodSeconds ?? 30) * 1000;
    const done = started + (slow ? grace : Math.min(grace, 1_000));
    if (now >= done) {
      release(c, uid);
      dropPodFs(c, uid);
      dropPodVolumes(c, uid);
      dropRuns(c, uid);
      forgetPod(c, uid);
      // the pod worker's terminal status (kubelet.go syncTerminatedPod: a deleted pod gets the
      // phase its containers ended with, since v1.27), then status_manager.go's final DELETE with
      // grace period 0: the registry first shortens the grace to 0 (rest.BeforeDelete, an update),
      // then removes the pod unless finalizers keep it. A watch sees the pod `0/1 Completed` (or
      // `Error`) three times after `Terminating`, as on a real node.
      const ns = pod.metadata.namespace;
      const terminal = terminatedPod(c.store.get<Pod>('Pod', ns, pod.metadata.name) ?? pod, slow, ts);
      c.write(terminal);
      // only its metadata's grace period changes: a copy of the metadata, the rest shared
      const stored = c.store.get<Pod>('Pod', ns, pod.metadata.name) ?? terminal;
      if (stored.metadata.deletionGracePeriodSeconds !== 0) c.write({ ...stored, metadata: { ...stored.metadata, deletionGracePeriodSeconds: 0 } });
      c.deleteObject('Pod', ns, pod.metadata.name);
    } else c.wakeAt(done);
    return false;
  }
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') {
    // a finished pod's status is not written again: nothing to remember for it
    forgetOwnConditions(c, uid);
    return false;
  }

  const status = (pod.status ??= {});
  // sandbox
  // when each pod's sandbox was created: kubelet-private runtime state, not part of the object
  const sandboxes = podSandboxes(c);
  const sandboxed = !status.podIP || sandboxes[uid] === undefined;
  if (sandboxed) {
    // volumes are mounted before the sandbox exists (kubelet.go SyncPod WaitForAttachAndMount)
    const mountErr = syncPodVolumes(c, pod, now);
    if (mountErr) {
      if (!status.containerStatuses) {
        setPending(c, host, pod, podIn, ts);
        c.write(pod);
      }
      c.recordEvent(pod, 'Warning', 'FailedMount', `MountVolume.SetUp failed for volume "${mountErr.volume}" : ${mountErr.error}`, 'kubelet', node.metadata.name);
      return false;
    }
    if (!pod.spec.hostNetwork && !cniStatusAt(host, c.hostGenerationOf(host.name)).ready) {
      if (!status.containerStatuses)
        pendingOnSandboxError(c, node, host, pod, podIn, `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox: plugin type="${c.meta.cni.plugin}" failed (add): no network config found in /etc/cni/net.d`);
      return false;
    }
    const ip = status.podIP ?? (pod.spec.hostNetwork ? host.ip : allocatePodIP(c, node, uid, { namespace: pod.metadata.namespace ?? 'default', name: pod.metadata.name }));
    if (!ip) return false;
    // a dual-stack pod network gives the sandbox an address of each family, IPv4 first (the
    // kubelet's podIPs follow the CNI result's order; kubelet_pods.go sortPodIPs puts the node's
    // primary family first); host-network pods carry the node's addresses
    const ip6 = pod.spec.hostNetwork ? host.data.ip6 : podFamilies(c, node).includes('IPv6') ? (status.podIPs?.[1]?.ip ?? allocatePodIPv6(c, node, uid)) : undefined;
    status.podIP = ip;
    status.podIPs = [{ ip }, ...(ip6 ? [{ ip: ip6 }] : [])];
    status.hostIP = host.ip;
    status.hostIPs = hostIPList(host.data);
    status.startTime ??= ts;
    status.phase = 'Pending';
    const inits = pod.spec.initContainers ?? [];
    if (inits.length > 0) status.initContainerStatuses = inits.map((ct) => waiting(ct, 'PodInitializing'));
    status.containerStatuses = pod.spec.containers.map((ct) => waiting(ct, inits.length > 0 ? 'PodInitializing' : 'ContainerCreating'));
    writePodFiles(c, host, pod);
    c.wakeAt(now + PULL_MS);
    sandboxes[uid] = now;
  }

  const sandboxAt = sandboxes[uid] ?? now;
  // the periodic sync refreshes ConfigMap, Secret, downwardAPI and projected volumes; a sync due
  // only by time after one that ran this pass on the same pod, objects and hosts finds them as that
  // one left them, unless an update is pending (podVolumesSettled)
  if (!(timeOnly && !sandboxed && podVolumesSettled(c, pod))) syncPodVolumes(c, pod, sandboxAt);
  const restartPolicy = pod.spec.restartPolicy ?? 'Always';
  const events: [type: 'Normal' | 'Warning', reason: string, msg: string][] = [];

  // init containers, in order: each must complete (a sidecar: start) before the next begins
  const inits = pod.spec.initContainers ?? [];
  const initStatuses = inits.map((ct, i) => status.initContainerStatuses?.[i] ?? waiting(ct, 'PodInitializing'));
  let initialized = true;
  let initFailed = false;
  const wasInitialized = hasTrueCondition(podIn, 'Initialized');
  for (let i = 0; i < inits.length; i++) {
    const ct = inits[i]!;
    const cs = initStatuses[i]!;
    const sidecar = isSidecar(ct);
    if (!sidecar && cs.state.terminated?.exitCode === 0) continue;
    // a finished pod does not start init containers again
    if (!sidecar && wasInitialized) continue;
    stepContainer(c, node, pod, ct, cs, sandboxAt, events, sidecar ? 'Always' : restartPolicy === 'Never' ? 'Never' : 'OnFailure');
    // a sidecar counts as started once it has run, even if it crashed since (it restarts in place)
    const sidecarStarted = cs.started === true || cs.state.terminated !== undefined || cs.lastState.terminated !== undefined || wasInitialized;
    if (sidecar ? sidecarStarted : cs.state.terminated?.exitCode === 0) {
      if (!sidecar) cs.ready = true;
      continue;
    }
    if (!sidecar && cs.state.terminated && restartPolicy === 'Never') initFailed = true;
    initialized = false;
    break;
  }
  if (inits.length > 0) status.initContainerStatuses = initStatuses;

  const statuses = pod.spec.containers.map((ct, i) => status.containerStatuses?.[i] ?? waiting(ct, 'ContainerCreating'));
  if (initialized) {
    pod.spec.containers.forEach((ct, i) => {
      const cs = statuses[i]!;
      if (cs.state.waiting?.reason === 'PodInitializing') cs.state = { waiting: { reason: 'ContainerCreating' } };
      stepContainer(c, node, pod, ct, cs, sandboxAt, events, restartPolicy);
    });
  }
  status.containerStatuses = statuses;

  // the rest of the status is a function of the pod object, its containers' statuses and the
  // status manager's own conditions (SAME_STATUS): when a sync of this very object found it
  // unchanged from the same inputs, so does this one
  const ephemeral = pod.spec.ephemeralContainers ?? [];
  const ownBefore = c.state.kubeletConditions?.[uid];
  const steady = !sandboxed && ephemeral.length === 0 && ownBefore !== undefined;
  if (steady && sameStatusAgain(podIn, ownBefore, status)) {
    for (const [type, reason, msg] of events) c.recordEvent(pod, type, reason, msg, 'kubelet', node.metadata.name);
    return true;
  }
  statusBuilds++;

  // phase and conditions (sidecars do not decide completion)
  const allTerminated = statuses.every((s) => s.state.terminated);
  if (initFailed) status.phase = 'Failed';
  else if (!initialized) status.phase = 'Pending';
  else if (allTerminated && restartPolicy !== 'Always' && (restartPolicy === 'Never' || statuses.every((s) => s.state.terminated?.exitCode === 0))) {
    status.phase = statuses.every((s) => s.state.terminated?.exitCode === 0) ? 'Succeeded' : 'Failed';
  } else if (statuses.some((s) => s.state.running || s.lastState.terminated || s.state.terminated)) status.phase = 'Running';
  else status.phase = 'Pending';
  const terminal = status.phase === 'Succeeded' || status.phase === 'Failed';
  if (terminal) stopSidecars(c, pod, initStatuses);
  // ephemeral containers (kubectl debug): started once in a running pod, never restarted, never
  // ready, not counted in the pod's phase (kuberuntime_manager.go computePodActions)
  if (ephemeral.length > 0) {
    const old = status.ephemeralContainerStatuses ?? [];
    const eStatuses = ephemeral.map((ct) => old.find((x) => x.name === ct.name) ?? waiting(ct, 'ContainerCreating'));
    if (status.phase === 'Running') ephemeral.forEach((ct, i) => stepContainer(c, node, pod, ct, eStatuses[i]!, sandboxAt, events, 'Never'));
    for (const cs of eStatuses) cs.ready = false;
    status.ephemeralContainerStatuses = eStatuses;
  }
  const sidecarStatuses = initStatuses.filter((_, i) => isSidecar(inits[i]!));
  const readyOnes = [...statuses, ...sidecarStatuses];
  const allReady = readyOnes.length > 0 && readyOnes.every((s) => s.ready);
  // the conditions other controllers set (readiness gates') are kept, and the gates hold Ready
  const prev = podIn.status?.conditions;
  const own = previousOwnConditions(c, uid, prev);
  const gatesUnmet = allReady && !terminal ? readinessGatesMessage(pod, prev ?? []) : undefined;
  const ready = cond('Ready', allReady && gatesUnmet === undefined, ts, own, terminal ? 'PodCompleted' : gatesUnmet !== undefined ? 'ReadinessGatesNotReady' : 'ContainersNotReady');
  if (gatesUnmet !== undefined) ready.message = gatesUnmet;
  status.conditions = withForeignConditions(prev, [
    cond('PodReadyToStartContainers', !terminal, ts, own),
    cond('Initialized', initialized || terminal, ts, own, 'ContainersNotInitialized'),
    ready,
    cond('ContainersReady', allReady, ts, own, terminal ? 'PodCompleted' : 'ContainersNotReady'),
    cond('PodScheduled', true, ts, own),
  ]);
  cacheOwnConditions(c, uid, status.conditions);
  fixNotReadyMessages(pod);
  status.qosClass = podQosClass(pod);
  if (!sameJSON(pod, podIn)) c.write(pod);
  else if (steady && c.state.kubeletConditions?.[uid] === ownBefore && Object.isFrozen(podIn)) SAME_STATUS.set(podIn, ownBefore);
  for (const [type, reason, msg] of events) c.recordEvent(pod, type, reason, msg, 'kubelet', node.metadata.name);
  return true;
}

/** Whether the pod's stored status carries a condition of this type that is True (a loop: asked at every sync of every pod). */
function hasTrueCondition(pod: Pod, type: string): boolean {
  for (const x of pod.status?.conditions ?? []) if (x.type === type && x.status === 'True') return true;
  return false;
}

/**
 * The status a sync works on, for a stored pod's (frozen, shared by the state's copies): its top
 * level and each container status copied one level deep, everything below shared. A sync assigns
 * only members of those: the status's (phase, conditions, podIPs, the status lists, qosClass) and
 * a container status's (state, lastState, ready, started, restartCount, containerID, imageID,
 * image); the lists it writes back are new arrays, and the conditions it edits
 * (fixNotReadyMessages) are the ones it has just built. So the copy holds the same JSON as a deep
 * clone at every step, and a write below a shared part would throw rather than reach the stored
 * object. A status that is not frozen (a hand-built test pod) is cloned as before.
 */
function statusCopy(s: NonNullable<Pod['status']>): NonNullable<Pod['status']> {
  if (!Object.isFrozen(s)) return clone(s);
  const out = { ...s };
  if (s.containerStatuses) out.containerStatuses = s.containerStatuses.map((cs) => ({ ...cs }));
  if (s.initContainerStatuses) out.initContainerStatuses = s.initContainerStatuses.map((cs) => ({ ...cs }));
  if (s.ephemeralContainerStatuses) out.ephemeralContainerStatuses = s.ephemeralContainerStatuses.map((cs) => ({ ...cs }));
  return out;
}

/**
 * Pods whose sync gave their status back unchanged, by pod object (frozen in the store, shared by
 * the copies of a state): the status manager's own conditions (runtime/pod-conditions.ts
 * kubeletConditions, `type` → `status lastTransitionTime`) that sync started and ended with.
 *
 * After the containers are stepped, the rest of a sync (phase, conditions and their messages,
 * QoS class, the comparison with the stored status) reads only the pod object (its spec, the
 * conditions it carries), the containers' and init containers' statuses, the own conditions and
 * the time. The time enters only as the lastTransitionTime of a condition whose status is not
 * the one the own conditions hold, or that they lack; such a sync stores that condition in the own
 * conditions, so a sync that ended with the own conditions it started with used no time at all.
 * A later sync of the same object that steps its containers to the same statuses (as JSON) with
 * the same own conditions therefore finds the status unchanged too, and stores nothing: it stops
 * after recording its events. Not for a pod with ephemeral containers (stepped in that part) nor a
 * sync that created the sandbox (it sets the addresses).
 */
const SAME_STATUS = new WeakMap<Pod, Readonly<Record<string, string>>>();

let statusBuilds = 0;

/** How many syncs have built a running pod's phase and conditions (not found them unchanged through SAME_STATUS): tests. */
export function kubeletStatusBuilds(): number {
  return statusBuilds;
}

/** Whether the containers' statuses after stepping, with these own conditions, are those a sync of `podIn` found unchanged (SAME_STATUS). */
function sameStatusAgain(podIn: Pod, own: Readonly<Record<string, string>>, status: NonNullable<Pod['status']>): boolean {
  const had = SAME_STATUS.get(podIn);
  if (had === undefined || (had !== own && !sameJSON(had, own))) return false;
  const was = podIn.status;
  return was !== undefined && sameJSON(status.containerStatuses, was.containerStatuses) && sameJSON(status.initContainerStatuses, was.initContainerStatuses);
}

/**
 * The status of a pod the kubelet has taken on but cannot start yet (volumes not mounted, no
 * sandbox): Pending on this host, its containers waiting in ContainerCreating, or PodInitializing
 * behind init containers.
 */
function setPending(c: Cluster, host: Host, pod: Pod, podIn: Pod, ts: string): void {
  const status = (pod.status ??= {});
  status.phase = 'Pending';
  status.hostIP = host.ip;
  status.hostIPs = hostIPList(host.data);
  status.startTime ??= ts;
  if (pod.spec.initContainers?.length) status.initContainerStatuses = pod.spec.initContainers.map((ct) => waiting(ct, 'PodInitializing'));
  status.containerStatuses = pod.spec.containers.map((ct) => waiting(ct, pod.spec.initContainers?.length ? 'PodInitializing' : 'ContainerCreating'));
  const uid = pod.metadata.uid ?? '';
  status.conditions = withForeignConditions(podIn.status?.conditions, initialConditions(pod, ts, previousOwnConditions(c, uid, podIn.status?.conditions)));
  cacheOwnConditions(c, uid, status.conditions);
  status.qosClass = podQosClass(pod);
  fixNotReadyMessages(pod);
}

/**
 * A pod whose sandbox cannot be created: Pending in ContainerCreating (PodInitializing with init
 * containers) with the FailedCreatePodSandBox event (kuberuntime_manager.go SyncPod).
 */
function pendingOnSandboxError(c: Cluster, node: Node, host: Host, pod: Pod, podIn: Pod, msg: string): void {
  setPending(c, host, pod, podIn, c.timestamp());
  c.write(pod);
  c.recordEvent(pod, 'Warning', 'FailedCreatePodSandBox', msg, 'kubelet', node.metadata.name);
}

/** A restartable init container: a native sidecar (KEP-753), started in order and kept running. */
function isSidecar(ct: Container): boolean {
  return ct['restartPolicy'] === 'Always';
}

/** When the pod's app containers have finished, its sidecars are stopped (SIGTERM: exit 143). */
function stopSidecars(c: Cluster, pod: Pod, initStatuses: ContainerStatus[]): void {
  const ts = c.timestamp();
  (pod.spec.initContainers ?? []).forEach((ct, i) => {
    const cs = initStatuses[i];
    if (!cs || !isSidecar(ct) || !cs.state.running) return;
    finishRun(c, pod, ct.name, c.now());
    cs.state = { terminated: { exitCode: 143, reason: 'Error', startedAt: cs.state.running.startedAt ?? ts, finishedAt: ts, ...(cs.containerID ? { containerID: cs.containerID } : {}) } };
    cs.ready = false;
    cs.started = false;
  });
}

/** The conditions of a pod whose containers have not started (no sandbox, or volumes not mounted). */
function initialConditions(pod: Pod, ts: string, prev: PodCondition[] | undefined): PodCondition[] {
  const inits = (pod.spec.initContainers ?? []).length > 0;
  return [
    cond('PodReadyToStartContainers', false, ts, prev),
    cond('Initialized', !inits, ts, prev, 'ContainersNotInitialized'),
    cond('Ready', false, ts, prev, 'ContainersNotReady'),
    cond('ContainersReady', false, ts, prev, 'ContainersNotReady'),
    cond('PodScheduled', true, ts, prev),
  ];
}

/**
 * A deleted pod the kubelet has finished but finalizers keep (kubelet_pods.go generateAPIPodStatus
 * for a terminal pod): every container terminated — exit 0 when it stopped on SIGTERM, 137 when
 * the grace period ran out (the `slow` PID 1 that ignores SIGTERM) — the phase Succeeded or
 * Failed by those codes, the pod no longer ready.
 */
function terminatedPod(podIn: Pod, slow: boolean, ts: string): Pod {
  // what it edits: the status's members, and its conditions' (copied here); the rest is shared (statusCopy)
  const was = podIn.status;
  const pod: Pod = was && Object.isFrozen(was) ? { ...podIn, status: { ...statusCopy(was), ...(was.conditions ? { conditions: was.conditions.map((x) => ({ ...x })) } : {}) } } : clone(podIn);
  const code = slow ? 137 : 0;
  const status = (pod.status ??= {});
  status.containerStatuses = (status.containerStatuses ?? []).map((cs) => {
    const startedAt = cs.state.running?.startedAt ?? cs.state.terminated?.startedAt ?? ts;
    // status_manager.go TerminatePod: a container that never ran is "missing", a failure
    const unknown = { exitCode: 137, reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated' };
    const terminated =
      cs.state.terminated ??
      (cs.state.running ? { exitCode: code, reason: code === 0 ? 'Completed' : 'Error', startedAt, finishedAt: ts, ...(cs.containerID ? { containerID: cs.containerID } : {}) } : unknown);
    return { ...cs, ready: false, started: false, state: { terminated } };
  });
  // a pod deleted before any container ran ends Failed (kubelet_pods.go getPhase, podIsTerminal)
  status.phase = status.containerStatuses.length > 0 && status.containerStatuses.every((cs) => cs.state.terminated?.exitCode === 0) ? 'Succeeded' : 'Failed';
  for (const cnd of status.conditions ?? []) {
    if ((cnd.type === 'Ready' || cnd.type === 'ContainersReady') && cnd.status === 'True') {
      cnd.status = 'False';
      cnd.reason = 'PodCompleted';
      delete cnd.message;
      cnd.lastTransitionTime = ts;
    }
  }
  return pod;
}

/** Drop the kubelet's private state for a pod that is gone. */
function forgetPod(c: Cluster, uid: string): void {
  delete c.state.sandboxAt?.[uid];
  forgetOwnConditions(c, uid);
  forgetProbes(c, uid);
  const timers = c.state['kubeletTimers'] as Record<string, unknown> | undefined;
  if (timers) for (const k of Object.keys(timers)) if (k.startsWith(`${uid}/`)) delete timers[k];
}

function fixNotReadyMessages(pod: Pod): void {
  const sidecars = new Set((pod.spec.initContainers ?? []).filter(isSidecar).map((ct) => ct.name));
  const notReady = [...(pod.status?.initContainerStatuses ?? []).filter((s) => sidecars.has(s.name)), ...(pod.status?.containerStatuses ?? [])].filter((s) => !s.ready).map((s) => s.name);
  const incomplete = (pod.status?.initContainerStatuses ?? []).filter((s) => !(s.state.terminated?.exitCode === 0 || (sidecars.has(s.name) && s.started))).map((s) => s.name);
  for (const cnd of pod.status?.conditions ?? []) {
    if (cnd.type === 'Initialized' && cnd.status === 'False') cnd.message = `containers with incomplete status: [${incomplete.join(' ')}]`;
    if ((cnd.type === 'Ready' || cnd.type === 'ContainersReady') && cnd.status === 'False' && cnd.reason === 'ContainersNotReady')
      cnd.message = `containers with unready status: [${notReady.join(' ')}]`;
  }
}

function waiting(ct: Container, reason: string, message?: string): ContainerStatus {
  return {
    name: ct.name,
    image: ct.image,
    imageID: '',
    ready: false,
    restartCount: 0,
    started: false,
    state: { waiting: message ? { reason, message } : { reason } },
    lastState: {},
  };
}

function containerId(c: Cluster): string {
  let s = '';
  for (let i = 0; i < 8; i++) s += c.random.nextU32().toString(16).padStart(8, '0');
  return `containerd://${s}`;
}

function stepContainer(
  c: Cluster,
  node: Node,
  pod: Pod,
  ct: Container,
  cs: ContainerStatus,
  sandboxAt: number,
  events: [type: 'Normal' | 'Warning', reason: string, msg: string][],
  restartPolicy: 'Always' | 'OnFailure' | 'Never',
): void {
  const now = c.now();
  const ts = c.timestamp();
  const image = pullImage(ct.image, c.meta);
  const nodeImages = pulledImages(c, node.metadata.name);
  const bkey = podPartKey(`${pod.metadata.uid}`, ct);
  const timers = (c.state['kubeletTimers'] ??= {}) as Record<string, { nextAt: number; pulls: number }>;
  const timer = (timers[bkey] ??= { nextAt: 0, pulls: 0 });
  const nextAt = timer.nextAt;
  /** This sync started the container (its readiness is probed at once). */
  let justStarted = false;

  const start = (): void => {
    // CreateContainerConfigError: the container is not created; the kubelet retries after a back-off
    const configError = (message: string): void => {
      cs.state = { waiting: { reason: 'CreateContainerConfigError', message } };
      events.push(['Warning', 'Failed', `Error: ${message}`]);
      timer.nextAt = now + BACKOFF_BASE_MS;
      c.wakeAt(timer.nextAt);
    };
    // kubelet_pods.go makeEnvironmentVariables: a missing reference stops the start
    const env = containerEnv(c, pod, ct, pod.spec.hostNetwork ? node.metadata.name : pod.spec.hostname ?? pod.metadata.name);
    if ('error' in env) return configError(env.error);
    // kuberuntime_container.go generateContainerConfig: after the run options, the image user is
    // checked against runAsNonRoot
    const nonRoot = verifyRunAsNonRoot(pod, ct);
    if (nonRoot) return configError(nonRoot);
    const prog = programOf(ct);
    if (prog?.kind === 'not-found') {
      const msg = `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "${prog.exe}": executable file not found in $PATH`;
      cs.state = { terminated: { exitCode: 128, reason: 'StartError', message: msg, startedAt: '1970-01-01T00:00:00Z', finishedAt: ts, containerID: containerId(c) } };
      events.push(['Warning', 'Failed', `Error: ${msg}`]);
      return;
    }
    const override = image ? programOverride(image.repository) : undefined;
    const started = override?.start(c, pod, ct);
    if (started && !started.ok) {
      cs.containerID = containerId(c);
      cs.imageID = `${image!.repository}@${image!.digest}`;
      cs.state = { terminated: { exitCode: started.exitCode, reason: 'Error', startedAt: ts, finishedAt: ts, containerID: cs.containerID } };
      cs.ready = false;
      events.push(['Normal', 'Created', `Created container: ${ct.name}`], ['Normal', 'Started', `Started container ${ct.name}`]);
      return;
    }
    bindSubPaths(c, pod, ct);
    const plan = startRun(c, pod, ct, env.vars);
    cs.state = { running: { startedAt: ts } };
    // prober_manager.go isContainerStarted: with a startup probe, not before it succeeds
    cs.started = !ct.startupProbe;
    justStarted = true;
    cs.containerID = containerId(c);
    cs.imageID = `${image!.repository}@${image!.digest}`;
    cs.image = ct.image.includes('/') || ct.image.includes(':') ? imageDisplay(ct.image) : `${image!.repository}:latest`.replace('docker.io/library/', 'docker.io/library/');
    events.push(['Normal', 'Created', `Created container: ${ct.name}`], ['Normal', 'Started', `Started container ${ct.name}`]);
    if (plan.kind !== 'runs') c.wakeAt(plan.at);
    else if (plan.checkedTo !== undefined) c.wakeAt(plan.checkedTo);
  };

  // Waiting for the first start (pull) or a back-off to expire
  if (cs.state.waiting) {
    const reason = cs.state.waiting.reason;
    if ((reason === 'ContainerCreating' || reason === 'PodInitializing') && now < sandboxAt + PULL_MS) {
      c.wakeAt(sandboxAt + PULL_MS);
      return;
    }
    if ((reason === 'CrashLoopBackOff' || reason === 'ImagePullBackOff' || reason === 'ErrImagePull' || reason === 'CreateContainerConfigError') && now < nextAt) {
      c.wakeAt(nextAt);
      return;
    }
    if (!image) {
      // ErrImagePull, then ImagePullBackOff while the pull back-off (10s doubling) runs
      if (reason !== 'ErrImagePull') {
        events.push(...pullFailedEvents(ct.image));
        timer.pulls += 1;
        timer.nextAt = now + PULL_RETRY_MS;
        cs.state = { waiting: { reason: 'ErrImagePull', message: errImagePullMessage(ct.image) } };
      } else {
        timer.nextAt = now + pullBackoffMs(timer.pulls);
        events.push(...pullBackOffEvents(ct.image));
        cs.state = { waiting: { reason: 'ImagePullBackOff', message: imagePullBackOffMessage(ct.image) } };
      }
      c.wakeAt(timer.nextAt);
      return;
    }
    if (reason === 'ContainerCreating' || reason === 'PodInitializing' || reason === 'ErrImagePull' || reason === 'ImagePullBackOff') {
      const present = nodeImages.includes(image.repository) && ct.imagePullPolicy !== 'Always';
      if (present) events.push(['Normal', 'Pulled', `Container image "${ct.image}" already present on machine and can be accessed by the pod`]);
      else {
        events.push(['Normal', 'Pulling', `Pulling image "${ct.image}"`]);
        events.push(['Normal', 'Pulled', `Successfully pulled image "${ct.image}" in 1.2s (1.2s including waiting). Image size: ${image.sizeBytes} bytes.`]);
        if (!nodeImages.includes(image.repository)) nodeImages.push(image.repository);
      }
    } else if (reason === 'CrashLoopBackOff') {
      cs.restartCount += 1;
      if (nodeImages.includes(image.repository)) events.push(['Normal', 'Pulled', `Container image "${ct.image}" already present on machine and can be accessed by the pod`]);
    } else if (reason === 'CreateContainerConfigError') {
      events.push(['Normal', 'Pulled', `Container image "${ct.image}" already present on machine and can be accessed by the pod`]);
    }
    start();
  }

  // Running: does the process exit now, do its probes pass, does a probe failure kill it?
  const probes = containerProbes(c, pod, ct.name);
  /** The instance a probe killed ended now: when the one before it ended (doBackOff looks at that one). */
  let probeKilled: { previousFinishedAt: string | undefined } | undefined;
  if (cs.state.running && image) {
    const plan = extendPlan(c, pod, ct);
    const kill = probes.kill;
    const startedAtTs = cs.state.running.startedAt ?? ts;
    if (plan && plan.kind !== 'runs' && now < plan.at) c.wakeAt(plan.at);
    if (plan?.kind === 'runs' && plan.checkedTo !== undefined) c.wakeAt(plan.checkedTo);
    const override = programOverride(image.repository);
    let exited: ReturnType<NonNullable<typeof override>['status']> | undefined;
    if (plan && plan.kind !== 'runs' && now >= plan.at && !(kill && kill.exitAt < plan.at)) {
      // an OOM kill is SIGKILL from the kernel: 137, reason OOMKilled
      const code = plan.kind === 'oom' ? 137 : plan.code;
      finishRun(c, pod, ct.name, plan.at);
      cs.state = {
        terminated: {
          exitCode: code,
          reason: plan.kind === 'oom' ? 'OOMKilled' : (plan.reason ?? (code === 0 ? 'Completed' : 'Error')),
          startedAt: startedAtTs,
          finishedAt: new Date(plan.at - (plan.at % 1000)).toISOString().replace('.000Z', 'Z'),
          ...(cs.containerID ? { containerID: cs.containerID } : {}),
        },
      };
      cs.ready = false;
      delete probes.kill;
    } else if (override && !kill && !(exited = override.status(c, pod, ct)).running) {
      // the status that found the process gone says how it ended: every override's status() answers
      // a gone process the same way again (CoreDNS, kube-proxy: once not running, exit 1; nginx: its
      // instance's exit code), so it is not asked twice
      const code = exited.exitCode ?? 1;
      finishRun(c, pod, ct.name, now);
      cs.state = { terminated: { exitCode: code, reason: code === 0 ? 'Completed' : 'Error', startedAt: startedAtTs, finishedAt: ts, ...(cs.containerID ? { containerID: cs.containerID } : {}) } };
      cs.ready = false;
    } else {
      // probes (prober.ts): the program's own readiness for overrides that keep it (CoreDNS's
      // /ready, kube-proxy), the kubelet's workers for everything else
      const ownReadiness = override !== undefined && !override.kubeletProbes;
      const probed: Container = ownReadiness ? withoutReadinessProbe(ct) : ct;
      const podIP = pod.status?.podIP ?? '';
      const sync = syncProbes(c, probed, cs, probes, sandboxAt, {
        probe: (_type: ProbeType, spec, t) =>
          runProbe(spec, ct, image, podIP, (argv, timeoutMs) => execSync(c, pod, ct, argv, t, timeoutMs), (port) => containerListener(c, pod, ct, port, 'tcp')),
        changesAt: (spec) => (spec.exec ? nextFileChange(c, pod, ct, now) : image.serve ? 'tick' : undefined),
        event: (type, reason, msg) => {
          events.push([type, reason, msg]);
        },
      }, justStarted);
      cs.started = sync.started;
      cs.ready = ownReadiness ? sync.started && override.status(c, pod, ct).ready : sync.ready;
      if (sync.nextAt !== undefined) c.wakeAt(sync.nextAt);
      if (sync.kill && !kill) {
        // kuberuntime_manager.go computePodActions and killContainer: the Killing event, then
        // SIGTERM and the grace period (the probe's terminationGracePeriodSeconds, else the pod's,
        // at least 2 s: kuberuntime_container.go setTerminationGracePeriod); a PID 1 that ignores
        // SIGTERM is killed when it ends (137), another process exits on the signal
        const spec = sync.kill.reason === 'liveness' ? ct.livenessProbe : ct.startupProbe;
        const restart = restartPolicy !== 'Never';
        events.push(['Normal', 'Killing', `Container ${ct.name} failed ${sync.kill.reason} probe${restart ? ', will be restarted' : ''}`]);
        const graceMs = Math.max(2, spec?.terminationGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30) * 1000;
        const slow = ignoresSigterm(ct);
        probes.kill = { at: sync.kill.at, exitAt: sync.kill.at + (slow ? graceMs : Math.min(graceMs, 1_000)), code: slow ? 137 : (image.sigtermExitCode ?? 0), reason: sync.kill.reason };
      }
      const k = probes.kill;
      if (k && now >= k.exitAt) {
        finishRun(c, pod, ct.name, k.exitAt);
        probeKilled = { previousFinishedAt: cs.lastState.terminated?.finishedAt };
        cs.state = { terminated: { exitCode: k.code, reason: k.code === 0 ? 'Completed' : 'Error', startedAt: startedAtTs, finishedAt: rfc3339Seconds(k.exitAt), ...(cs.containerID ? { containerID: cs.containerID } : {}) } };
        cs.ready = false;
        delete probes.kill;
      } else if (k) c.wakeAt(k.exitAt);
    }
  }

  // Terminated: restart with back-off according to restartPolicy
  if (cs.state.terminated) {
    const code = cs.state.terminated.exitCode;
    const restart = restartPolicy === 'Always' || (restartPolicy === 'OnFailure' && code !== 0);
    // a container the node's reboot took (reason Unknown) comes back with the pod's new sandbox at
    // once (kuberuntime_manager.go computePodActions: SandboxChanged), not after a crash back-off
    const lost = cs.state.terminated.reason === 'Unknown';
    if (restart) {
      // kuberuntime_manager.go doBackOff: the first exit has no back-off entry yet, so the container
      // starts again at once and the entry begins at 10s; each later exit waits the entry's window,
      // which then doubles (flowcontrol.Backoff IsInBackOffSince / Next): 0, 10s, 20s, 40s … 5m
      let windowMs = cs.restartCount === 0 || lost ? 0 : backoffMs(cs.restartCount - 1);
      let shownMs = backoffMs(Math.max(0, cs.restartCount - 1));
      if (probeKilled) {
        // a probe kill and the new start are one SyncPod, whose pod status predates the kill: its
        // newest exited instance is the one before (doBackOff), and the back-off entry has been
        // moved on once per restart after the first (flowcontrol.Backoff Next)
        const entry = cs.restartCount <= 1 ? 0 : backoffMs(cs.restartCount - 2);
        const prev = probeKilled.previousFinishedAt ? Date.parse(probeKilled.previousFinishedAt) : undefined;
        windowMs = entry > 0 && prev !== undefined && now - prev < entry ? entry : 0;
        shownMs = Math.max(entry, BACKOFF_BASE_MS);
      }
      const at = now + windowMs;
      timer.nextAt = at;
      cs.lastState = { terminated: cs.state.terminated };
      cs.state = { waiting: { reason: 'CrashLoopBackOff', message: `back-off ${fmtBackoff(shownMs)} restarting failed container=${ct.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})` } };
      cs.ready = false;
      cs.started = false;
      if (windowMs > 0) events.push(['Warning', 'BackOff', `Back-off restarting failed container ${ct.name} in pod ${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`]);
      else if (lost && pod.spec.containers[0]?.name === ct.name) events.push(['Normal', 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.']);
      c.wakeAt(at);
    }
  }
}

/**
 * Whether the container's PID 1 ignores SIGTERM, so that only the SIGKILL at the end of the grace
 * period stops it: a shell or `sleep`/`tail` run as PID 1 has no handler, and the kernel does not
 * apply the default action to PID 1 of a namespace.
 */
function ignoresSigterm(ct: Container): boolean {
  return /sleep|tail/.test([...(ct.command ?? []), ...(ct.args ?? [])].join(' '));
}

function withoutReadinessProbe(ct: Container): Container {
  const { readinessProbe: _drop, ...rest } = ct;
  return rest;
}

/** RFC 3339 to the second, as container times are shown. */
function rfc3339Seconds(ms: number): string {
  return new Date(ms - (ms % 1000)).toISOString().replace('.000Z', 'Z');
}

/** Go's time.Duration String for whole seconds: 10s, 1m20s, 5m0s. */
function fmtBackoff(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${s % 60}s`;
}

function imageDisplay(raw: string): string {
  const img = lookupImage(raw);
  if (!img) return raw;
  const tag = raw.includes(':') && raw.lastIndexOf(':') > raw.lastIndexOf('/') ? raw.slice(raw.lastIndexOf(':') + 1) : 'latest';
  return `${img.repository}:${tag}`;
}

/** resolv.conf, hosts and hostname inside the pod, from the node's kubelet config at sandbox time. */
function writePodFiles(c: Cluster, host: Host, pod: Pod): void {
  const fs = podFs(c, pod.metadata.uid ?? '');
  const cfg = kubeletStartedConfig(host);
  const clusterDNS = 'error' in cfg ? [] : cfg.clusterDNS;
  const clusterDomain = 'error' in cfg ? 'cluster.local' : cfg.clusterDomain;
  const resolvPath = 'error' in cfg ? '/etc/resolv.conf' : cfg.resolvConf;
  const dns = podResolvConf({
    namespace: pod.metadata.namespace ?? 'default',
    ...(pod.spec.dnsPolicy ? { dnsPolicy: pod.spec.dnsPolicy } : {}),
    ...(pod.spec.hostNetwork ? { hostNetwork: true } : {}),
    ...(pod.spec.dnsConfig ? { dnsConfig: pod.spec.dnsConfig } : {}),
    clusterDNS,
    clusterDomain,
    nodeResolvConf: resolvPath === '' ? undefined : host.fs.tryRead(resolvPath) ?? '',
  });
  fs.write('/etc/resolv.conf', dns.text);
  const hostname = pod.spec.hostname ?? pod.metadata.name;
  fs.write('/etc/hostname', `${pod.spec.hostNetwork ? host.name : hostname}\n`);
  // managedHostsFileContent (kubelet_pods.go): a line for each of the pod's IPs
  const ips = (pod.status?.podIPs ?? []).length > 0 ? pod.status!.podIPs!.map((x) => x.ip) : [pod.status?.podIP ?? ''];
  const fqdn = pod.spec.subdomain ? `${hostname}.${pod.spec.subdomain}.${pod.metadata.namespace}.svc.${clusterDomain}\t${hostname}` : hostname;
  fs.write(
    '/etc/hosts',
    pod.spec.hostNetwork
      ? host.fs.tryRead('/etc/hosts') ?? ''
      : `# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n${ips.map((ip) => `${ip}\t${fqdn}\n`).join('')}`,
  );
}
