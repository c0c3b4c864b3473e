/**
 * Garbage collector (k8s.io/kubernetes pkg/controller/garbagecollector/garbagecollector.go):
 * - background: objects whose owners no longer exist are deleted (attemptToDeleteItem), pods
 *   gracefully; an owner kept Terminating by its finalizers still exists, so its dependents stay;
 * - foreground: an owner deleted with propagationPolicy Foreground carries the
 *   `foregroundDeletion` finalizer (processDeletingDependentsItem): its dependents are deleted —
 *   themselves in the foreground when they have dependents — and the finalizer is removed once no
 *   dependent with `blockOwnerDeletion` is left, which lets the owner go.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { KObject, Pod } from '../api/types.js';
import { FOREGROUND_FINALIZER } from '../api/deletion.js';
import { clone } from '../api/store.js';
import { deletePod } from './replicaset.js';

const OWNED_KINDS = ['ReplicaSet', 'Pod', 'Job', 'ControllerRevision', 'EndpointSlice', 'PersistentVolumeClaim'];

/** The objects of the owned kinds that name `uid` among their owners. */
function dependentsOf(c: Cluster, uid: string): KObject[] {
  return OWNED_KINDS.flatMap((kind) => c.store.list<KObject>(kind).filter((o) => o.metadata.ownerReferences?.some((r) => r.uid === uid)));
}

/**
 * Delete a dependent as attemptToDeleteItem does: in the background, or, when an owner waits for
 * its dependents and this one owns others itself, in the foreground.
 */
function deleteDependent(c: Cluster, dep: KObject, ownerWaits: boolean): void {
  if (dep.metadata.deletionTimestamp) return;
  if (dep.kind === 'Pod') deletePod(c, dep as Pod);
  else {
    const foreground = ownerWaits && dep.metadata.uid !== undefined && dependentsOf(c, dep.metadata.uid).length > 0;
    c.deleteObject(dep.kind, dep.metadata.namespace, dep.metadata.name, foreground ? [FOREGROUND_FINALIZER] : []);
  }
}

/**
 * processDeletingDependentsItem for one owner waiting on its dependents (the API server starts it
 * at the DELETE, so an owner of any kind is served; the collector finishes it as they go).
 */
export function deleteForeground(c: Cluster, owner: KObject): void {
  const uid = owner.metadata.uid ?? '';
  const blocking = dependentsOf(c, uid).filter((d) => d.metadata.ownerReferences?.some((r) => r.uid === uid && r.blockOwnerDeletion));
  for (const dep of blocking) deleteDependent(c, dep, true);
  if (blocking.some((d) => c.store.get(d.kind, d.metadata.namespace, d.metadata.name))) return;
  const cur = c.store.get(owner.kind, owner.metadata.namespace, owner.metadata.name);
  if (!cur) return;
  const upd = clone(cur);
  upd.metadata.finalizers = (upd.metadata.finalizers ?? []).filter((f) => f !== FOREGROUND_FINALIZER);
  c.write(upd);
}

/** Whether any stored object has `uid`. */
function exists(c: Cluster, uid: string): boolean {
  return c.store.kinds().some((kind) => c.store.list(kind).some((o) => o.metadata.uid === uid));
}

export const garbageCollector: Controller = {
  name: 'garbage-collector',
  runsIn: 'controllerManager',
  watches: ['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job', 'CronJob', 'Service', 'Node', 'Pod', 'EndpointSlice', 'PersistentVolumeClaim'],
  reconcile(c: Cluster): void {
    const waiting: KObject[] = [];
    // the owners the dependents name, and which of them exist: a set of those few, not of every
    // object's uid (adding 20,000 uids to a set at each EndpointSlice write of a 10,000-Service
    // cluster was most of this controller's time)
    const named = new Set<string>();
    for (const kind of OWNED_KINDS) for (const o of c.store.list(kind)) for (const r of o.metadata.ownerReferences ?? []) named.add(r.uid);
    const uids = new Set<string>();
    for (const kind of c.store.kinds()) {
      for (const o of c.store.list(kind)) {
        if (o.metadata.uid !== undefined && named.has(o.metadata.uid)) uids.add(o.metadata.uid);
        if (o.metadata.deletionTimestamp && o.metadata.finalizers?.includes(FOREGROUND_FINALIZER)) waiting.push(o);
      }
    }
    for (const owner of waiting) deleteForeground(c, owner);
    for (const kind of OWNED_KINDS) {
      for (const o of [...c.store.list<KObject>(kind)]) {
        const refs = o.metadata.ownerReferences;
        if (!refs || refs.length === 0) continue;
        // (an owner named by no dependent at the start, which cannot happen, is looked for now)
        if (refs.some((r) => uids.has(r.uid) || (!named.has(r.uid) && exists(c, r.uid)))) continue;
        deleteDependent(c, o, false);
      }
    }
  },
};
