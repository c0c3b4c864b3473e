/**
 * The three patch flavours `kubectl patch` and `kubectl apply` use:
 * - JSON merge patch (RFC 7386; apimachinery jsonmergepatch): objects merge, `null` deletes,
 *   lists are replaced;
 * - strategic merge patch (apimachinery pkg/util/strategicpatch): like a merge patch, but lists
 *   with a patch merge key in the Kubernetes API types (containers by `name`, container ports by
 *   `containerPort`, Service ports by `port`, env by `name`, volumeMounts by `mountPath` …) are
 *   merged element by element;
 * - JSON patch (RFC 6902; evanphx/json-patch): add, remove, replace, move, copy, test.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };
type Obj = { [k: string]: JsonValue };

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export function mergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isObj(patch)) return patch;
  const out: Obj = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** Patch merge keys by field name (k8s.io/api types.go `patchMergeKey`); the parent decides for `ports`. */
function mergeKey(field: string, items: JsonValue[]): string | undefined {
  switch (field) {
    case 'containers':
    case 'initContainers':
    case 'ephemeralContainers':
    case 'env':
    case 'volumes':
    case 'imagePullSecrets':
    case 'hostAliases':
      return field === 'hostAliases' ? 'ip' : 'name';
    case 'volumeMounts':
      return 'mountPath';
    case 'volumeDevices':
      return 'devicePath';
    case 'ports':
      return items.some((i) => isObj(i) && 'containerPort' in i) ? 'containerPort' : 'port';
    case 'conditions':
      return 'type';
    case 'taints':
      return undefined;
    default:
      return undefined;
  }
}

/**
 * `deleting`: the patch is apply's deletions (see deletions()); an element it names that is no
 * longer in the target is not added back as a stub.
 */
export function strategicMerge(target: JsonValue | undefined, patch: JsonValue, field = '', deleting = false): JsonValue {
  if (Array.isArray(patch)) {
    const key = mergeKey(field, patch);
    if (!key || !Array.isArray(target)) return patch.map((p) => strategicMerge(undefined, p, ''));
    const out = [...target];
    for (const p of patch) {
      if (!isObj(p)) {
        out.push(p);
        continue;
      }
      const idx = out.findIndex((t) => isObj(t) && t[key] === p[key]);
      if (p['$patch'] === 'delete') {
        if (idx >= 0) out.splice(idx, 1);
        continue;
      }
      if (idx >= 0) out[idx] = strategicMerge(out[idx], p, '', deleting);
      else if (!deleting) out.push(strategicMerge(undefined, p, ''));
    }
    return out;
  }
  if (!isObj(patch)) return patch;
  if (patch['$patch'] === 'replace') {
    const { $patch: _r, ...rest } = patch;
    return rest;
  }
  const out: Obj = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$')) continue;
    if (v === null) delete out[k];
    else if (deleting && !(k in out)) continue;
    else out[k] = strategicMerge(out[k], v, k, deleting);
  }
  return out;
}

export class JsonPatchError extends Error {}

function unescape(s: string): string {
  return s.replace(/~1/g, '/').replace(/~0/g, '~');
}

function walk(doc: JsonValue, path: string): { parent: JsonValue; key: string } {
  if (!path.startsWith('/')) throw new JsonPatchError(`replace operation does not apply: doc is missing path: "${path}": missing value`);
  const parts = path.slice(1).split('/').map(unescape);
  let cur: JsonValue = doc;
  for (const p of parts.slice(0, -1)) {
    const next: JsonValue | undefined = Array.isArray(cur) ? cur[Number(p)] : isObj(cur) ? cur[p] : undefined;
    if (next === undefined) throw new JsonPatchError(`doc is missing path: "${path}": missing value`);
    cur = next;
  }
  return { parent: cur, key: parts[parts.length - 1]! };
}

function getAt(doc: JsonValue, path: string): JsonValue | undefined {
  const { parent, key } = walk(doc, path);
  if (Array.isArray(parent)) return parent[Number(key)];
  return isObj(parent) ? parent[key] : undefined;
}

function add(doc: JsonValue, path: string, value: JsonValue): void {
  const { parent, key } = walk(doc, path);
  if (Array.isArray(parent)) {
    const i = key === '-' ? parent.length : Number(key);
    if (!Number.isInteger(i) || i < 0 || i > parent.length) throw new JsonPatchError(`add operation does not apply: doc is missing path: "${path}": missing value`);
    parent.splice(i, 0, value);
  } else if (isObj(parent)) parent[key] = value;
  else throw new JsonPatchError(`add operation does not apply: doc is missing path: "${path}": missing value`);
}

