/**
 * The size limits a real control plane enforces, in the order a write meets them:
 *
 * 1. kube-apiserver reads at most 3 MiB of a request body (k8s.io/apiserver pkg/server/config.go
 *    MaxRequestBodyBytes = 3 * 1024 * 1024; pkg/endpoints/handlers/rest.go limitedReadBody) and
 *    answers a larger one with 413 RequestEntityTooLarge, `Request entity too large: limit is
 *    3145728` (apimachinery pkg/api/errors NewRequestEntityTooLargeError).
 * 2. Validation: a ConfigMap's data and binaryData together, and a Secret's data, may hold at most
 *    1 MiB (k8s.io/kubernetes pkg/apis/core/validation/validation.go ValidateConfigMap and
 *    ValidateSecret, core.MaxSecretSize), reported on the paths `[]` (field.NewPath("")) and
 *    `data`; an object's annotations, keys plus values, at most 256 KiB (apimachinery
 *    pkg/api/validation/objectmeta.go ValidateAnnotations, TotalAnnotationSizeLimitB). The text is
 *    field.TooLong's: `Too long: may not be more than N bytes` (pkg/util/validation/field/errors.go).
 * 3. etcd refuses a request over its --max-request-bytes, 1.5 MiB by default, with
 *    `etcdserver: request is too large`; kube-apiserver passes that error on as a Status without a
 *    reason (500), which kubectl prints as `Error from server: …`. The stored size is measured
 *    here as the object's JSON (etcd holds built-in kinds as protobuf, a little smaller).
 */
import { ApiError, type FieldError } from './errors.js';
import type { KObject } from './types.js';

export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;
export const MAX_SECRET_SIZE = 1024 * 1024;
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;
export const ETCD_MAX_REQUEST_BYTES = 1.5 * 1024 * 1024;

/** Bytes of a string as Go's len() counts them (UTF-8). */
function utf8Len(s: unknown): number {
  return typeof s === 'string' ? Buffer.byteLength(s, 'utf8') : 0;
}

/** Bytes a base64 value decodes to ([]byte fields: Secret data, ConfigMap binaryData). */
function decodedLen(s: unknown): number {
  if (typeof s !== 'string') return 0;
  const body = s.replace(/[\s=]+$/u, '');
  return Math.floor((body.replace(/\s+/gu, '').length * 3) / 4);
}

function tooLong(path: string, max: number): FieldError {
  return { field: path, body: `Too long: may not be more than ${max} bytes` };
}

/** The size of a request body as kubectl sends it (JSON). */
export function bodyBytes(obj: unknown): number {
  return utf8Len(JSON.stringify(obj) ?? '');
}

/**
 * Whether an object's JSON is over `limit` bytes. A UTF-16 code unit is at most 3 bytes of UTF-8
 * (a surrogate pair, two units, is 4), so a text of at most limit/3 units is within it: only a
 * longer one is measured (every write checks two bodies; nearly all are a few kilobytes).
 */
function overLimit(obj: unknown, limit: number): boolean {
  const json = JSON.stringify(obj) ?? '';
  return json.length * 3 > limit && utf8Len(json) > limit;
}

/** limitedReadBody: a body above 3 MiB is refused before anything else looks at it. */
export function checkRequestBody(obj: unknown): void {
  if (overLimit(obj, MAX_REQUEST_BODY_BYTES)) throw new ApiError('RequestEntityTooLarge', `Request entity too large: limit is ${MAX_REQUEST_BODY_BYTES}`, 413);
}

/** ValidateAnnotations' size rule: keys and values together at most 256 KiB. */
export function validateAnnotationsSize(annotations: Record<string, string> | undefined, path = 'metadata.annotations'): FieldError[] {
  let total = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) total += utf8Len(k) + utf8Len(v);
  return total > TOTAL_ANNOTATION_SIZE_LIMIT ? [tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT)] : [];
}

/** ValidateConfigMap's and ValidateSecret's total-size rules; nothing for other kinds. */
export function validateDataSize(obj: KObject): FieldError[] {
  if (obj.kind === 'ConfigMap') {
    let total = 0;
    for (const v of Object.values((obj['data'] ?? {}) as Record<string, unknown>)) total += utf8Len(v);
    for (const v of Object.values((obj['binaryData'] ?? {}) as Record<string, unknown>)) total += decodedLen(v);
    return total > MAX_SECRET_SIZE ? [tooLong('[]', MAX_SECRET_SIZE)] : [];
  }
  if (obj.kind === 'Secret') {
    let total = 0;
    for (const v of Object.values((obj['data'] ?? {}) as Record<string, unknown>)) total += decodedLen(v);
    return total > MAX_SECRET_SIZE ? [tooLong('data', MAX_SECRET_SIZE)] : [];
  }
  return [];
}

/** etcd's request limit, met when the object is written. */
export function checkStoredSize(obj: KObject): void {
  if (overLimit(obj, ETCD_MAX_REQUEST_BYTES)) throw new ApiError('', 'etcdserver: request is too large', 500);
}
