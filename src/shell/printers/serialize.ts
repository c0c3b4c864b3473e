/**
 * How kubectl prepares an object for -o yaml/json/jsonpath: objects read from the server are
 * unstructured maps, and Go's encoding/json writes map keys sorted (cli-runtime json.go/yaml.go
 * over unstructured.Unstructured); `metadata.managedFields` is dropped unless
 * --show-managed-fields (kubectl get.go). A result with several objects is wrapped in a `List`
 * (reference §5, seed 004).
 */
import type { KObject } from '../../sim/api/types.js';

import { sortKeys, sortKeysShared } from '../../util/go-json.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export { sortKeys };

/** Deep copy keeping key order (objects kubectl generated itself keep Go struct field order). */
export function toJson(v: unknown): Json {
  if (Array.isArray(v)) return v.map(toJson);
  if (v !== null && typeof v === 'object') {
    const out: { [key: string]: Json } = {};
    for (const [k, child] of Object.entries(v)) if (child !== undefined) out[k] = toJson(child);
    return out;
  }
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return null;
}

export interface SerializeOptions {
  /** false for objects kubectl generated client-side (create/run --dry-run=client). Default true. */
  sortKeys?: boolean;
  /** --show-managed-fields. */
  showManagedFields?: boolean;
}

function prepareOne(obj: KObject, o: SerializeOptions): Json {
  let src: unknown = obj;
  if (o.showManagedFields !== true && obj.metadata && 'managedFields' in obj.metadata) {
    const { managedFields: _drop, ...meta } = obj.metadata as KObject['metadata'] & { managedFields?: unknown };
    src = { ...obj, metadata: meta };
  }
  // the printers only read the document: a stored (frozen) object's sorted copy is the one kept
  // beside it (util/go-json.ts sortKeysShared), which a jsonpath template then walks as it is
  return o.sortKeys === false ? toJson(src) : sortKeysShared(src);
}

/**
 * The document kubectl serializes: the object itself for a single-object request, otherwise
 * `{apiVersion: v1, items, kind: List, metadata: {resourceVersion: ""}}`.
 */
export function documentFor(objs: readonly KObject[], asList: boolean, o: SerializeOptions = {}): Json {
  if (!asList && objs.length === 1) return prepareOne(objs[0]!, o);
  return { apiVersion: 'v1', items: objs.map((x) => prepareOne(x, o)), kind: 'List', metadata: { resourceVersion: '' } };
}
