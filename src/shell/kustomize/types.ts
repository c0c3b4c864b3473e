/**
 * Shapes shared by the kustomize build (sigs.k8s.io/kustomize/api/types/kustomization.go): the
 * kustomization file as written, and a resource as the build carries it (the object plus the
 * identity it had when it entered the build, which name references still use).
 */
import type { JsonValue } from '../kubectl/merge.js';

export type Obj = { [k: string]: JsonValue };

export interface GeneratorArgs {
  name?: string;
  namespace?: string;
  behavior?: string;
  literals?: string[];
  files?: string[];
  envs?: string[];
  env?: string;
  type?: string;
  options?: GeneratorOptions;
}

export interface GeneratorOptions {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  disableNameSuffixHash?: boolean;
  immutable?: boolean;
}

export interface Target {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
  annotationSelector?: string;
}

export interface Patch {
  path?: string;
  patch?: string;
  target?: Target;
  options?: { allowNameChange?: boolean; allowKindChange?: boolean };
}

export interface Label {
  pairs?: Record<string, string>;
  includeSelectors?: boolean;
  includeTemplates?: boolean;
  fields?: unknown;
}

export interface Image {
  name?: string;
  newName?: string;
  newTag?: string;
  digest?: string;
  tagSuffix?: string;
}

export interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  components?: string[];
  crds?: string[];
  bases?: string[];
  namespace?: string;
  namePrefix?: string;
  nameSuffix?: string;
  commonLabels?: Record<string, string>;
  labels?: Label[];
  commonAnnotations?: Record<string, string>;
  images?: Image[];
  replicas?: { name?: string; count?: number }[];
  configMapGenerator?: GeneratorArgs[];
  secretGenerator?: GeneratorArgs[];
  generatorOptions?: GeneratorOptions;
  patches?: Patch[];
  patchesStrategicMerge?: string[];
  patchesJson6902?: Patch[];
  replacements?: Replacement[];
}

export interface Replacement {
  path?: string;
  source?: { kind?: string; name?: string; namespace?: string; group?: string; version?: string; fieldPath?: string };
  targets?: { select?: Target; reject?: Target[]; fieldPaths?: string[]; options?: { create?: boolean; delimiter?: string; index?: number } }[];
}

/** A resource in the build. */
export interface Res {
  obj: Obj;
  /** Name and namespace the resource had when it entered the build (references use them). */
  origName: string;
  origNs: string | undefined;
  /** A generated ConfigMap/Secret that gets the content-hash suffix at the end. */
  hashSuffix: boolean;
  /** Made by a generator (behaviour merge/replace may only meet generated ones). */
  generated: boolean;
}

/** A build error in kustomize's words (printed by kubectl as `error: <message>`). */
export class KustomizeError extends Error {}

export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export function meta(o: Obj): Obj {
  if (!isObj(o['metadata'])) o['metadata'] = {};
  return o['metadata'] as Obj;
}

export const kindOf = (o: Obj): string => (typeof o['kind'] === 'string' ? o['kind'] : '');
export const nameOf = (o: Obj): string => (typeof meta(o)['name'] === 'string' ? (meta(o)['name'] as string) : '');
export const nsOf = (o: Obj): string | undefined => (typeof meta(o)['namespace'] === 'string' ? (meta(o)['namespace'] as string) : undefined);

/** The object at a path, created (as maps) when `create` is set. */
export function pathObj(o: Obj, path: readonly string[], create: boolean): Obj | undefined {
  let cur: Obj = o;
  for (const p of path) {
    const next = cur[p];
    if (isObj(next)) cur = next;
    else if (create && (next === undefined || next === null)) {
      cur[p] = {};
      cur = cur[p] as Obj;
    } else return undefined;
  }
  return cur;
}
