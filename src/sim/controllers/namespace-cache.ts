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
  private readonly byStore = new WeakMap<Store, Map<string, { count: number; value: T }>>();

  constructor(private readonly build: (objects: readonly KObject[]) => T) {}

  /** The value built from `kind`'s objects in `namespace` (store order), as they are now. */
  get(store: Store, kind: string, namespace: string): T {
    const key = `${kind}@${namespace}`;
    const count = store.changes.get(key) ?? 0;
    let byKey = this.byStore.get(store);
    if (!byKey) this.byStore.set(store, (byKey = new Map()));
    const hit = byKey.get(key);
    if (hit && hit.count === count) return hit.value;
    const value = this.build(store.list(kind, namespace));
    byKey.set(key, { count, value });
    return value;
  }
}
