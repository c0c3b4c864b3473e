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
import { clone } from '../api/store.js';
import { controllerOf, createPodOrReport, isOwnedBy, ownerRef, podFromTemplate, podIsActive, podIsReady } from './util.js';
import { matchLabelSelector } from '../api/selectors.js';

export const replicaSetController: Controller = {
  name: 'replicaset',
  runsIn: 'controllerManager',
  // a quota or limit range that changes may let a refused pod in: the sync retries then
  watches: ['ReplicaSet', 'Pod', 'ResourceQuota', 'LimitRange', 'Namespace'],
  reconcile(c: Cluster): void {
    for (const rs of c.store.list<ReplicaSet>('ReplicaSet')) syncReplicaSet(c, rs);
  },
};

function syncReplicaSet(c: Cluster, rs: ReplicaSet): void {
  const ns = rs.metadata.namespace!;
  // replica_set.go syncReplicaSet: every pod of the namespace, inactive ones left out, then claimed
  const active = claimPods(c, rs, c.store.list<Pod>('Pod', ns).filter(podIsActive));
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
  const now = c.store.list<Pod>('Pod', ns).filter((p) => isOwnedBy(p, rs) && podIsActive(p));
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
  if (JSON.stringify(cur) !== JSON.stringify(status)) {
    const upd = clone(rs);
    upd.status = status;
    if (ready === 0) delete (upd.status as { readyReplicas?: number }).readyReplicas;
    if (ready === 0) delete (upd.status as { availableReplicas?: number }).availableReplicas;
    if (JSON.stringify(cur) !== JSON.stringify(upd.status)) c.write(upd);
  }
}

/**
 * controller_ref_manager.go ClaimPods / ClaimObject for one ReplicaSet over the active pods of its
 * namespace; returns the pods it controls afterwards. A pod another controller owns is left
 * alone. One this ReplicaSet owns stays claimed while its labels match; otherwise it is released
 * (ReleasePod: the ownerReference with this ReplicaSet's UID removed), unless the ReplicaSet is
 * being deleted. An orphan whose labels match is adopted (AdoptPod: a controller ownerReference
 * added, blockOwnerDeletion true) unless the ReplicaSet or the pod is being deleted.
 */
function claimPods(c: Cluster, rs: ReplicaSet, pods: Pod[]): Pod[] {
  const claimed: Pod[] = [];
  const deleting = rs.metadata.deletionTimestamp !== undefined;
  for (const pod of pods) {
    const ref = controllerOf(pod);
    const match = matchLabelSelector(rs.spec.selector, pod.metadata.labels);
    if (ref) {
      if (ref.uid !== rs.metadata.uid) continue;
      if (match) {
        claimed.push(pod);
        continue;
      }
      if (deleting) continue;
      const upd = clone(pod);
      const refs = (upd.metadata.ownerReferences ?? []).filter((r) => r.uid !== rs.metadata.uid);
      if (refs.length > 0) upd.metadata.ownerReferences = refs;
      else delete upd.metadata.ownerReferences;
      c.write(upd);
      continue;
    }
    if (deleting || !match || pod.metadata.deletionTimestamp) continue;
    const upd = clone(pod);
    upd.metadata.ownerReferences = [...(upd.metadata.ownerReferences ?? []), ownerRef(rs)];
    claimed.push(c.write(upd));
  }
  return claimed;
}

/** Start graceful deletion of a pod, as the API server does for a controller's DELETE. */
export function deletePod(c: Cluster, pod: Pod): void {
  const upd = clone(pod);
  if (!upd.spec.nodeName) {
    c.deleteObject('Pod', upd.metadata.namespace, upd.metadata.name);
    return;
  }
  if (upd.metadata.deletionTimestamp) return;
  upd.metadata.deletionTimestamp = c.timestamp();
  upd.metadata.deletionGracePeriodSeconds = upd.spec.terminationGracePeriodSeconds ?? 30;
  c.write(upd);
}
