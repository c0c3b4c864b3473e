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

function isObject(v: unknown): v is object {
  return !!v && typeof v === 'object';
}

/**
 * `canonicalJSON(a) === canonicalJSON(b)` without building either text,
 * stopping at the first difference: the Deployment controller asks it of the status it computed
 * and the stored one at every sync that runs, and the computed status is a new object each time,
 * so its text was built (keys sorted at every level) only to be compared once.
 *
 * Exact, quirks included: canonicalJSON prints a leaf (anything that is not a truthy object) as
 * JSON.stringify does, so a leaf's text is compared as such (NaN and null print alike; undefined,
 * a function or a symbol print nothing, which an array joins as an empty element and an object
 * member as the word `undefined`). Two arrays of one length print the same exactly when each pair
 * of elements does (the elements' texts are split by the same top-level commas); two of different
 * lengths are compared by their texts (an empty element can make `[undefined]` print as `[]`). An
 * object prints its own enumerable keys sorted, each with its value's text: the same exactly when
 * the sorted keys are the same and each value prints the same. An object never prints as a leaf
 * does (`{`/`[` begins no JSON scalar), nor an array as an object.
 */
export function sameCanonicalJSON(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const oa = isObject(a);
  const ob = isObject(b);
  if (!oa || !ob) return !oa && !ob && JSON.stringify(a) === JSON.stringify(b);
  const arr = Array.isArray(a);
  if (arr !== Array.isArray(b)) return false;
  if (arr) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return canonicalJSON(x) === canonicalJSON(y);
    for (let i = 0; i < x.length; i++) if (!sameCanonicalJSON(x[i], y[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  ka.sort();
  kb.sort();
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return false;
  for (const k of ka) if (!sameCanonicalJSON((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}
