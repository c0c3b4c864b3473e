/**
 * The claim of dependents by labels (k8s.io/kubernetes pkg/controller/controller_ref_manager.go,
 * BaseControllerRefManager.ClaimObject, used by ClaimPods and ClaimReplicaSets): every sync, a
 * controller looks at the objects of its namespace and
 * - keeps those it controls whose labels still match its selector;
 * - releases those it controls whose labels no longer match (the ownerReference with its UID
 *   removed), unless it is itself being deleted;
 * - adopts orphans (no controller ownerReference) that match (a controller ownerReference added,
 *   blockOwnerDeletion true), unless it or the orphan is being deleted;
 * - leaves alone what another controller owns.
 * Returns the objects it controls afterwards, as stored.
 */
import type { Cluster } from '../cluster.js';
import type { KObject, LabelSelector } from '../api/types.js';
import { clone } from '../api/store.js';
import { matchLabelSelector } from '../api/selectors.js';
import { controllerOf, ownerRef } from './util.js';

export function claimObjects<T extends KObject>(c: Cluster, controller: KObject, selector: LabelSelector | undefined, objects: readonly T[]): T[] {
  const claimed: T[] = [];
  const deleting = controller.metadata.deletionTimestamp !== undefined;
  const uid = controller.metadata.uid;
  for (const obj of objects) {
    const ref = controllerOf(obj);
    const match = matchLabelSelector(selector, obj.metadata.labels);
    if (ref) {
      if (ref.uid !== uid) continue;
      if (match) {
        claimed.push(obj);
        continue;
      }
      // ReleasePod / ReleaseReplicaSet: a strategic-merge patch deleting the ownerReference by uid
      if (deleting) continue;
      const upd = clone(obj);
      const refs = (upd.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
      if (refs.length > 0) upd.metadata.ownerReferences = refs;
      else delete upd.metadata.ownerReferences;
      c.write(upd);
      continue;
    }
    // an orphan: adopted when it matches and neither it nor the controller is being deleted
    if (deleting || !match || obj.metadata.deletionTimestamp) continue;
    if (controller.metadata.namespace && controller.metadata.namespace !== obj.metadata.namespace) continue;
    const upd = clone(obj);
    upd.metadata.ownerReferences = [...(upd.metadata.ownerReferences ?? []), ownerRef(controller)];
    claimed.push(c.write(upd));
  }
  return claimed;
}
