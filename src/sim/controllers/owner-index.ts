/**
 * One namespace's objects of a kind grouped by their controller (the uid of the ownerReference
 * with `controller: true`), as the workload controllers ask it: upstream's informers index pods
 * and ReplicaSets by controller UID (k8s.io/kubernetes pkg/controller/controller_utils.go,
 * AddPodControllerUIDIndexer) so that a sync does not look through the whole namespace. Every
 * Deployment's sync here read every ReplicaSet and pod of its namespace, and every ReplicaSet's
 * every pod: applying 333 Deployments made each settle round cost 333 × 666 ownerReference looks.
 *
 * Exact: the index is built from `store.list(kind, namespace)` (store order) and kept only while
 * the namespace's objects of the kind are unchanged (namespace-cache.ts). Each group keeps store
 * order, so a caller reading a group reads what filtering the list gave, in the same order.
 */
import type { KObject } from '../api/types.js';
import type { Store } from '../api/store.js';
import { controllerOf } from './util.js';
import { NamespaceCache } from './namespace-cache.js';

export interface OwnerIndex<T extends KObject> {
  /** Every object of the kind in the namespace, in store order. */
  readonly all: readonly T[];
  /** The objects without a controller ownerReference, in store order. */
  readonly orphans: readonly T[];
  /**
   * The objects a controller uid controls, in store order (empty if none). An owner without a uid
   * gets the orphans, as util.ts isOwnedBy compares an absent uid with an absent controller.
   */
  controlled(uid: string | undefined): readonly T[];
  /** The objects `uid` controls and the orphans, merged in store order (what a claim looks at). */
  controlledOrOrphan(uid: string | undefined): readonly T[];
}

const NONE: readonly never[] = Object.freeze([]);

class Index<T extends KObject> implements OwnerIndex<T> {
  readonly orphans: T[] = [];
  private readonly byUid = new Map<string, T[]>();
  /** Each object's place in `all`, to merge groups back into store order. */
  private readonly at = new Map<T, number>();
  constructor(readonly all: readonly T[]) {
    all.forEach((o, i) => {
      this.at.set(o, i);
      const ref = controllerOf(o);
      if (!ref) {
        this.orphans.push(o);
        return;
      }
      const group = this.byUid.get(ref.uid);
      if (group) group.push(o);
      else this.byUid.set(ref.uid, [o]);
    });
  }

  controlled(uid: string | undefined): readonly T[] {
    if (uid === undefined) return this.orphans;
    return this.byUid.get(uid) ?? NONE;
  }

  controlledOrOrphan(uid: string | undefined): readonly T[] {
    const mine = this.controlled(uid);
    const orphans = this.orphans;
    if (orphans.length === 0 || mine === orphans) return mine;
    if (mine.length === 0) return orphans;
    const out: T[] = [];
    let i = 0;
    let j = 0;
    while (i < mine.length && j < orphans.length) out.push(this.at.get(mine[i]!)! < this.at.get(orphans[j]!)! ? mine[i++]! : orphans[j++]!);
    while (i < mine.length) out.push(mine[i++]!);
    while (j < orphans.length) out.push(orphans[j++]!);
    return out;
  }
}

const INDEXES = new NamespaceCache((objects) => new Index<KObject>(objects));

/** The index of `kind` in `namespace` of this store, as it is now (rebuilt when the namespace's objects of the kind changed). */
export function ownerIndex<T extends KObject>(store: Store, kind: string, namespace: string): OwnerIndex<T> {
  return INDEXES.get(store, kind, namespace) as unknown as OwnerIndex<T>;
}
