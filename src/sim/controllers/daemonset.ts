/**
 * DaemonSet controller (pkg/controller/daemon/daemon_controller.go): one pod per eligible node
 * (nodeSelector, taints the pod tolerates — DaemonSet pods tolerate not-ready/unreachable/
 * unschedulable as upstream adds), bound directly to the node, named `<ds>-<5 chars>`; each pod
 * template is recorded as a ControllerRevision (history.ts) for `kubectl rollout history/undo`.
 * A template change rolls out as pkg/controller/daemon/update.go does (RollingUpdate within
 * maxUnavailable or maxSurge, minReadySeconds; OnDelete waits for the pods to be deleted).
 */
import type { Cluster, Controller } from '../cluster.js';
import type { DaemonSet, Node, Pod, Toleration } from '../api/types.js';
import { cloneTop } from '../api/store.js';
import { matchMap } from '../api/selectors.js';
import { createPodOrReport, isOwnedBy, podFromTemplate, podIsActive, podIsReady, podTemplateHash, scaledValue, sameJSONText } from './util.js';
import { tolerates } from './scheduler.js';
import { deletePod } from './replicaset.js';
import { syncHistory } from './history.js';
import { SyncMemo, type QuietTimes } from './sync-memo.js';
import { ownerIndex } from './owner-index.js';
import type { KObject } from '../api/types.js';

const DS_TOLERATIONS: Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

export const daemonSetController: Controller = {
  name: 'daemonset',
  runsIn: 'controllerManager',
  // admission objects too: a refused pod is retried when a quota, limit range or namespace label changes
  // time: minReadySeconds ends at a wake-up it asks for
  watches: ['DaemonSet', 'Pod', 'Node', 'ResourceQuota', 'LimitRange', 'Namespace', 'time'],
  reconcile(c: Cluster): void {
    const nodes = c.store.list<Node>('Node');
    for (const ds of c.store.list<DaemonSet>('DaemonSet')) daemonSetMemo.sync(c, daemonSetInputs(c, ds, nodes), () => sync(c, ds, nodes));
  },
};

/** The DaemonSets' syncs that found nothing to do (sync-memo.ts): a pod's change elsewhere does not sync them again. */
export const daemonSetMemo = new SyncMemo();

/**
 * Everything a DaemonSet's sync reads, as stored: the DaemonSet, every Node, its namespace's
 * ControllerRevisions (history.ts) and the pods it controls (owned by it, as every read of pods is).
 */
function daemonSetInputs(c: Cluster, ds: DaemonSet, nodes: readonly Node[]): [KObject, ...KObject[]] {
  const ns = ds.metadata.namespace;
  const uid = ds.metadata.uid;
  if (ns === undefined || uid === undefined) {
    const read: [KObject, ...KObject[]] = [ds, ...nodes, ...c.store.list('ControllerRevision', ns)];
    for (const p of c.store.list<Pod>('Pod', ns)) if (isOwnedBy(p, ds)) read.push(p);
    return read;
  }
  // the same objects in the same order from the namespace's indexes (owner-index.ts: the whole
  // list and the pods controlled by this uid, both in store order), kept while the namespace's
  // objects of each kind stand: every pod change anywhere asks this of every DaemonSet
  return [ds, ...nodes, ...ownerIndex(c.store, 'ControllerRevision', ns).all, ...ownerIndex<Pod>(c.store, 'Pod', ns).controlled(uid)];
}

/** podutil.IsPodTerminal's complement: the pod has not succeeded or failed. */
function podIsActiveIgnoringDeletion(p: Pod): boolean {
  return p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed';
}

function eligible(ds: DaemonSet, node: Node): boolean {
  const spec = ds.spec.template.spec;
  if (spec.nodeSelector && !matchMap(spec.nodeSelector, node.metadata.labels)) return false;
  const tols = [...(spec.tolerations ?? []), ...DS_TOLERATIONS];
  return (node.spec.taints ?? []).every((t) => t.effect === 'PreferNoSchedule' || tolerates(tols, t));
}

/**
 * podutil.IsPodAvailable: ready, and ready for minReadySeconds; asks to be woken when a ready pod
 * will become available.
 */
function available(c: Cluster, pod: Pod, minReadySeconds: number): boolean {
  if (!podIsReady(pod)) return false;
  if (minReadySeconds <= 0) return true;
  const since = Date.parse(String(pod.status?.conditions?.find((x) => x.type === 'Ready')?.lastTransitionTime ?? ''));
  if (Number.isNaN(since)) return true;
  const at = since + minReadySeconds * 1000;
  if (at <= c.now()) return true;
  c.wakeAt(at);
  return false;
}

/** util.IsPodUpdated: the pod carries the template's hash (or its generation, for old pods). */
function updated(pod: Pod, hash: string, generation: number): boolean {
  const labels = pod.metadata.labels ?? {};
  return labels['controller-revision-hash'] === hash || labels['pod-template-generation'] === String(generation);
}

