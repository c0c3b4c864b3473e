import { deepFreeze } from './json-copy.js';

/**
 * Go's encoding/json string encoding (encode.go appendString with HTML escaping on): `<`, `>`,
 * `&`, U+2028 and U+2029 become \u escapes, as in kubectl's `-o json` and CoreDNS's config dump.
 */
const SPECIAL = /["\\\u0000-\u001f<>&\u2028\u2029]/g;

function escape(ch: string): string {
  if (ch === '"') return '\\"';
  if (ch === '\\') return '\\\\';
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

export function goJsonQuote(s: string): string {
  // one regex pass: a 10 MB value costs a copy, not ten million string appends
  return `"${s.replace(SPECIAL, escape)}"`;
}

/** A JSON value as encoding/json writes it: objects keep their key order (struct order, or sorted map keys). */
export type GoJson = null | boolean | number | string | GoJson[] | { [key: string]: GoJson };

/**
 * Deep copy with every object's keys sorted by UTF-16 code unit order (Go sorts map keys by bytes;
 * the keys here are ASCII): a Go map, or any value whose struct order is unknown, as encoding/json
 * writes it. Undefined members are dropped, anything else not JSON becomes null.
 */
export function sortKeys(v: unknown): GoJson {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === 'object') {
    const out: { [key: string]: GoJson } = {};
    for (const k of Object.keys(v).sort()) {
      const child = (v as Record<string, unknown>)[k];
      if (child !== undefined) out[k] = sortKeys(child);
    }
    return out;
  }
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return null;
}

/**
 * sortKeys for callers that only read the copy (a jsonpath template walks it and prints what it
 * finds: `kubectl -o jsonpath`, custom columns, the grader's resource checks, which run every
 * template against the same stored objects again at every grade). A frozen object's copy is made
 * once, frozen, and kept beside it (WeakMap, so it lives no longer than the object). Exact because
 * a frozen subtree is frozen throughout here (deepFreeze stops at one, copyJSON shares one: the
 * store's objects, sim/api/store.ts): its sorted copy cannot change. An unfrozen value (a List
 * wrapper built for the call) is copied as sortKeys does, its frozen members taken from the memo.
 */
export function sortKeysShared(v: unknown): GoJson {
  if (v === null || typeof v !== 'object') return sortKeys(v);
  if (Object.isFrozen(v)) {
    let out = SORTED.get(v);
    if (out === undefined) {
      out = sortKeys(v);
      deepFreeze(out);
      SORTED.set(v, out);
      // the copy is its own sorted copy (sortKeys of sortKeys' output is the same tree): a
      // document made of such copies (serialize.ts documentFor) is not copied again
      if (out !== null && typeof out === 'object') SORTED.set(out, out);
    }
    return out;
  }
  if (Array.isArray(v)) return v.map(sortKeysShared);
  const out: { [key: string]: GoJson } = {};
  for (const k of Object.keys(v).sort()) {
    const child = (v as Record<string, unknown>)[k];
    if (child !== undefined) out[k] = sortKeysShared(child);
  }
  return out;
}

const SORTED = new WeakMap<object, GoJson>();

/** Go's encoding of a number: integers plainly, floats in the shortest form (strconv 'g'-like). */
function number(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return JSON.stringify(n);
}

export function marshalIndent(v: GoJson, indent = '    ', prefix = ''): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return number(v);
  if (typeof v === 'string') return goJsonQuote(v);
  const inner = prefix + indent;
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[\n${v.map((x) => inner + marshalIndent(x, indent, inner)).join(',\n')}\n${prefix}]`;
  }
  const keys = Object.keys(v);
  if (keys.length === 0) return '{}';
  return `{\n${keys.map((k) => `${inner}${goJsonQuote(k)}: ${marshalIndent(v[k]!, indent, inner)}`).join(',\n')}\n${prefix}}`;
}

/** Compact json.Marshal (used by jsonpath for maps/slices and by last-applied annotations). */
export function marshalCompact(v: GoJson): string {
  if (v === null || typeof v !== 'object') return marshalIndent(v);
  if (Array.isArray(v)) return `[${v.map(marshalCompact).join(',')}]`;
  return `{${Object.keys(v)
    .map((k) => `${goJsonQuote(k)}:${marshalCompact(v[k]!)}`)
    .join(',')}}`;
}

