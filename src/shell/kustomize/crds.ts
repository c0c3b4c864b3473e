/**
 * The `crds:` field (kustomize api/internal/accumulator/loadconfigfromcrds.go): each file is a map of
 * OpenAPI definitions (JSON when it starts with `{`, else YAML), `{"<go type name>": {"Schema": …}}`;
 * a definition with `kind`, `apiVersion` and `metadata` properties is a kind (named by the type
 * name's last `.` part), and its properties are walked through `$ref`s. A property carrying
 * `x-kubernetes-object-ref-kind` (and `-api-version`) is a name reference: its `name` (or the key in
 * `x-kubernetes-object-ref-name-key`) follows the referred object's new name. The annotation, label
 * selector and identity extensions only widen where other transformers write, which the simulated
 * transformers do not take field specs for; they are read and ignored.
 */
import { parse as parseYaml } from 'yaml';
import { KustomizeError, isObj, type Obj } from './types.js';

/** A reference field a CRD declares: in objects of `kind`, the scalar at `path` names a `refKind`. */
export interface CrdRef {
  kind: string;
  path: string;
  refKind: string;
}

/** The name references declared by one `crds:` file's text; `shown` is the path as written, for errors. */
export function crdRefs(text: string, shown: string): CrdRef[] {
  let defs: unknown;
  try {
    defs = text.startsWith('{') ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new KustomizeError(`unable to parse open API definition from '${shown}': ${(e as Error).message}`);
  }
  if (!isObj(defs)) return [];
  const props = (name: string): Obj => {
    const d = defs[name];
    const schema = isObj(d) && isObj(d['Schema']) ? d['Schema'] : {};
    return isObj(schema['properties']) ? schema['properties'] : {};
  };
  const out: CrdRef[] = [];
  const walk = (kind: string, typeName: string, path: string[], seen: Set<string>): void => {
    if (!isObj(defs[typeName]) || seen.has(typeName)) return;
    for (const [prop, p] of Object.entries(props(typeName))) {
      if (!isObj(p)) continue;
      const refKind = p['x-kubernetes-object-ref-kind'];
      if (typeof p['x-kubernetes-object-ref-api-version'] === 'string' && typeof refKind === 'string') {
        const key = typeof p['x-kubernetes-object-ref-name-key'] === 'string' ? p['x-kubernetes-object-ref-name-key'] : 'name';
        out.push({ kind, path: [...path, prop, key].join('/'), refKind });
      }
      if (typeof p['$ref'] === 'string') walk(kind, p['$ref'], [...path, prop], new Set([...seen, typeName]));
    }
  };
  for (const name of Object.keys(defs)) {
    const p = props(name);
    if (!('kind' in p && 'apiVersion' in p && 'metadata' in p)) continue;
    walk(name.split('.').pop()!, name, [], new Set());
  }
  return out;
}
