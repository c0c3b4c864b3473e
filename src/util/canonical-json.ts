/**
 * The texts of frozen subtrees: a frozen object cannot change, so its text is computed once. The
 * API store freezes what it keeps (sim/api/store.ts), and session copies share those subtrees, so
 * the controllers' template hashes (a DaemonSet's or Deployment's pod template, hashed at every
 * sync) cost one walk per stored version instead of one per sync of every copy.
 */
const FROZEN_TEXT = new WeakMap<object, string>();

/** JSON with object keys sorted at every level: a stable text for hashing and comparing objects. */
export function canonicalJSON(v: unknown): string {
  if (!v || typeof v !== 'object') return JSON.stringify(v);
  const frozen = Object.isFrozen(v);
  if (frozen) {
    const known = FROZEN_TEXT.get(v);
    if (known !== undefined) return known;
  }
  const text = Array.isArray(v)
    ? `[${v.map(canonicalJSON).join(',')}]`
    : `{${Object.keys(v)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${canonicalJSON((v as Record<string, unknown>)[k])}`)
        .join(',')}}`;
  if (frozen) FROZEN_TEXT.set(v, text);
  return text;
}
