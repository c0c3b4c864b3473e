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
 *
 * A custom resource's Scale (customScale) reads its paths as unstructured.NestedInt64 and
 * NestedString do: a value of another type fails with apimachinery's accessor error, which the
 * scale REST returns as a plain error (the server answers 500 without a reason: kubectl prints
 * `Error from server: .spec.size accessor error: abc is of the type string, expected int64`);
 * a GET of a Scale whose spec replicas are absent is ScaleREST.Get's InternalError.
 */
import { ApiError, field, type FieldError } from './errors.js';
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

/**
 * The Scale the subresource answers for an object: a built-in's from spec.replicas, status.replicas
 * and spec.selector (`paths` undefined), a custom resource's from its CRD's paths (customScale,
 * whose accessor errors it throws).
 */
export function scaleOf(obj: KObject, paths: ScalePaths | undefined): Scale {
  if (paths) return customScale(obj, paths).scale;
  const m = obj.metadata;
  const spec = readPath(obj, BUILTIN_PATHS.specReplicasPath);
  const status = readPath(obj, BUILTIN_PATHS.statusReplicasPath);
  const selector = selectorString((obj['spec'] as { selector?: SelectorLike } | undefined)?.selector);
  return scaleObject(m, typeof spec === 'number' ? spec : 0, typeof status === 'number' ? status : 0, selector);
}

/** The autoscaling/v1 Scale of an object: its identity, spec replicas (omitted when 0) and status. */
function scaleObject(m: KObject['metadata'], specReplicas: number, statusReplicas: number, selector: string | undefined): Scale {
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
    spec: specReplicas !== 0 ? { replicas: specReplicas } : {},
    status: { replicas: statusReplicas, ...(selector ? { selector } : {}) },
  };
}

/**
 * What Go's fmt prints for a value decoded from JSON into unstructured content (%v and %T in
 * apimachinery's accessor errors): a whole number within int64 is int64, any other number
 * float64 (%v: strconv 'g' shortest, exponent form below 1e-4 or from 1e+06), arrays and maps
 * as fmt prints them (map keys sorted).
 */
export function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return isInt64(v) ? String(v) : goFloat(v);
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  const m = v as Record<string, unknown>;
  return `map[${Object.keys(m)
    .sort()
    .map((k) => `${k}:${goValue(m[k])}`)
    .join(' ')}]`;
}

export function goType(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return isInt64(v) ? 'int64' : 'float64';
  return Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}';
}

const isInt64 = (n: number): boolean => Number.isInteger(n) && Math.abs(n) < 2 ** 63;

