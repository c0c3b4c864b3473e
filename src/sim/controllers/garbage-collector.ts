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
import type { KObject, OwnerReference, Pod } from '../api/types.js';
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

/**
 * The objects of an owned kind that name owners, as of the kind's change counter: a settle after
 * an EndpointSlice write looks through the slices again, not the Pods or ReplicaSets. Kept per
 * store (a copy of the cluster has its own counters).
 */
const WITH_OWNERS = new WeakMap<object, Map<string, { at: number; objects: readonly KObject[] }>>();

function withOwners(c: Cluster, kind: string): readonly KObject[] {
  let byKind = WITH_OWNERS.get(c.store);
  if (!byKind) WITH_OWNERS.set(c.store, (byKind = new Map()));
  const at = c.store.changes.get(kind) ?? 0;
  const hit = byKind.get(kind);
  if (hit && hit.at === at) return hit.objects;
  const objects = c.store.list<KObject>(kind).filter((o) => (o.metadata.ownerReferences?.length ?? 0) > 0);
  byKind.set(kind, { at, objects });
  return objects;
}

/** The owners waiting for their dependents, in the order of the store's kinds and then of each kind's list (namespace/name). */
function waitingOwners(c: Cluster): KObject[] {
  const deleting = c.store.beingDeleted();
  // (almost always: the collector runs at most settles, and nothing is being deleted)
  if (deleting.size === 0) return [];
  const waiting = [...deleting].filter((o) => o.metadata.finalizers?.includes(FOREGROUND_FINALIZER));
  if (waiting.length < 2) return waiting;
  const kinds = new Map(c.store.kinds().map((k, i) => [k, i]));
  const key = (o: KObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
  return waiting.sort((a, b) => (kinds.get(a.kind) ?? 0) - (kinds.get(b.kind) ?? 0) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * Whether one of a dependent's owners exists, or existed when the reconcile began (`gone`). A loop
 * rather than `refs.some` with a closure: every settle after a Pod write asks it of every
 * dependent of the cluster, and almost always the first owner is there.
 */
function ownerExists(c: Cluster, refs: readonly OwnerReference[], gone: ReadonlySet<string>): boolean {
  for (const r of refs) if (gone.has(r.uid) || c.store.byUid(r.uid) !== undefined) return true;
  return false;
}

export const garbageCollector: Controller = {
  name: 'garbage-collector',
  runsIn: 'controllerManager',
  watches: ['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job', 'CronJob', 'Service', 'Node', 'Pod', 'EndpointSlice', 'PersistentVolumeClaim'],
  // whether a run changes anything is decided by ownership alone: which objects exist (Store.byUid,
  // the owned kinds' lists), their uids, ownerReferences, deletionTimestamps and finalizers
  // (Store.beingDeleted); no spec, label, time, host or memory (withOwners is a cache by the kind's
  // counter). A status is read only on the way to a change (deletePod: a pod's phase says how it
  // goes). A run that changed nothing found every dependent's owner or the dependent going, and
  // every waiting owner with a blocking dependent left; a new object of a kind that is not owned
  // (and not going: Store.ownership counts those) can only be an owner that appears, which deletes
  // nothing more. So the kubelet's status writes and Events after each probe or back-off wake-up
  // need not run it again (Cluster.ownershipRest).
  ownershipOnly: { dependents: OWNED_KINDS },
  reconcile(c: Cluster): void {
    // An owner is looked for as the reconcile began: one deleted during it (a foreground owner let
    // go, a dependent that owns others) still holds its dependents until the next round, as the
    // collector's graph has it until the deletion event arrives.
    const gone = new Set<string>();
    const stop = c.store.observe((type, o) => {
      if (type === 'DELETED' && o.metadata.uid !== undefined) gone.add(o.metadata.uid);
    });
    try {
      for (const owner of waitingOwners(c)) deleteForeground(c, owner);
      for (const kind of OWNED_KINDS) {
        for (const o of withOwners(c, kind)) if (!ownerExists(c, o.metadata.ownerReferences!, gone)) deleteDependent(c, o, false);
      }
    } finally {
      stop();
    }
  },
};
