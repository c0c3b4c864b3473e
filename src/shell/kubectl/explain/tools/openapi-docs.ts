/**
 * The simulated apiserver's discovery and /openapi/v3 documents, built from ../schema.ts and the
 * resource registry, in the JSON shape a real apiserver serves. Used to record `kubectl explain`
 * goldens from the real kubectl binary (record-real.ts); not used at run time.
 */
import { schemaComponents, schemaNameOf } from '../schema.js';
import { RESOURCES, apiVersionOf } from '../../../../sim/api/registry.js';

interface Doc {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, unknown>;
  components: { schemas: Record<string, unknown> };
}

/** `api/v1`, `apis/apps/v1`, … → OpenAPI v3 document with every component and the kinds' paths. */
export function openapiDocs(): Record<string, Doc> {
  const docs: Record<string, Doc> = {};
  for (const info of RESOURCES) {
    const { kind } = info;
    const name = schemaNameOf(info.group, kind);
    if (name === undefined) continue;
    const gv = apiVersionOf(info);
    const key = info.group ? `apis/${gv}` : 'api/v1';
    const doc = (docs[key] ??= { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.35.2' }, paths: {}, components: { schemas: {} } });
    const base = info.group ? `/apis/${gv}` : '/api/v1';
    const path = info.namespaced ? `${base}/namespaces/{namespace}/${info.resource}` : `${base}/${info.resource}`;
    const gvk = { group: info.group, kind, version: info.version };
    doc.paths[path] = { get: { 'x-kubernetes-group-version-kind': gvk } };
    for (const [n, s] of Object.entries(schemaComponents())) if (!(n in doc.components.schemas)) doc.components.schemas[n] = s;
    doc.components.schemas[name] = { ...schemaComponents()[name], 'x-kubernetes-group-version-kind': [gvk] };
  }
  return docs;
}

/** group/version → [resource, kind, namespaced, shortNames] for every registry resource. */
export function discoveryLists(): Record<string, [string, string, boolean, readonly string[]][]> {
  const out: Record<string, [string, string, boolean, readonly string[]][]> = {};
  for (const r of RESOURCES) (out[apiVersionOf(r)] ??= []).push([r.resource, r.kind, r.namespaced, r.shortNames]);
  return out;
}