function remove(doc: JsonValue, path: string, op: string): JsonValue {
  const { parent, key } = walk(doc, path);
  if (Array.isArray(parent)) {
    const i = Number(key);
    if (!(i >= 0 && i < parent.length)) throw new JsonPatchError(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
    return parent.splice(i, 1)[0]!;
  }
  if (!isObj(parent) || !(key in parent)) throw new JsonPatchError(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
  const v = parent[key]!;
  delete parent[key];
  return v;
}

export function jsonPatch(target: JsonValue, ops: JsonValue): JsonValue {
  if (!Array.isArray(ops)) throw new JsonPatchError('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  const doc = structuredClone(target);
  for (const o of ops) {
    if (!isObj(o)) throw new JsonPatchError('json: cannot unmarshal into Go value of type jsonpatch.Operation');
    const op = String(o['op'] ?? '');
    const path = String(o['path'] ?? '');
    switch (op) {
      case 'add':
        add(doc, path, structuredClone(o['value'] ?? null));
        break;
      case 'remove':
        remove(doc, path, 'remove');
        break;
      case 'replace':
        remove(doc, path, 'replace');
        add(doc, path, structuredClone(o['value'] ?? null));
        break;
      case 'move': {
        const v = remove(doc, String(o['from'] ?? ''), 'move');
        add(doc, path, v);
        break;
      }
      case 'copy': {
        const v = getAt(doc, String(o['from'] ?? ''));
        if (v === undefined) throw new JsonPatchError(`copy operation does not apply: doc is missing from path: "${String(o['from'])}"`);
        add(doc, path, structuredClone(v));
        break;
      }
      case 'test':
        if (JSON.stringify(getAt(doc, path)) !== JSON.stringify(o['value'])) throw new JsonPatchError('testing value ' + path + ' failed: test failed');
        break;
      default:
        throw new JsonPatchError(`Unexpected kind: ${op}`);
    }
  }
  return doc;
}

/** Does `live` already contain everything `want` sets? (apply's "unchanged" test) */
export function isSubset(want: JsonValue | undefined, live: JsonValue | undefined, field = ''): boolean {
  if (isObj(want)) {
    if (!isObj(live)) return false;
    return Object.entries(want).every(([k, v]) => (v === null ? !(k in live) : isSubset(v, live[k], k)));
  }
  if (Array.isArray(want)) {
    if (!Array.isArray(live) || live.length !== want.length) return false;
    const key = mergeKey(field, want);
    return want.every((w, i) => {
      const l = key && isObj(w) ? live.find((x) => isObj(x) && x[key] === w[key]) : live[i];
      return isSubset(w, l, '');
    });
  }
  if (typeof want === 'number' && typeof live === 'string') return String(want) === live;
  return want === live;
}

/**
 * What apply must remove: keys set in `original` (the last-applied configuration) but no longer in
 * `modified`, as a merge patch of nulls; in lists with a patch merge key, elements gone from
 * `modified` as `$patch: delete` and kept ones with their own deletions (strategicpatch
 * CreateThreeWayMergePatch's deletions half: containerPort 80 → 8080 leaves only 8080).
 */
export function deletions(original: JsonValue | undefined, modified: JsonValue | undefined): JsonValue | undefined {
  if (!isObj(original)) return undefined;
  const out: Obj = {};
  for (const [k, v] of Object.entries(original)) {
    const m = isObj(modified) ? modified[k] : undefined;
    if (m === undefined) out[k] = null;
    else if (isObj(v) && isObj(m)) {
      const d = deletions(v, m);
      if (d !== undefined && isObj(d) && Object.keys(d).length > 0) out[k] = d;
    } else if (Array.isArray(v) && Array.isArray(m)) {
      const d = listDeletions(k, v, m);
      if (d.length > 0) out[k] = d;
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function listDeletions(field: string, original: JsonValue[], modified: JsonValue[]): JsonValue[] {
  const key = mergeKey(field, original);
  if (!key) return [];
  const out: JsonValue[] = [];
  for (const o of original) {
    if (!isObj(o) || o[key] === undefined) continue;
    const m = modified.find((x) => isObj(x) && x[key] === o[key]);
    if (m === undefined) out.push({ [key]: o[key]!, $patch: 'delete' });
    else {
      const d = deletions(o, m);
      if (d !== undefined && isObj(d)) out.push({ [key]: o[key]!, ...d });
    }
  }
  return out;
}
