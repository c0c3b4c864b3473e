/**
 * YAML parsing memoised by text. The simulation re-reads the same small files on every
 * reconcile (static pod manifests, the kube-proxy ConfigMap, kubelet config.yaml) and parsing
 * them was about a third of a scenario validation's time. Same text → a fresh deep copy of the
 * same value, or the same error thrown again; so callers may mutate what they get.
 */
import { parse } from 'yaml';
import { remember } from './bounded-map.js';
import { copyJSON, deepFreeze } from './json-copy.js';

// helm's chart files, rendered documents and repository indexes share it with the simulation's
// own files: a task's helm run parses a few dozen documents, which must not push out the
// manifests every reconcile reads
const MAX = 1024;
/**
 * `tree`: the value is a plain tree (plainTree), copied as one; otherwise structuredClone copies it.
 * `shared`: a frozen copy of a plain tree for the readers of parseYamlShared.
 */
type Entry = { ok: true; value: unknown; tree?: boolean; shared?: unknown } | { ok: false; error: unknown };
const cache = new Map<string, Entry>();
/** Parses with `{ uniqueKeys: false }` (helm's values files: go-yaml keeps the last of a repeated key). */
const laxCache = new Map<string, Entry>();

/**
 * `parse(text)`, or `parse(text, { uniqueKeys: false })` with `opts.uniqueKeys` false: the two
 * are memoised apart, as they may differ for the same text.
 */
export function parseYamlMemo(text: string, opts?: { uniqueKeys: false }): unknown {
  const hit = entry(text, opts);
  if (!hit.ok) throw hit.error;
  const v = hit.value;
  if (v === undefined || v === null || typeof v !== 'object') return v;
  // a plain tree's copy is structuredClone's, built without its serialisation (a third of the
  // time of reading a kubeconfig on every kubectl line went into structuredClone)
  hit.tree ??= plainTree(v);
  return hit.tree ? copyJSON(v) : structuredClone(v);
}

/**
 * parseYamlMemo(text) for a caller that only reads the value: one copy of it, deep-frozen and
 * handed to every such caller, so a reader that wrote into it would throw instead of changing
 * what the next reader gets. kubectl reads its kubeconfig on every line; copying the parsed file
 * was a tenth of what reading it cost. The memoised value itself stays unfrozen (parseYamlMemo's
 * copyJSON would share frozen parts with its callers, who may change theirs); a value that is not
 * a plain tree (a `!!binary` Buffer cannot be frozen) is copied as parseYamlMemo copies it.
 */
export function parseYamlShared(text: string): unknown {
  const hit = entry(text);
  if (!hit.ok) throw hit.error;
  const v = hit.value;
  if (v === undefined || v === null || typeof v !== 'object') return v;
  hit.tree ??= plainTree(v);
  if (!hit.tree) return structuredClone(v);
  if (hit.shared === undefined) {
    hit.shared = copyJSON(v);
    deepFreeze(hit.shared);
  }
  return hit.shared;
}

/** The memo's entry for a text, parsing it on a miss. */
function entry(text: string, opts?: { uniqueKeys: false }): Entry {
  const map = opts ? laxCache : cache;
  let hit = map.get(text);
  if (!hit) {
    try {
      hit = { ok: true, value: (opts ? parse(text, { uniqueKeys: false }) : parse(text)) as unknown };
    } catch (error) {
      hit = { ok: false, error };
    }
    remember(map, text, hit, MAX);
  }
  return hit;
}

/**
 * Whether copyJSON's copy of `v` is what structuredClone gives: every object a plain one (Object's
 * or Array's prototype, not frozen: copyJSON would share a frozen one) without an own `__proto__`
 * key (which copyJSON's assignment would take for the prototype), and no object reached twice
 * (an alias, `&a` then `*a`, is one object that structuredClone keeps one; copyJSON would make
 * two). What `yaml` makes of `!!binary` (a Buffer), `!!set` (a Set) or `!!timestamp` is not plain:
 * such a value is copied by structuredClone, as every value was.
 */
export function isPlainTree(v: unknown): boolean {
  return plainTree(v);
}

function plainTree(v: unknown, seen = new Set<object>()): boolean {
  if (typeof v !== 'object' || v === null) return typeof v !== 'function' && typeof v !== 'symbol';
  if (seen.has(v) || Object.isFrozen(v)) return false;
  seen.add(v);
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) return false;
    for (let i = 0; i < v.length; i++) if (!(i in v) || !plainTree(v[i], seen)) return false;
    return Object.keys(v).length === v.length;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype || Object.hasOwn(v, '__proto__')) return false;
  for (const k of Object.keys(v)) if (!plainTree((v as Record<string, unknown>)[k], seen)) return false;
  return true;
}

/**
 * A value parsed elsewhere for this text (a one-shot command's cache on disk, cli/yaml-cache.ts):
 * later parses of the same text return copies of it. It must be what `parse(text)` returns.
 */
export function primeYamlMemo(text: string, value: unknown): void {
  if (!cache.has(text)) cache.set(text, { ok: true, value });
}

/** The memoised value of a text that parsed without error (shared, not copied: do not change it), if any. */
export function memoisedYaml(text: string): { value: unknown } | undefined {
  const hit = cache.get(text);
  return hit?.ok ? { value: hit.value } : undefined;
}

/** Forget every memoised parse (tests that stand for a new process). */
export function clearYamlMemo(): void {
  cache.clear();
  laxCache.clear();
}
