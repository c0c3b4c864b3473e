/**
 * The difference between two JSON trees as a short list of edits, and those edits applied to a
 * parsed copy of the first tree: what a session journal (app/sessions.ts) appends after a command
 * instead of rewriting the whole session. The contract: for trees `a` and `b` of plain data,
 * `applyDelta(JSON.parse(JSON.stringify(a)), diffJSON(a, b))` (with the edits themselves through a
 * JSON round trip) gives a tree whose JSON text is `JSON.stringify(b)`, byte for byte — key order
 * included, since a loaded session must print exactly what the live one would.
 *
 * Unchanged subtrees are found by identity first (the store's frozen objects are shared between two
 * snapshots of one cluster, sim/api/store.ts), so diffing a large session costs about as much as
 * walking the parts that are copied on each snapshot (hosts' files, controller state).
 */
import { sameJSON } from '../util/json-copy.js';

export type PathKey = string | number;

/**
 * One edit. `s`: set the member at `path` (the whole tree when `path` is empty; an array index
 * one past the end appends). `d`: delete an object member. `o`: put the object's members in
 * this order (its keys, all of them). `a`: replace the array at `path`'s
 * elements `from`…`to - 1` (indices before this edit) by the concatenation of `parts`: `[i, j]`
 * copies the old elements `i`…`j - 1`, an object `{ v: [...] }` inserts new elements, and
 * `{ e: i, ops }` is old element `i` with the edits `ops` (paths from that element).
 */
export type DeltaOp =
  | ['s', PathKey[], unknown]
  | ['d', PathKey[]]
  | ['o', PathKey[], string[]]
  | ['a', PathKey[], number, number, ArrayPart[]];

/** Part of an array edit: old elements `[i, j)`, new elements, or old element `e` with its own edits. */
export type ArrayPart = [number, number] | { v: unknown[] } | { e: number; ops: DeltaOp[] };

type Obj = Record<string, unknown>;

/** Whether JSON.stringify prints an object member with this value. */
function printed(v: unknown): boolean {
  return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
}

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Edits that turn `a` into `b` (both plain JSON data, as JSON.stringify sees them). */
export function diffJSON(a: unknown, b: unknown): DeltaOp[] {
  const ops: DeltaOp[] = [];
  diff(a, b, [], ops);
  return ops;
}

function diff(a: unknown, b: unknown, path: PathKey[], ops: DeltaOp[]): void {
  if (a === b) return;
  if (isObject(a) && isObject(b)) return diffObject(a, b, path, ops);
  if (Array.isArray(a) && Array.isArray(b)) return diffArray(a, b, path, ops);
  if (sameJSON(a, b)) return;
  ops.push(['s', [...path], b]);
}

function printedKeys(o: Obj): string[] {
  const out: string[] = [];
  for (const k of Object.keys(o)) if (printed(o[k])) out.push(k);
  return out;
}

function diffObject(a: Obj, b: Obj, path: PathKey[], ops: DeltaOp[]): void {
  const ka = printedKeys(a);
  const kb = printedKeys(b);
  const inA = new Set(ka);
  const inB = new Set(kb);
  for (const k of ka) if (!inB.has(k)) ops.push(['d', [...path, k]]);
  for (const k of kb) {
    path.push(k);
    if (inA.has(k)) diff(a[k], b[k], path, ops);
    else ops.push(['s', [...path], b[k]]);
    path.pop();
  }
  // an assignment appends a new member: when b's order is not the old members' (less those gone)
  // followed by the new ones, the members are put in b's order (the text must keep it)
  if (!appendedOrder(ka, kb, inA, inB)) ops.push(['o', [...path], kb]);
}

/** Whether `kb` is `ka` without the members not in b, then the members not in a. */
function appendedOrder(ka: readonly string[], kb: readonly string[], inA: ReadonlySet<string>, inB: ReadonlySet<string>): boolean {
  let i = 0;
  let added = false;
  for (const k of kb) {
    if (!inA.has(k)) {
      added = true;
      continue;
    }
    while (i < ka.length && ka[i] !== k && !inB.has(ka[i]!)) i++;
    if (added || ka[i] !== k) return false;
    i++;
  }
  return true;
}

