/**
 * The three patch flavours `kubectl patch` and `kubectl apply` use:
 * - JSON merge patch (RFC 7386; apimachinery jsonmergepatch): objects merge, `null` deletes,
 *   lists are replaced;
 * - strategic merge patch (apimachinery pkg/util/strategicpatch): like a merge patch, but lists
 *   with a patch merge key in the Kubernetes API types (containers by `name`, container ports by
 *   `containerPort`, Service ports by `port`, env by `name`, volumeMounts by `mountPath` …) are
 *   merged element by element;
 * - JSON patch (RFC 6902): json-patch.ts.
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
