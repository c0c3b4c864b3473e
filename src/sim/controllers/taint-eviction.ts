/**
 * The taint eviction controller of kube-controller-manager (pkg/controller/tainteviction,
 * "taint-eviction-controller"): a pod on a node with a NoExecute taint it does not tolerate is
 * deleted at once; one that tolerates every NoExecute taint with tolerationSeconds is deleted when
 * the shortest of them has passed since the controller noticed (the default not-ready/unreachable
 * tolerations give 300 s); a toleration without tolerationSeconds keeps the pod forever. Removing
 * the taint first cancels the deletion. NoSchedule and PreferNoSchedule taints never evict.
 *
 * Events use the controller's object reference, which carries no uid, so they show in
 * `kubectl get events` and not in `kubectl describe pod`: "Marking for deletion Pod ns/name",
 * "Cancelling deletion of Pod ns/name" (reason TaintManagerEviction).
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Node, Pod, Taint, Toleration } from '../api/types.js';
import { clone } from '../api/store.js';
import { toleratesTaint } from '../scheduling/plugins/taint-toleration.js';
import { deletePod } from './replicaset.js';

const COMPONENT = 'taint-eviction-controller';

/** A scheduled deletion: which pod (uid) and since when its current tolerations have been counting. */
export interface ScheduledEviction {
  uid: string;
  since: number;
  fireAt: number;
}

/** v1helper.GetMatchingTolerations: whether every taint is tolerated, and by which tolerations. */
function matchingTolerations(taints: Taint[], tolerations: Toleration[]): { all: boolean; used: Toleration[] } {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const t = tolerations.find((x) => toleratesTaint(x, taint));
    if (!t) return { all: false, used };
    used.push(t);
  }
  return { all: true, used };
}

/** getMinTolerationTime in milliseconds; -1 when some used toleration lasts forever and none is finite. */
function minTolerationMs(used: Toleration[]): number {
  if (used.length === 0) return 0;
  let min = Number.POSITIVE_INFINITY;
  for (const t of used) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Number.POSITIVE_INFINITY ? -1 : min * 1000;
}

function ref(pod: Pod): Pod {
  const r = clone(pod);
  delete r.metadata.uid;
  return r;
}

function key(pod: Pod): string {
  return `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`;
}

function evict(c: Cluster, pod: Pod): void {
  c.recordEvent(ref(pod), 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${key(pod)}`, COMPONENT);
  const upd = clone(pod);
  upd.status ??= {};
  const conds = upd.status.conditions ?? [];
  if (!conds.some((x) => x.type === 'DisruptionTarget' && x.status === 'True' && x.reason === 'DeletionByTaintManager')) {
    upd.status.conditions = [
      ...conds.filter((x) => x.type !== 'DisruptionTarget'),
      { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: c.timestamp(), reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint' },
    ];
    c.write(upd);
  }
  deletePod(c, upd);
}

function hasNoExecute(n: Node): boolean {
  return (n.spec.taints ?? []).some((t) => t.effect === 'NoExecute');
}

export const taintEvictionController: Controller = {
  name: 'taint-eviction',
  watches: ['Pod', 'Node', 'time'],
  reconcile(c: Cluster): void {
    if (c.state.controllerManager && !c.state.controllerManager.up) return;
    const scheduled = c.state.taintEviction ?? {};
    // No node has a NoExecute taint and no deletion is scheduled: every pod would only "cancel"
    // a deletion that does not exist (no event), and nothing is scheduled after: the run is this.
    // (Almost every run: the controller wakes at every pod change of the cluster.)
    if (!c.store.list<Node>('Node').some(hasNoExecute) && Object.keys(scheduled).length === 0) {
      delete c.state.taintEviction;
      return;
    }
    const next: Record<string, ScheduledEviction> = {};
    const now = c.now();
    const nodes = new Map(c.store.list<Node>('Node').map((n) => [n.metadata.name, n]));
    for (const pod of c.store.list<Pod>('Pod')) {
      const node = pod.spec.nodeName ? nodes.get(pod.spec.nodeName) : undefined;
      if (!node || pod.metadata.deletionTimestamp) continue;
      const k = key(pod);
      const prior = scheduled[k]?.uid === pod.metadata.uid ? scheduled[k] : undefined;
      const cancel = (): void => {
        if (prior) c.recordEvent(ref(pod), 'Normal', 'TaintManagerEviction', `Cancelling deletion of Pod ${k}`, COMPONENT);
      };
      const taints = (node.spec.taints ?? []).filter((t) => t.effect === 'NoExecute');
      if (taints.length === 0) {
        cancel();
        continue;
      }
      const { all, used } = matchingTolerations(taints, pod.spec.tolerations ?? []);
      if (!all) {
        evict(c, pod);
        continue;
      }
      const min = minTolerationMs(used);
      if (min < 0) {
        cancel();
        continue;
      }
      const since = prior?.since ?? now;
      const fireAt = since + min;
      if (now >= fireAt) {
        evict(c, pod);
        continue;
      }
      next[k] = { uid: pod.metadata.uid ?? '', since, fireAt };
      c.wakeAt(fireAt);
    }
    if (Object.keys(next).length > 0) c.state.taintEviction = next;
    else delete c.state.taintEviction;
  },
};
