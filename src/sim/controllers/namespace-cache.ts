/**
 * What a controller derives from one kind's objects in one namespace (an index), kept while the
 * store's `kind@namespace` change counter stands: Store.touch bumps it at every put and remove of
 * such an object (Store.load at a replace), and stored objects are frozen, so a kept value is what
 * building it again from `store.list(kind, namespace)` would give. Upstream's controllers read such
 * indexes from their informers' caches (k8s.io/client-go tools/cache/index.go). Kept by store (a
 * WeakMap: a copy's store has its own), one entry per kind and namespace asked; never saved.
 * Used by owner-index.ts, label-index.ts and the scheduler's Service index.
 */
import type { KObject } from '../api/types.js';
import type { Store } from '../api/store.js';

export class NamespaceCache<T> {
  /**
   * Per store, kind and namespace: the counter's key and what was built at that count. The key
   * string is made once per kind and namespace and looked up as the same string object after
   * that (its hash kept with it): building `${kind}@${namespace}` at every ask was most of a hit's
   * cost, and the owner index is asked several times per Deployment, ReplicaSet and pod sync.
   */
  private readonly byStore = new WeakMap<Store, Map<string, Map<string, { key: string; count: number; value: T | undefined }>>>();

  constructor(private readonly build: (objects: readonly KObject[]) => T) {}

  /** The value built from `kind`'s objects in `namespace` (store order), as they are now. */
  get(store: Store, kind: string, namespace: string): T {
    let byKind = this.byStore.get(store);
    if (!byKind) this.byStore.set(store, (byKind = new Map()));
    let byNs = byKind.get(kind);
    if (!byNs) byKind.set(kind, (byNs = new Map()));
    let entry = byNs.get(namespace);
    if (!entry) byNs.set(namespace, (entry = { key: `${kind}@${namespace}`, count: -1, value: undefined }));
    const count = store.changes.get(entry.key) ?? 0;
    if (entry.count === count) return entry.value as T;
    const value = this.build(store.list(kind, namespace));
    entry.count = count;
    entry.value = value;
    return value;
  }
}
