/**
 * A read-only map that is another one with a few values replaced (the same keys, in the same
 * order), made in time proportional to the replacements. kube-proxy's syncs hand out each Service's
 * fingerprint, 10,000 of them in a large cluster, and each sync's differ from the last one's in a
 * few: copying them all was a millisecond per node and sync. Lookups go down the chain of maps it
 * was made from (at most MAX_DEPTH long: a longer one is copied flat); iterating makes the flat
 * copy once.
 */
const MAX_DEPTH = 8;

export class OverlayMap<K, V> implements ReadonlyMap<K, V> {
  private flatCopy: Map<K, V> | undefined;

  private constructor(
    private readonly base: ReadonlyMap<K, V>,
    private readonly over: ReadonlyMap<K, V>,
    private readonly depth: number,
  ) {}

  /** `base` with the values of `changes`, whose keys must all be in `base` (else a flat copy: keys and order as a Map would have them). */
  static of<K, V>(base: ReadonlyMap<K, V>, changes: ReadonlyMap<K, V>): ReadonlyMap<K, V> {
    const depth = base instanceof OverlayMap ? base.depth + 1 : 1;
    let sameKeys = true;
    for (const k of changes.keys()) if (!base.has(k)) sameKeys = false;
    if (depth <= MAX_DEPTH && sameKeys) return new OverlayMap(base, new Map(changes), depth);
    const flat = flattened(base);
    for (const [k, v] of changes) flat.set(k, v);
    return flat;
  }

  /** The maps this one is made of, from the top down to the plain one at the bottom. */
  layers(): { overs: ReadonlyMap<K, V>[]; bottom: ReadonlyMap<K, V> } {
    const overs: ReadonlyMap<K, V>[] = [this.over];
    let m = this.base;
    while (m instanceof OverlayMap) {
      overs.push((m as OverlayMap<K, V>).over);
      m = (m as OverlayMap<K, V>).base;
    }
    return { overs, bottom: m };
  }

  get size(): number {
    return this.base.size;
  }

  get(key: K): V | undefined {
    return this.over.has(key) ? this.over.get(key) : this.base.get(key);
  }

  has(key: K): boolean {
    return this.base.has(key);
  }

  private flat(): Map<K, V> {
    return (this.flatCopy ??= flattened(this));
  }

  entries(): MapIterator<[K, V]> {
    return this.flat().entries();
  }

  keys(): MapIterator<K> {
    return this.base.keys();
  }

  values(): MapIterator<V> {
    return this.flat().values();
  }

  forEach(fn: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.flat()) fn.call(thisArg, v, k, this);
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.flat().entries();
  }
}

/** A new Map with what `map` holds, copying a chain of overlays once (not once per layer). */
function flattened<K, V>(map: ReadonlyMap<K, V>): Map<K, V> {
  if (!(map instanceof OverlayMap)) return new Map(map);
  const { overs, bottom } = (map as OverlayMap<K, V>).layers();
  const out = new Map(bottom);
  for (let i = overs.length - 1; i >= 0; i--) for (const [k, v] of overs[i] as ReadonlyMap<K, V>) out.set(k, v);
  return out;
}
