/**
 * The memos of pure, costly computations (parsed texts, signatures, derived tables) are Maps kept
 * to a bound: `remember` puts `value` under `key` and, when the map is full and the key is new,
 * first drops the oldest entry (a Map iterates in insertion order). One place for what ~20 memos
 * across src/ each wrote out by hand. Returns `value`, so a miss reads `return remember(…)`.
 */
export function remember<K, V>(map: Map<K, V>, key: K, value: V, max: number): V {
  if (map.size >= max && !map.has(key)) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}