/** update.go findUpdatedPodsOnNode: the one new and one old pod on a node, ignoring terminating ones; ok=false with more. */
function podsOnNode(pods: readonly Pod[], hash: string, generation: number): { newPod?: Pod; oldPod?: Pod; ok: boolean } {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  for (const p of pods) {
    if (p.metadata.deletionTimestamp) continue;
    if (updated(p, hash, generation)) {
      if (newPod) return { ok: false };
      newPod = p;
    } else {
      if (oldPod) return { ok: false };
      oldPod = p;
    }
  }
  return { ...(newPod ? { newPod } : {}), ...(oldPod ? { oldPod } : {}), ok: true };
}

interface Rollout {
  type: string;
  maxUnavailable: number;
  maxSurge: number;
}

/**
 * util.UnavailableCount / SurgeCount against the nodes that should run the pod, both rounded up;
 * an impossible 0/0 falls back to maxUnavailable 1 (update.go updatedDesiredNodeCounts).
 */
function rolloutOf(ds: DaemonSet, desired: number): Rollout {
  const strategy = (ds.spec.updateStrategy ?? {}) as { type?: string; rollingUpdate?: { maxUnavailable?: number | string; maxSurge?: number | string } };
  const ru = strategy.rollingUpdate ?? {};
  let maxUnavailable = scaledValue(ru.maxUnavailable, desired, true, 1);
  const maxSurge = scaledValue(ru.maxSurge, desired, true, 0);
  if (maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  return { type: strategy.type ?? 'RollingUpdate', maxUnavailable, maxSurge };
}

/**
 * update.go rollingUpdate: which old pods to delete, and (when surging) on which nodes to start a
 * new pod beside the old one. Nodes are taken in name order (upstream walks a map, in no order).
 */
function rollingUpdate(c: Cluster, ds: DaemonSet, byNode: Map<string, Pod[]>, r: Rollout, hash: string, generation: number): { del: Pod[]; surgeOn: string[] } {
  const minReady = (ds.spec as { minReadySeconds?: number }).minReadySeconds ?? 0;
  const del: Pod[] = [];
  if (r.maxSurge === 0) {
    let numUnavailable = 0;
    const replace: Pod[] = [];
    const candidates: Pod[] = [];
    for (const [, pods] of byNode) {
      const { newPod, oldPod, ok } = podsOnNode(pods, hash, generation);
      if (!ok || (!oldPod && !newPod) || (oldPod && newPod)) numUnavailable++;
      else if (newPod) {
        if (!available(c, newPod, minReady)) numUnavailable++;
      } else if (oldPod) {
        if (!available(c, oldPod, minReady)) replace.push(oldPod);
        else if (numUnavailable < r.maxUnavailable) candidates.push(oldPod);
      }
    }
    const room = Math.min(Math.max(0, r.maxUnavailable - numUnavailable), candidates.length);
    return { del: [...replace, ...candidates.slice(0, room)], surgeOn: [] };
  }
  let numSurge = 0;
  const allowed: string[] = [];
  const candidates: string[] = [];
  for (const [node, pods] of byNode) {
    const { newPod, oldPod, ok } = podsOnNode(pods, hash, generation);
    if (!ok) {
      numSurge++;
      continue;
    }
    if (!oldPod) continue;
    if (!newPod) {
      if (!available(c, oldPod, minReady)) allowed.push(node);
      else if (numSurge < r.maxSurge) candidates.push(node);
      continue;
    }
    if (!available(c, newPod, minReady)) {
      numSurge++;
      continue;
    }
    del.push(oldPod);
  }
  const room = Math.min(Math.max(0, r.maxSurge - numSurge), candidates.length);
  return { del, surgeOn: [...allowed, ...candidates.slice(0, room)] };
}

/** Create the DaemonSet's pod on `node`, bound to it (syncNodes). */
function createOn(c: Cluster, ds: DaemonSet, node: Node, hash: string): void {
  const ns = ds.metadata.namespace!;
  const pod = podFromTemplate(ds.spec.template, ns, ds, { 'controller-revision-hash': hash, 'pod-template-generation': String(ds.metadata.generation ?? 1) });
  pod.metadata.generateName = `${ds.metadata.name}-`;
  pod.spec.tolerations = [...(pod.spec.tolerations ?? []), ...DS_TOLERATIONS.filter((t) => !(pod.spec.tolerations ?? []).some((x) => x.key === t.key))];
  pod.spec.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node.metadata.name] }] }] } } };
  const created = createPodOrReport(c, pod, ds, 'daemonset-controller');
  if (!created) return;
  const bound = cloneTop(created);
  bound.spec = { ...bound.spec, nodeName: node.metadata.name };
  bound.status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: c.timestamp() }], qosClass: 'BestEffort' };
  c.write(bound);
  c.recordEvent(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`, 'daemonset-controller');
  c.recordEvent(bound, 'Normal', 'Scheduled', `Successfully assigned ${ns}/${created.metadata.name} to ${node.metadata.name}`, 'default-scheduler');
}

/** syncNodes' deletion: the pod goes into its grace period, with the controller's event. */
function deleteDaemonPod(c: Cluster, ds: DaemonSet, pod: Pod): void {
  if (pod.metadata.deletionTimestamp) return;
  deletePod(c, pod);
  c.recordEvent(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`, 'daemonset-controller');
}

