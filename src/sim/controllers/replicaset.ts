/**
 * ReplicaSet controller (k8s.io/kubernetes pkg/controller/replicaset/replica_set.go): keeps the
 * number of active pods it controls equal to spec.replicas, deleting not-ready and newest pods
 * first, and reports replicas/ready/available in status.
 *
 * Which pods it controls is claimed by labels on every sync (claimPods, the
 * PodControllerRefManager of pkg/controller/controller_ref_manager.go): an active pod it controls
 * whose labels no longer match its selector is released (its controller ownerReference removed,
 * so a replacement is created), and an active orphan that matches is adopted (a controller
 * ownerReference added; it counts toward replicas, so a surplus is deleted).
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Pod, ReplicaSet } from '../api/types.js';
import { cloneTop } from '../api/store.js';
import type { KObject } from '../api/types.js';
import { createPodOrReport, podFromTemplate, podIsActive, podIsReady, sameJSONText } from './util.js';
import { claimObjects } from './controller-ref-manager.js';
import { SyncMemo } from './sync-memo.js';
import { ownerIndex } from './owner-index.js';

export const replicaSetController: Controller = {
  name: 'replicaset',
  runsIn: 'controllerManager',
  // a quota or limit range that changes may let a refused pod in: the sync retries then
  watches: ['ReplicaSet', 'Pod', 'ResourceQuota', 'LimitRange', 'Namespace'],
  reconcile(c: Cluster): void {
    for (const rs of c.store.list<ReplicaSet>('ReplicaSet')) replicaSetMemo.sync(c, replicaSetInputs(c, rs), () => syncReplicaSet(c, rs));
  },
};

/** The ReplicaSets' syncs that found nothing to do (sync-memo.ts): a pod's change elsewhere does not sync them again. */
export const replicaSetMemo = new SyncMemo();

/**
 * Everything a ReplicaSet's sync reads, as stored: the ReplicaSet and the pods of its namespace it
 * controls or could adopt (no controller). Time plays no part: it only stamps what a sync writes.
 */
function replicaSetInputs(c: Cluster, rs: ReplicaSet): [KObject, ...KObject[]] {
  return [rs, ...ownerIndex<Pod>(c.store, 'Pod', rs.metadata.namespace!).controlledOrOrphan(rs.metadata.uid)];
}

function syncReplicaSet(c: Cluster, rs: ReplicaSet): void {
  const ns = rs.metadata.namespace!;
  // replica_set.go syncReplicaSet: every pod of the namespace, inactive ones left out, then claimed
  // (claimObjects leaves the pods of other controllers alone: only these can be claimed)
  const active = claimPods(c, rs, ownerIndex<Pod>(c.store, 'Pod', ns).controlledOrOrphan(rs.metadata.uid).filter(podIsActive));
  const want = rs.spec.replicas ?? 1;
  /** manageReplicas' error: the first refused create of this sync. */
  let failure: string | undefined;
  if (!rs.metadata.deletionTimestamp) {
    if (active.length < want) {
      for (let i = active.length; i < want; i++) {
        const pod = podFromTemplate(rs.spec.template, ns, rs);
        pod.metadata.generateName = `${rs.metadata.name}-`;
        // the first refusal ends the batch (slowStartBatch); the next sync tries again
        const created = createPodOrReport(c, pod, rs, 'replicaset-controller', (err) => {
          failure = err;
          return `Error creating: ${err}`;
        });
        if (!created) break;
        c.recordEvent(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`, 'replicaset-controller');
        active.push(created);
      }
    } else if (active.length > want) {
      const ranked = [...active].sort((a, b) => {
        const ra = podIsReady(a) ? 1 : 0;
        const rb = podIsReady(b) ? 1 : 0;
        if (ra !== rb) return ra - rb;
        const ta = a.metadata.creationTimestamp ?? '';
        const tb = b.metadata.creationTimestamp ?? '';
        if (ta !== tb) return ta < tb ? 1 : -1;
        return a.metadata.name < b.metadata.name ? 1 : -1;
      });
      for (const victim of ranked.slice(0, active.length - want)) {
        deletePod(c, victim);
        c.recordEvent(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${victim.metadata.name}`, 'replicaset-controller');
      }
    }
  }
  const now = ownerIndex<Pod>(c.store, 'Pod', ns).controlled(rs.metadata.uid).filter(podIsActive);
  const ready = now.filter(podIsReady).length;
  const status = {
    replicas: now.length,
    fullyLabeledReplicas: now.length,
    readyReplicas: ready,
    availableReplicas: ready,
    observedGeneration: rs.metadata.generation ?? 1,
  };
  const cur = rs.status;
  // calculateStatus: a failed create sets ReplicaFailure (kept, with its first message, while
  // creates keep failing); a sync without a refusal removes it
  const prevFailure = cur?.conditions?.find((x) => x.type === 'ReplicaFailure');
  const conditions = (cur?.conditions ?? []).filter((x) => x.type !== 'ReplicaFailure');
  if (prevFailure && failure !== undefined) conditions.push(prevFailure);
  else if (failure !== undefined) conditions.push({ type: 'ReplicaFailure', status: 'True', lastTransitionTime: c.timestamp(), reason: 'FailedCreate', message: failure });
  if (conditions.length) (status as NonNullable<ReplicaSet['status']>).conditions = conditions;
  if (!sameJSONText(cur, status)) {
    const upd = cloneTop(rs);
    upd.status = status;
    if (ready === 0) delete (upd.status as { readyReplicas?: number }).readyReplicas;
    if (ready === 0) delete (upd.status as { availableReplicas?: number }).availableReplicas;
    if (!sameJSONText(cur, upd.status)) c.write(upd);
  }
}

/** controller_ref_manager.go ClaimPods for one ReplicaSet over the active pods of its namespace (controller-ref-manager.ts). */
function claimPods(c: Cluster, rs: ReplicaSet, pods: Pod[]): Pod[] {
  return claimObjects(c, rs, rs.spec.selector, pods);
}

/**
 * A controller's DELETE of a pod, as the API server answers it (pkg/registry/core/pod/strategy.go
 * CheckGracefulDelete): a pod not scheduled, or already terminated (Succeeded or Failed), is
 * deleted at once; otherwise graceful deletion starts (deletionTimestamp, the kubelet finishes it).
 */
export function deletePod(c: Cluster, pod: Pod): void {
  const upd = cloneTop(pod);
  if (!upd.spec.nodeName || upd.status?.phase === 'Succeeded' || upd.status?.phase === 'Failed') {
    c.deleteObject('Pod', upd.metadata.namespace, upd.metadata.name);
    return;
  }
  if (upd.metadata.deletionTimestamp) return;
  upd.metadata = { ...upd.metadata, deletionTimestamp: c.timestamp(), deletionGracePeriodSeconds: upd.spec.terminationGracePeriodSeconds ?? 30 };
  c.write(upd);
}
