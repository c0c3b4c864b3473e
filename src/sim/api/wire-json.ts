/**
 * JSON as kube-apiserver writes it (k8s.io/apimachinery pkg/runtime/serializer/json/json.go
 * doEncode): built-in objects are Go structs, so encoding/json writes their fields in declaration
 * order (field-order.generated.ts, recorded from k8s.io/api types.go) and map keys sorted; custom resources
 * are unstructured maps, written with every key sorted. Compact output is json.Encoder's (a final
 * newline); the pretty serializer is json.MarshalIndent with two spaces and no final newline.
 */
import { marshalCompact, marshalIndent, sortKeys, type GoJson } from '../../util/go-json.js';
import { GO_FIELD_ORDER_JSON } from './openapi/field-order.generated.js';
import type { ResourceInfo } from './registry.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

let fieldOrder: ReadonlyMap<string, readonly string[]> | undefined;

/** The recorded struct field orders, parsed from their JSON texts on first use (only JSON output needs them). */
function goFieldOrder(): ReadonlyMap<string, readonly string[]> {
  return (fieldOrder ??= new Map(GO_FIELD_ORDER_JSON().map((text) => JSON.parse(text) as [string, readonly string[]])));
}

/** The OpenAPI definition name of a built-in kind (`io.k8s.api.apps.v1.Deployment`), when its struct is recorded. */
export function definitionOf(info: Pick<ResourceInfo, 'group' | 'version'>, kind: string): string | undefined {
  const pkg = info.group === '' ? 'core' : info.group.split('.')[0]!;
  const name = `io.k8s.api.${pkg}.${info.version}.${kind}`;
  return goFieldOrder().has(name) ? name : undefined;
}

/** `v` as encoding/json writes a value of Go type `type` (a definition name, `map:` for a map of them). */
export function inStructOrder(v: unknown, type: string | undefined): GoJson {
  if (Array.isArray(v)) return v.map((x) => inStructOrder(x, type));
  if (v === null || typeof v !== 'object') return sortKeys(v);
  if (type?.startsWith('map:')) {
    const out: { [k: string]: GoJson } = {};
    for (const k of Object.keys(v).sort()) {
      const child = (v as Record<string, unknown>)[k];
      if (child !== undefined) out[k] = inStructOrder(child, type.slice(4));
    }
    return out;
  }
  const fields = type ? goFieldOrder().get(type) : undefined;
  if (!fields) return sortKeys(v);
  const rec = v as Record<string, unknown>;
  const out: { [k: string]: GoJson } = {};
  const seen = new Set<string>();
  for (const f of fields) {
    const eq = f.indexOf('=');
    const name = eq < 0 ? f : f.slice(0, eq);
    seen.add(name);
    if (rec[name] !== undefined) out[name] = inStructOrder(rec[name], eq < 0 ? undefined : f.slice(eq + 1));
  }
  // a field the recorded struct does not have (a newer release's): after the known ones
  for (const k of Object.keys(rec).sort()) if (!seen.has(k) && rec[k] !== undefined) out[k] = sortKeys(rec[k]);
  return out;
}

/**
 * An object as the server encodes it: the kind's struct order for built-ins; a kind whose struct
 * is not recorded keeps TypeMeta and ObjectMeta first (every API type starts with them); custom
 * resources are maps (sorted keys).
 */
export function wireObject(obj: object, info: ResourceInfo, kind: string): GoJson {
  if (info.crd) return sortKeys(obj);
  const def = definitionOf(info, kind);
  if (def) return inStructOrder(obj, def);
  const rec = obj as Record<string, unknown>;
  const head: { [k: string]: GoJson } = {};
  for (const k of ['kind', 'apiVersion']) if (rec[k] !== undefined) head[k] = sortKeys(rec[k]);
  if (rec['metadata'] !== undefined) head['metadata'] = inStructOrder(rec['metadata'], `${META}ObjectMeta`);
  const rest = sortKeys(Object.fromEntries(Object.entries(rec).filter(([k]) => !['kind', 'apiVersion', 'metadata'].includes(k)))) as { [k: string]: GoJson };
  return { ...head, ...rest };
}

/** A meta/v1 value (Status, APIResourceList, …) in its struct order. */
export function metaValue(v: unknown, type: string): GoJson {
  return inStructOrder(v, `${META}${type}`);
}

/** The response body: json.Encoder's compact line, or MarshalIndent's two-space form. */
export function encodeBody(v: GoJson, pretty: boolean): string {
  return pretty ? marshalIndent(v, '  ') : `${marshalCompact(v)}\n`;
}
