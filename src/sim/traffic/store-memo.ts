/**
 * What a request path derives from the API objects alone (the Gateway's listener states and
 * attached routes, a Service's ready upstreams), kept while the store's write generation stands:
 * Store.touch bumps `generation` at every put and remove (and Store.load at a replace), and stored
 * objects are frozen, so a kept value is what building it again from the store would give. The
 * real data plane works the same way: NGF and ingress-nginx turn the objects into an nginx
 * configuration once per change (NGF internal/mode/static/handler.go, ingress-nginx's sync loop),
 * not per request; the split check sends 200 requests through the Gateway between two writes.
 * Kept by store (a WeakMap: a copy's store has its own), at most `limit` keys per generation;
 * never saved. Callers must only read what it returns.
 */
import type { Store } from '../api/store.js';
import { remember } from '../../util/bounded-map.js';

export class StoreMemo<T> {
  private readonly byStore = new WeakMap<Store, { generation: number; values: Map<string, T> }>();
  private builds = 0;

  constructor(private readonly limit = 256) {}

  /** The value for `key` built at the store's current generation (built now when missing). */
  get(store: Store, key: string, build: () => T): T {
    let e = this.byStore.get(store);
    if (!e || e.generation !== store.generation) this.byStore.set(store, (e = { generation: store.generation, values: new Map() }));
    if (e.values.has(key)) return e.values.get(key) as T;
    this.builds++;
    return remember(e.values, key, build(), this.limit);
  }

  /** How many values have been built (tests). */
  buildCount(): number {
    return this.builds;
  }
}
