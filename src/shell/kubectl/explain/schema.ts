/**
 * The OpenAPI v3 document `kubectl explain` reads: component schemas in the shape the apiserver
 * serves at /openapi/v3/<group-version> (k8s.io/kube-openapi spec3), restricted to the kinds and
 * fields this simulator documents. `kubectl explain` walks `$ref`, `allOf`, `items` and
 * `additionalProperties` exactly as kubectl's plaintext template does (./render.ts).
 */
import { SCHEMAS as APPS } from './schemas/apps.js';
import { SCHEMAS as CORE } from './schemas/core.js';
import { SCHEMAS as DISCOVERY } from './schemas/discovery.js';
import { SCHEMAS as INTSTR } from './schemas/intstr.js';
import { SCHEMAS as META } from './schemas/meta.js';
import { SCHEMAS as NETWORKING } from './schemas/networking.js';
import { applyOverrides } from './overrides.js';

export interface Schema {
  description?: string;
  type?: string;
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  allOf?: Schema[];
  oneOf?: Schema[];
  enum?: string[];
  $ref?: string;
}

export type SchemaMap = Record<string, Schema>;

/** components.schemas of the simulated apiserver's OpenAPI v3 documents, all groups merged. */
export const COMPONENTS: SchemaMap = applyOverrides({ ...CORE, ...APPS, ...NETWORKING, ...DISCOVERY, ...META, ...INTSTR });

/** The schema of each kind explain can describe (its x-kubernetes-group-version-kind). */
export const KIND_SCHEMAS: Readonly<Record<string, string>> = {
  Pod: 'io.k8s.api.core.v1.Pod',
  Service: 'io.k8s.api.core.v1.Service',
  ConfigMap: 'io.k8s.api.core.v1.ConfigMap',
  Node: 'io.k8s.api.core.v1.Node',
  Deployment: 'io.k8s.api.apps.v1.Deployment',
  NetworkPolicy: 'io.k8s.api.networking.v1.NetworkPolicy',
  Ingress: 'io.k8s.api.networking.v1.Ingress',
  EndpointSlice: 'io.k8s.api.discovery.v1.EndpointSlice',
};

const REF_PREFIX = '#/components/schemas/';

/** funcs.go resolveRef: a `#/components/schemas/<name>` reference, or undefined when absent. */
export function resolveRef(ref: string | undefined): Schema | undefined {
  if (ref === undefined || !ref.startsWith(REF_PREFIX)) return undefined;
  return COMPONENTS[ref.slice(REF_PREFIX.length)];
}