function same(x: unknown, y: unknown): boolean {
  return x === y || sameJSON(x, y);
}

function diffArray(a: unknown[], b: unknown[], path: PathKey[], ops: DeltaOp[]): void {
  const min = Math.min(a.length, b.length);
  let start = 0;
  while (start < min && same(a[start], b[start])) start++;
  let end = 0;
  while (end < min - start && same(a[a.length - 1 - end], b[b.length - 1 - end])) end++;
  const aEnd = a.length - end;
  const bEnd = b.length - end;
  if (aEnd - start === bEnd - start) {
    // as many elements as before: each one's own edits (a changed object of the store, a host's files)
    for (let k = start; k < aEnd; k++) {
      path.push(k);
      diff(a[k], b[k], path, ops);
      path.pop();
    }
    return;
  }
  // elements came or went: runs of old elements that are still there (the same objects) are
  // copied; an API object that changed (the same uid) is its own edits; the rest is written out
  const at = new Map<unknown, number>();
  for (let k = start; k < aEnd; k++) if (typeof a[k] === 'object' && a[k] !== null && !at.has(a[k])) at.set(a[k], k);
  const kept = new Set<unknown>();
  for (let k = start; k < bEnd; k++) if (at.has(b[k])) kept.add(b[k]);
  let byUid: Map<string, number> | undefined;
  const parts: ArrayPart[] = [];
  let fresh: unknown[] | undefined;
  for (let k = start; k < bEnd; ) {
    const from = at.get(b[k]);
    if (from === undefined) {
      const id = uidOf(b[k]);
      if (id !== undefined) {
        if (!byUid) {
          byUid = new Map();
          // old objects no longer in b as they were (each one matched once)
          for (let x = start; x < aEnd; x++) {
            const u = kept.has(a[x]) ? undefined : uidOf(a[x]);
            if (u !== undefined && !byUid.has(u)) byUid.set(u, x);
          }
        }
        const old = byUid.get(id);
        if (old !== undefined) {
          byUid.delete(id);
          fresh = undefined;
          parts.push({ e: old, ops: diffJSON(a[old], b[k]) });
          k++;
          continue;
        }
      }
      if (!fresh) parts.push({ v: (fresh = []) });
      fresh.push(b[k] === undefined || typeof b[k] === 'function' || typeof b[k] === 'symbol' ? null : b[k]);
      k++;
      continue;
    }
    fresh = undefined;
    let to = from;
    // each old element is copied once (`at` forgets it): a tree loaded back never shares one
    // object in two places; the first step always holds, since a[from] is b[k]
    while (k < bEnd && to < aEnd && b[k] === a[to] && at.get(a[to]) === to) {
      at.delete(a[to]);
      to++;
      k++;
    }
    parts.push([from, to]);
  }
  ops.push(['a', [...path], start, aEnd, parts]);
}

/** An API object's metadata.uid: what identifies it across two versions in the store's list. */
function uidOf(v: unknown): string | undefined {
  if (!isObject(v)) return undefined;
  const m = v['metadata'];
  return isObject(m) && typeof m['uid'] === 'string' ? m['uid'] : undefined;
}

/** Why an edit list does not fit the tree it is applied to (a journal that belongs to another file). */
export class DeltaMismatch extends Error {}

/** Set a member without `__proto__` reaching the prototype (a label named so must stay a label). */
function setMember(o: Obj | unknown[], k: PathKey, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else (o as Obj)[k] = v;
}

function child(o: unknown, k: PathKey): unknown {
  if (Array.isArray(o)) {
    if (typeof k !== 'number' || !Number.isInteger(k) || k < 0 || k >= o.length) throw new DeltaMismatch(`no element ${String(k)}`);
    return o[k];
  }
  if (!isObject(o) || typeof k !== 'string' || !Object.hasOwn(o, k)) throw new DeltaMismatch(`no member ${String(k)}`);
  return o[k];
}

