/**
 * The scale subresource (autoscaling/v1 Scale): the built-in workloads' ScaleREST
 * (pkg/registry/apps/deployment/storage/storage.go scaleFromDeployment and its twins for
 * ReplicaSets, StatefulSets and ReplicationControllers) and a custom resource's, when its CRD
 * version declares `subresources.scale` (apiextensions-apiserver pkg/registry/customresource
 * ScaleREST: spec.replicas read from and written to specReplicasPath, status.replicas from
 * statusReplicasPath, status.selector from labelSelectorPath).
 *
 * kubectl scale (k8s.io/kubectl pkg/scale/scale.go ScaleSimple) sends a JSON merge patch
 * `{"spec":{"replicas":N}}` to it. The patch handler (apiserver pkg/endpoints/handlers/patch.go
 * jsonPatcher.applyPatchToCurrentObject) merges it into the current Scale's JSON and decodes the
 * result; a count that does not fit ScaleSpec.Replicas (int32) fails that decode and is answered
 * `NewInvalid(schema.GroupKind{}, "", patch: Invalid value: "<patched JSON>": json: cannot
 * unmarshal …)`. The patched JSON is json-patch v4 MergePatch's: the top level and the merged
 * `spec` re-marshalled with sorted keys, `metadata` and `status` as the codec wrote them.
 * The simulator keeps no managedFields, so the real Scale's `metadata.managedFields` is absent.
 */
import { ApiError, type FieldError } from './errors.js';
import { goQuote } from '../../util/go-quote.js';
import type { KObject } from './types.js';

export const BUILTIN_SCALABLE: ReadonlySet<string> = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController']);

export interface ScalePaths {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface Scale {
  apiVersion: 'autoscaling/v1';
  kind: 'Scale';
  metadata: { name: string; namespace?: string; uid?: string; resourceVersion?: string; creationTimestamp?: string };
  spec: { replicas?: number };
  status: { replicas: number; selector?: string };
}

const BUILTIN_PATHS: ScalePaths = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' };

/** A `.a.b` JSON path's segments (the CRD validation allows only this simple form). */
const segments = (path: string): string[] => path.split('.').slice(1);

export function readPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const s of segments(path)) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[s] : undefined;
  return cur;
}

export function writePath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const segs = segments(path);
  let cur = obj;
  for (const s of segs.slice(0, -1)) {
    if (!cur[s] || typeof cur[s] !== 'object') cur[s] = {};
    cur = cur[s] as Record<string, unknown>;
  }
  cur[segs[segs.length - 1]!] = value;
}

interface SelectorLike {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** metav1.LabelSelectorAsSelector(sel).String(): requirements sorted by key. */
export function selectorString(sel: SelectorLike | undefined): string {
  const reqs: [string, string][] = [];
  for (const [k, v] of Object.entries(sel?.matchLabels ?? {})) reqs.push([k, `${k}=${v}`]);
  for (const e of sel?.matchExpressions ?? []) {
    const vals = [...new Set(e.values ?? [])].sort().join(',');
    const text = e.operator === 'In' ? `${e.key} in (${vals})` : e.operator === 'NotIn' ? `${e.key} notin (${vals})` : e.operator === 'Exists' ? e.key : `!${e.key}`;
    reqs.push([e.key, text]);
  }
  return reqs
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map((r) => r[1])
    .join(',');
}

/** The Scale the subresource answers for an object (built-in when `paths` is undefined). */
export function scaleOf(obj: KObject, paths: ScalePaths | undefined): Scale {
  const p = paths ?? BUILTIN_PATHS;
  const m = obj.metadata;
  const spec = readPath(obj, p.specReplicasPath);
  const status = readPath(obj, p.statusReplicasPath);
  let selector: string | undefined;
  if (!paths) selector = selectorString((obj['spec'] as { selector?: SelectorLike } | undefined)?.selector);
  else if (p.labelSelectorPath) {
    const s = readPath(obj, p.labelSelectorPath);
    if (typeof s === 'string') selector = s;
  }
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: {
      name: m.name,
      ...(m.namespace ? { namespace: m.namespace } : {}),
      ...(m.uid ? { uid: m.uid } : {}),
      ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
      ...(m.creationTimestamp ? { creationTimestamp: m.creationTimestamp } : {}),
    },
    spec: typeof spec === 'number' && spec !== 0 ? { replicas: spec } : {},
    status: { replicas: typeof status === 'number' ? status : 0, ...(selector ? { selector } : {}) },
  };
}

const INT32_MAX = 2 ** 31 - 1;

/**
 * The merge patch's decode: a count beyond int32 is the Invalid answer described above; undefined
 * when the patched Scale decodes.
 */
export function scalePatchError(current: Scale, replicas: number): ApiError | undefined {
  if (replicas <= INT32_MAX) return undefined;
  const patched = `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":${JSON.stringify(current.metadata)},"spec":{"replicas":${replicas}},"status":${JSON.stringify(current.status)}}`;
  const detail = `json: cannot unmarshal number ${replicas} into Go struct field ScaleSpec.spec.replicas of type int32`;
  const cause: FieldError = { field: 'patch', body: `Invalid value: ${goQuote(patched)}: ${detail}` };
  return new ApiError('Invalid', ` "" is invalid: ${cause.field}: ${cause.body}`, 422, { kind: '', name: '', causes: [cause] });
}
