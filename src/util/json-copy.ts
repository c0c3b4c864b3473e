/**
 * Freezes a plain JSON tree all the way down, stopping at what is frozen already (a frozen subtree
 * is frozen throughout): copies then share it (copyJSON), and a writer that broke the read-only
 * rule throws instead of changing every copy at once.
 */
export function deepFreeze(v: unknown): void {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return;
  Object.freeze(v);
  // the own enumerable values, as Object.values gives them, without its array per object: a
  // resumed session freezes every object of its store (~50,000 values), 7 ms that way, 2 ms so
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) deepFreeze(v[i]);
  else for (const k in v) if (Object.hasOwn(v, k)) deepFreeze((v as Record<string, unknown>)[k]);
}

/**
 * A deep copy of a plain JSON tree (what `JSON.parse` returns: objects, arrays, strings, numbers,
 * booleans, null). Strings are immutable, so the copy shares them: about 4–5× faster than parsing
 * the tree's text again, which matters where one state is copied thousands of times (grading,
 * validate). Frozen subtrees are shared too: nothing can change them. Not for live objects, which
 * may hold `undefined`, Maps or class instances.
 */
export function copyJSON<T>(v: T): T {
  // a frozen subtree cannot change, so the copy may share it (the store's objects: sim/api/store.ts)
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return v;
  if (Array.isArray(v)) return copyArray(v) as T;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    out[k] = typeof x !== 'object' || x === null || Object.isFrozen(x) ? x : copyJSON(x);
  }
  return out as T;
}

/**
 * An array's copy. A long array whose members are all shared as they are (strings, numbers,
 * frozen subtrees: a busy container's log chunks, tens of thousands) is copied with one `slice`;
 * the test for it stops at the first member that needs a copy of its own.
 */
function copyArray(v: readonly unknown[]): unknown[] {
  const n = v.length;
  let i = 0;
  for (; i < n; i++) {
    const x = v[i];
    if (typeof x === 'object' && x !== null && !Object.isFrozen(x)) break;
  }
  if (i === n) return v.slice();
  const out = v.slice(0, i);
  for (; i < n; i++) {
    const x = v[i];
    out.push(typeof x !== 'object' || x === null || Object.isFrozen(x) ? x : copyJSON(x));
  }
  return out;
}

/**
 * What `JSON.parse(JSON.stringify(v))` returns, without the text in between: undefined, functions
 * and symbols are dropped from objects and become null in arrays, non-finite numbers become null,
 * `toJSON` is honoured, Maps and Sets become `{}`, strings are shared. The snapshot of a live
 * cluster is taken this way (several times per graded state), at a fraction of the round trip's
 * cost.
 */
export function toPlainJSON(v: unknown): unknown {
  return plain(v, '', false);
}

/**
 * toPlainJSON, sharing frozen subtrees instead of copying them: a snapshot of a live cluster whose
 * store objects are frozen (sim/api/store.ts) copies only what can still change.
 */
export function toPlainJSONSharing(v: unknown): unknown {
  return plain(v, '', true);
}

/**
 * One value as JSON would print it. `key` is the member name or array index `toJSON` is called
 * with, made a string only then: a snapshot walks arrays of tens of thousands of log chunks.
 */
function plain(v: unknown, key: string | number, share: boolean): unknown {
  if (share && v !== null && typeof v === 'object' && Object.isFrozen(v)) return v;
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') v = (v as { toJSON: (k: string) => unknown }).toJSON(String(key));
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return Number.isFinite(v) ? (v === 0 ? 0 : v) : null; // -0 prints as 0
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object': {
      if (v === null) return null;
      if (Array.isArray(v)) {
        const n = v.length;
        const out = new Array<unknown>(n);
        for (let i = 0; i < n; i++) {
          const e: unknown = v[i];
          // a string, or a frozen subtree when sharing, is its own JSON value
          if (typeof e === 'string' || (share && typeof e === 'object' && e !== null && Object.isFrozen(e))) {
            out[i] = e;
            continue;
          }
          const x = plain(e, i, share);
          out[i] = x === undefined ? null : x;
        }
        return out;
      }
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v)) {
        const x = plain((v as Record<string, unknown>)[k], k, share);
        if (x !== undefined) out[k] = x;
      }
      return out;
    }
    default:
      return undefined;
  }
}

/**
 * Frozen members already looked at by `plainMember`, and whether each is a plain tree (a WeakMap:
 * an entry goes with its object). Exact because a frozen tree whose objects are all frozen cannot
 * change. Only the members asked about are remembered: one entry per member, not per node (a
 * first look at a new pod's spec costs a walk, not a walk and a map entry per object in it).
 */
const PLAIN_MEMBERS = new WeakMap<object, boolean>();

/** plainTree of a member, remembered (PLAIN_MEMBERS). */
function plainMember(v: object): boolean {
  if (!Object.isFrozen(v)) return false;
  const known = PLAIN_MEMBERS.get(v);
  if (known !== undefined) return known;
  const ok = plainTree(v);
  PLAIN_MEMBERS.set(v, ok);
  return ok;
}