/**
 * daemon_controller.go syncDaemonSet: manage (a pod on every node that should run one, none
 * elsewhere, failed pods replaced; a node whose pod is still terminating gets its new pod once the
 * old one is gone), then the update strategy: OnDelete leaves old pods until someone deletes them;
 * RollingUpdate replaces them within maxUnavailable, or beside them within maxSurge.
 */
function sync(c: Cluster, ds: DaemonSet, nodes: Node[]): QuietTimes {
  const ns = ds.metadata.namespace!;
  const hash = podTemplateHash(ds.spec.template);
  const generation = ds.metadata.generation ?? 1;
  syncHistory(c, ds, `${ds.metadata.name}-${hash}`, hash);
  const owned = c.store.list<Pod>('Pod', ns).filter((p) => isOwnedBy(p, ds));
  const byNode = new Map<string, Pod[]>();
  let desired = 0;
  const should: Node[] = [];
  for (const node of [...nodes].sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))) {
    // terminal pods already being deleted are nothing to the controller (getNodesToDaemonPods)
    const mine = owned.filter((p) => p.spec.nodeName === node.metadata.name && !(p.metadata.deletionTimestamp && !podIsActiveIgnoringDeletion(p)));
    if (!eligible(ds, node)) {
      for (const p of mine) deleteDaemonPod(c, ds, p);
      continue;
    }
    desired++;
    should.push(node);
    const failed = mine.filter((p) => !p.metadata.deletionTimestamp && p.status?.phase === 'Failed');
    for (const p of failed) deleteDaemonPod(c, ds, p);
    byNode.set(node.metadata.name ?? '', mine.filter((p) => !failed.includes(p)));
  }
  const r = rolloutOf(ds, desired);
  const plan = r.type === 'RollingUpdate' ? rollingUpdate(c, ds, byNode, r, hash, generation) : { del: [], surgeOn: [] };
  for (const p of plan.del) deleteDaemonPod(c, ds, p);
  for (const node of should) {
    const pods = (byNode.get(node.metadata.name ?? '') ?? []).filter((p) => !plan.del.includes(p));
    if (pods.length === 0 || plan.surgeOn.includes(node.metadata.name ?? '')) createOn(c, ds, node, hash);
    else if (r.maxSurge === 0) {
      // more than one running pod without surge: keep the oldest (podsShouldBeOnNode)
      const running = pods.filter((p) => !p.metadata.deletionTimestamp).sort((a, b) => String(a.metadata.creationTimestamp).localeCompare(String(b.metadata.creationTimestamp)));
      for (const p of running.slice(1)) deleteDaemonPod(c, ds, p);
    }
  }
  const now = c.store.list<Pod>('Pod', ns).filter((p) => isOwnedBy(p, ds) && podIsActive(p));
  const minReady = (ds.spec as { minReadySeconds?: number }).minReadySeconds ?? 0;
  const ready = now.filter(podIsReady).length;
  const availableCount = now.filter((p) => available(c, p, minReady)).length;
  const updatedCount = now.filter((p) => updated(p, hash, generation)).length;
  // daemon_controller.go updateDaemonSetStatus: counted per node that should run the pod
  const status: NonNullable<DaemonSet['status']> & { numberUnavailable?: number } = {
    currentNumberScheduled: new Set(now.map((p) => p.spec.nodeName)).size,
    desiredNumberScheduled: desired,
    numberAvailable: availableCount,
    numberMisscheduled: 0,
    numberReady: ready,
    observedGeneration: generation,
    updatedNumberScheduled: updatedCount,
    numberUnavailable: desired - availableCount,
  };
  // omitempty: zero counts are not written
  if (availableCount === 0) delete status.numberAvailable;
  if ((status.numberUnavailable ?? 0) <= 0) delete status.numberUnavailable;
  if (!sameJSONText(ds.status, status)) {
    const upd = cloneTop(ds);
    upd.status = status;
    c.write(upd);
  }
  // minReadySeconds: whether a ready pod is available, and the wake-ups for when one becomes so,
  // move with the time: such a sync is not remembered
  return { until: minReady > 0 ? -Infinity : Infinity };
}