/** The container of the last key of `path`, checked to be an object or array. */
function parentOf(root: unknown, path: readonly PathKey[]): unknown {
  let o = root;
  for (let i = 0; i < path.length - 1; i++) o = child(o, path[i]!);
  return o;
}

function validPath(p: unknown): p is PathKey[] {
  return Array.isArray(p) && p.every((k) => typeof k === 'string' || (typeof k === 'number' && Number.isInteger(k) && k >= 0));
}

/**
 * Apply `ops` (as diffJSON made them, read back from JSON) to `root` in place; returns the new root
 * (a set of the empty path replaces it). Throws DeltaMismatch, having possibly changed `root`,
 * when an edit does not fit: the caller reads the tree again rather than use a half-edited one.
 */
export function applyDelta(root: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops)) throw new DeltaMismatch('not a list of edits');
  for (const op of ops as unknown[]) {
    if (!Array.isArray(op) || !validPath(op[1])) throw new DeltaMismatch('not an edit');
    const path = op[1];
    const key = path[path.length - 1];
    if (op[0] === 's' && op.length === 3) {
      if (key === undefined) {
        root = op[2];
        continue;
      }
      const o = parentOf(root, path);
      if (Array.isArray(o)) {
        if (typeof key !== 'number' || key > o.length) throw new DeltaMismatch(`no element ${String(key)}`);
        o[key] = op[2];
      } else if (isObject(o) && typeof key === 'string') setMember(o, key, op[2]);
      else throw new DeltaMismatch(`no member ${String(key)}`);
    } else if (op[0] === 'd' && op.length === 2 && typeof key === 'string') {
      const o = parentOf(root, path);
      if (!isObject(o) || !Object.hasOwn(o, key)) throw new DeltaMismatch(`no member ${key}`);
      delete o[key];
    } else if (op[0] === 'o' && op.length === 3) {
      const o = key === undefined ? root : child(parentOf(root, path), key);
      const order = op[2] as unknown;
      if (!isObject(o) || !Array.isArray(order)) throw new DeltaMismatch('not an object to order');
      const keys = Object.keys(o);
      if (order.length !== keys.length || new Set(order).size !== order.length || !order.every((k) => typeof k === 'string' && Object.hasOwn(o, k))) throw new DeltaMismatch('not the members of the object');
      const members = keys.map((k) => [k, o[k]] as const);
      const byKey = new Map(members);
      for (const k of keys) delete o[k];
      for (const k of order as string[]) setMember(o, k, byKey.get(k));
    } else if (op[0] === 'a' && op.length === 5) {
      const arr = key === undefined ? root : child(parentOf(root, path), key);
      const [, , from, to, parts] = op as [string, PathKey[], unknown, unknown, unknown];
      if (!Array.isArray(arr) || typeof from !== 'number' || typeof to !== 'number' || !Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < from || to > arr.length || !Array.isArray(parts))
        throw new DeltaMismatch('not an array edit');
      const mid: unknown[] = [];
      // each old element once: a loaded tree never shares an object between two places
      const used = new Set<number>();
      const copy = (k: number): unknown => {
        if (used.has(k)) throw new DeltaMismatch(`element ${k} twice`);
        used.add(k);
        return arr[k];
      };
      for (const p of parts as unknown[]) {
        if (Array.isArray(p) && p.length === 2 && Number.isInteger(p[0]) && Number.isInteger(p[1]) && from <= (p[0] as number) && (p[0] as number) <= (p[1] as number) && (p[1] as number) <= to)
          for (let k = p[0] as number; k < (p[1] as number); k++) mid.push(copy(k));
        else if (isObject(p) && Array.isArray(p['v'])) for (const v of p['v'] as unknown[]) mid.push(v);
        else if (isObject(p) && Number.isInteger(p['e']) && from <= (p['e'] as number) && (p['e'] as number) < to) mid.push(applyDelta(copy(p['e'] as number), p['ops']));
        else throw new DeltaMismatch('not an array part');
      }
      arr.splice(from, to - from, ...mid);
    } else throw new DeltaMismatch(`unknown edit ${JSON.stringify(op[0])}`);
  }
  return root;
}