/**
 * Whether `v` is a tree that toPlainJSON would copy member for member, unchanged, and that can
 * never change: strings, booleans, null, finite numbers other than -0, and frozen arrays (without
 * holes) and frozen objects of the plain prototype (no `toJSON`, no `__proto__` member) holding
 * only such values. A stored object's parts are such trees (sim/api/store.ts freezes them).
 */
function plainTree(v: unknown): boolean {
  return plainShape(v, true);
}

/**
 * Deep-freeze `v` where it lies when toPlainJSON would copy it member for member, unchanged
 * (jsonTree): a snapshot (toPlainJSONSharing) and the copies made of it then share it instead of
 * copying it. For a part of a live state that its owner replaces whole and never changes in place
 * (Cluster.snapshot names each). A tree toPlainJSON would change (an undefined member, a
 * non-finite number, an instance of a class) is left as it is, to be copied as before. Returns
 * whether `v` is frozen now.
 */
export function freezeIfPlain(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (Object.isFrozen(v)) return true;
  if (!jsonTree(v)) return false;
  deepFreeze(v);
  return true;
}

/**
 * plainTree, for a tree whose objects need not be frozen yet: whether toPlainJSON would copy it
 * member for member, unchanged. A frozen part must be a plain tree (plainMember, remembered).
 */
function jsonTree(v: unknown): boolean {
  return plainShape(v, false);
}

/**
 * The walk of plainTree (`frozenOnly`: every object must be frozen already) and jsonTree (an
 * unfrozen object is walked, with an array's prototype checked, and a frozen one is asked of
 * plainMember, remembered): what toPlainJSON would copy member for member, unchanged.
 */
function plainShape(v: unknown, frozenOnly: boolean): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0);
    case 'object': {
      if (v === null) return true;
      if (Object.isFrozen(v)) {
        if (!frozenOnly) return plainMember(v);
      } else if (frozenOnly) return false;
      if (Array.isArray(v)) {
        if (!frozenOnly && Object.getPrototypeOf(v) !== Array.prototype) return false;
        for (let i = 0; i < v.length; i++) if (!(i in v) || !plainShape(v[i], frozenOnly)) return false;
        return true;
      }
      const proto: unknown = Object.getPrototypeOf(v);
      if ((proto !== Object.prototype && proto !== null) || typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
      for (const k in v) {
        if (!Object.hasOwn(v, k)) continue;
        if (k === '__proto__' || !plainShape((v as Record<string, unknown>)[k], frozenOnly)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/**
 * toPlainJSON of an object, sharing the members that are frozen plain trees (plainTree) instead of
 * copying them: the same tree (keys, order, values) as toPlainJSON's, whose top level is new.
 * For a writer that assigns members of the copy (`upd.status = …`, `upd.spec = { ...upd.spec, … }`)
 * and never writes below them: a shared member is frozen, so a write below one throws (strict mode)
 * instead of changing the stored object. Its shared parts stay the stored version's, so what is
 * memoised by frozen identity (templates' hashes, canonical texts) holds for the next version too.
 */
export function toPlainJSONTop(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || typeof (v as { toJSON?: unknown }).toJSON === 'function') return plain(v, '', false);
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return plain(v, '', false);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    if (k === '__proto__') return plain(v, '', false);
    const x = (v as Record<string, unknown>)[k];
    if (typeof x === 'object' && x !== null && plainMember(x)) out[k] = x;
    else {
      const p = plain(x, k, false);
      if (p !== undefined) out[k] = p;
    }
  }
  return out;
}

/**
 * `JSON.stringify(a) === JSON.stringify(b)` for plain data trees (objects, arrays, strings,
 * finite numbers, booleans, null, undefined), without building either text, and stopping at the
 * first difference: what a controller asks before it writes an object back ("did my sync change
 * anything?"). Key order counts, as it does in the text; undefined members are skipped as
 * JSON.stringify skips them, and become null in arrays.
 */
export function sameJSON(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return leaf(a) === leaf(b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJSON(a[i], bb[i])) return false;
    return true;
  }
  const ka = Object.keys(a).filter((k) => printed((a as Record<string, unknown>)[k]));
  const kb = Object.keys(b).filter((k) => printed((b as Record<string, unknown>)[k]));
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i]) return false;
    if (!sameJSON((a as Record<string, unknown>)[ka[i]!], (b as Record<string, unknown>)[kb[i]!])) return false;
  }
  return true;
}

/**
 * `JSON.stringify(a) === JSON.stringify(b)`, without building either text (sameJSON, which stops
 * at the first difference). sameJSON treats a top-level undefined as null, as JSON does inside an
 * array; JSON.stringify prints no text at all for it, which equals only another undefined's, so
 * that case is told apart here: a status or a member that is absent is not one that is null.
 */
export function sameJSONText(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return a === b;
  return sameJSON(a, b);
}

/** A leaf as JSON prints it: undefined, functions and symbols (in arrays) and non-finite numbers are null, -0 is 0. */
function leaf(v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? v + 0 : null;
  return v === undefined || typeof v === 'function' || typeof v === 'symbol' ? null : v;
}

/** Whether JSON.stringify prints an object member with this value. */
function printed(v: unknown): boolean {
  return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
}