/** strconv.FormatFloat(x, 'g', -1, 64), as %v prints a float64: shortest digits, %e form when the exponent is below -4 or at least 6. */
function goFloat(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : x < 0 ? '-Inf' : 'NaN';
  if (x === 0) return '0';
  const [mant, e] = x.toExponential().split('e') as [string, string];
  const exp = Number(e);
  if (exp >= -4 && exp < 6) return String(x);
  return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/** unstructured.NestedFieldNoCopy: the value at `path`, found or not, or its accessor error. */
function nested(obj: unknown, path: string): { value?: unknown; found: boolean } {
  const fields = segments(path);
  let val: unknown = obj;
  for (let i = 0; i < fields.length; i++) {
    if (val === null || val === undefined) return { found: false };
    if (typeof val !== 'object' || Array.isArray(val)) throw accessorError(fields.slice(0, i + 1), val, 'map[string]interface{}');
    const m = val as Record<string, unknown>;
    if (!Object.hasOwn(m, fields[i]!)) return { found: false };
    val = m[fields[i]!];
  }
  return { value: val, found: true };
}

/** apimachinery's `%v accessor error: %v is of the type %T, expected TYPE`: a plain error, which the server answers as 500 without a reason. */
function accessorError(fields: string[], val: unknown, want: string): ApiError {
  return new ApiError('', `.${fields.join('.')} accessor error: ${goValue(val)} is of the type ${goType(val)}, expected ${want}`, 500);
}

/** unstructured.NestedInt64. */
function nestedInt64(obj: unknown, path: string): { value: number; found: boolean } {
  const r = nested(obj, path);
  if (!r.found || r.value === null || r.value === undefined) return { value: 0, found: false };
  if (typeof r.value !== 'number' || !isInt64(r.value)) throw accessorError(segments(path), r.value, 'int64');
  return { value: r.value, found: true };
}

/** Go's int32(int64): the low 32 bits, signed. */
function int32(n: number): number {
  return Number(BigInt.asIntN(32, BigInt(n)));
}

/**
 * apiextensions-apiserver pkg/registry/customresource/etcd.go scaleFromCustomResource: spec and
 * status replicas as int64 at their paths (0 when absent; another type is the accessor's error),
 * narrowed to int32 as Go converts, the selector a string at labelSelectorPath; `found`: whether
 * the spec replicas are there (ScaleREST.Get answers InternalError `the spec replicas field %q
 * does not exist` when not).
 */
export function customScale(obj: KObject, paths: ScalePaths): { scale: Scale; found: boolean } {
  const spec = nestedInt64(obj, paths.specReplicasPath);
  const status = nestedInt64(obj, paths.statusReplicasPath);
  let selector = '';
  if (paths.labelSelectorPath) {
    const r = nested(obj, paths.labelSelectorPath);
    if (r.found && r.value !== null && r.value !== undefined) {
      if (typeof r.value !== 'string') throw accessorError(segments(paths.labelSelectorPath), r.value, 'string');
      selector = r.value;
    }
  }
  return { found: spec.found, scale: scaleObject(obj.metadata, int32(spec.value), int32(status.value), selector) };
}

const INT32_MAX = 2 ** 31 - 1;

/** An accessor error's message, or undefined when reading `read` succeeds. */
function accessorMessage(read: () => void): string | undefined {
  try {
    read();
    return undefined;
  } catch (e) {
    if (e instanceof ApiError) return e.message;
    throw e;
  }
}

/** A replicas count's range check (validator.go): non-negative, at most math.MaxInt32. */
function replicasErrors(obj: unknown, path: string): FieldError[] {
  let n = 0;
  const err = accessorMessage(() => (n = nestedInt64(obj, path).value));
  // NestedInt64 answers 0 with its error, and field.Invalid prints that 0
  if (err !== undefined) return [field.invalid(path, 0, err)];
  if (n < 0) return [field.invalid(path, n, 'should be a non-negative integer')];
  if (n > INT32_MAX) return [field.invalid(path, n, `should be less than or equal to ${INT32_MAX}`)];
  return [];
}

/**
 * A custom resource's scale fields as its strategies validate them (apiextensions-apiserver
 * pkg/registry/customresource/validator.go, v1.35): ValidateScaleSpec (create and update) reads
 * specReplicasPath with NestedInt64, ValidateScaleStatus (create, update and the status
 * subresource's update, status_strategy.go) statusReplicasPath likewise and labelSelectorPath
 * with NestedString. Each error is field.Invalid at the CRD's path as written (`.spec.size`,
 * leading dot kept: field.NewPath of the whole string) with the value NestedInt64 returned (0
 * beside an accessor error) and `should be a non-negative integer` / `should be less than or
 * equal to 2147483647`; a selector that is no string is Invalid `""` with the accessor error.
 * An absent field is no error.
 */
export function customScaleErrors(obj: KObject, paths: ScalePaths, only: 'spec+status' | 'status'): FieldError[] {
  const errs: FieldError[] = only === 'spec+status' ? replicasErrors(obj, paths.specReplicasPath) : [];
  errs.push(...replicasErrors(obj, paths.statusReplicasPath));
  const sel = paths.labelSelectorPath;
  if (sel) {
    const err = accessorMessage(() => {
      const r = nested(obj, sel);
      if (r.found && r.value !== null && r.value !== undefined && typeof r.value !== 'string') throw accessorError(segments(sel), r.value, 'string');
    });
    if (err !== undefined) errs.push(field.invalid(sel, '', err));
  }
  return errs;
}

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
