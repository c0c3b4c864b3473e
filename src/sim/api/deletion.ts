/**
 * Deletion as the generic registry performs it (k8s.io/apiserver pkg/registry/generic/registry/store.go
 * Delete, updateForGracefulDeletionAndFinalizers and shouldDeleteDuringUpdate): an object that
 * carries finalizers is not removed by a DELETE but marked — `deletionTimestamp` set once,
 * `deletionGracePeriodSeconds` 0 — and it stays, listed as Terminating, until an update leaves it
 * without finalizers. That update removes it. The finalizers' owners (the pvc- and pv-protection
 * controllers, the garbage collector's `foregroundDeletion` and `orphan`) or the user
 * (`kubectl patch … -p '{"metadata":{"finalizers":null}}'`) remove them.
 */
import type { KObject } from './types.js';

/** metav1.FinalizerOrphanDependents: the garbage collector orphans the dependents first. */
export const ORPHAN_FINALIZER = 'orphan';
/** metav1.FinalizerDeleteDependents: the garbage collector deletes the blocking dependents first. */
export const FOREGROUND_FINALIZER = 'foregroundDeletion';
/** The finalizer names that need no domain (pkg/apis/core/helper IsStandardFinalizerName). */
export const STANDARD_FINALIZERS: ReadonlySet<string> = new Set(['kubernetes', ORPHAN_FINALIZER, FOREGROUND_FINALIZER]);

/** Whether an object still waits on finalizers before it can go. */
export function hasFinalizers(obj: KObject): boolean {
  return (obj.metadata.finalizers?.length ?? 0) > 0;
}

/**
 * The object a DELETE leaves behind when finalizers keep it (updateForGracefulDeletionAndFinalizers):
 * the first deletion stamps `deletionTimestamp`; the grace period becomes 0 (a graceful pod's
 * period is the kubelet's to end). `extra` finalizers (orphan, foregroundDeletion) are added as
 * deletionFinalizersForGarbageCollection asks. Undefined when nothing changes.
 */
export function markDeleted(obj: KObject, timestamp: string, extra: readonly string[] = []): KObject | undefined {
  const finalizers = [...(obj.metadata.finalizers ?? [])];
  for (const f of extra) if (!finalizers.includes(f)) finalizers.push(f);
  const sameFinalizers = finalizers.length === (obj.metadata.finalizers?.length ?? 0);
  if (obj.metadata.deletionTimestamp && obj.metadata.deletionGracePeriodSeconds === 0 && sameFinalizers) return undefined;
  const metadata = { ...obj.metadata, finalizers, deletionTimestamp: obj.metadata.deletionTimestamp ?? timestamp, deletionGracePeriodSeconds: 0 };
  return { ...obj, metadata };
}

/**
 * store.go shouldDeleteDuringUpdate: an update of an object whose deletion waited on finalizers
 * (its grace period over) that leaves none removes the object. Namespaces follow their own rule
 * (spec.finalizers, the namespace controller).
 */
export function finishesDeletion(old: KObject | undefined, obj: KObject): boolean {
  if (!old?.metadata.deletionTimestamp || obj.kind === 'Namespace') return false;
  if (!hasFinalizers(old) || hasFinalizers(obj)) return false;
  return (old.metadata.deletionGracePeriodSeconds ?? 0) === 0;
}

/**
 * ValidateNoNewFinalizers (apimachinery pkg/api/validation/objectmeta.go): an object being deleted
 * takes no new finalizers. The message prints the extra names as Go's `%#v` of a sorted []string.
 */
export function newFinalizersError(old: KObject, obj: KObject): string | undefined {
  if (!old.metadata.deletionTimestamp) return undefined;
  const before = new Set(old.metadata.finalizers ?? []);
  const extra = [...new Set((obj.metadata.finalizers ?? []).filter((f) => !before.has(f)))].sort();
  if (extra.length === 0) return undefined;
  return `no new finalizers can be added if the object is being deleted, found new finalizers []string{${extra.map((f) => JSON.stringify(f)).join(', ')}}`;
}

/**
 * Whether a deleted object is on its way out by itself: being deleted, and held by no finalizer
 * that only someone else can remove (the garbage collector's own two complete unaided; a
 * namespace is held while its content's finalizers are, as its deletion conditions say). A grader
 * counts such an object as gone; one held Terminating by a finalizer is still there.
 */
export function isGoing(obj: KObject): boolean {
  if (!obj.metadata.deletionTimestamp) return false;
  if ((obj.metadata.finalizers ?? []).some((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER)) return false;
  const conditions = (obj as { status?: { conditions?: { type: string; status: string }[] } }).status?.conditions;
  return !(obj.kind === 'Namespace' && conditions?.some((c) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True'));
}
