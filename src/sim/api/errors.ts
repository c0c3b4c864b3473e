/**
 * API errors as values with the API server's wording (k8s.io/apimachinery pkg/api/errors/errors.go,
 * pkg/util/validation/field/errors.go). They are formatted for the terminal once, at the shell's
 * edge (src/shell/kubectl/errors.ts), the way kubectl's checkErr does.
 */
import { type ResourceInfo, qualifiedKind, qualifiedResource } from './registry.js';
import { goQuote } from '../../util/go-quote.js';

export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'Invalid'
  | 'Conflict'
  | 'Forbidden'
  | 'BadRequest'
  | 'MethodNotAllowed'
  | 'ServiceUnavailable'
  | 'Unauthorized'
  | 'RequestEntityTooLarge'
  | 'TooManyRequests'
  | 'InternalError'
  /** StatusReasonUnknown: an error the server passed on without a reason (etcd's, for one). */
  | '';

export interface FieldError {
  field: string;
  /** ErrorBody: `<Type>[: <value>][: <detail>]`. */
  body: string;
}

export class ApiError extends Error {
  constructor(
    readonly reason: StatusReason,
    message: string,
    readonly code: number,
    readonly details?: { kind: string; name: string; causes: FieldError[] },
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * Why kubectl could not reach the API server: the discovery request it makes first (its URL and
 * Go's error text), when it was made (for the klog lines), and whether kubectl has that server's
 * discovery cached (then it makes no discovery request; see kubectl/connection-errors.ts).
 */
export interface DialContext {
  apiUrl: string;
  detail: string;
  at: number;
  cached: boolean;
}

/** Thrown while the API server cannot be reached on a port that refuses (its static pod broken or stopped, a wrong port). */
export class ConnectionRefusedError extends Error {
  constructor(
    readonly hostPort: string,
    readonly dial?: DialContext,
  ) {
    super(`The connection to the server ${hostPort} was refused - did you specify the right host or port?`);
    this.name = 'ConnectionRefusedError';
  }
}

/** Thrown when the API server cannot be reached otherwise: an unknown name, a dial timeout, a certificate that does not verify. */
export class UnableToConnectError extends Error {
  constructor(readonly dial: DialContext) {
    super(`Unable to connect to the server: ${dial.detail}`);
    this.name = 'UnableToConnectError';
  }
}

export function notFound(info: ResourceInfo, name: string): ApiError {
  return new ApiError('NotFound', `${qualifiedResource(info)} "${name}" not found`, 404);
}

/**
 * The registry's AlreadyExists; one whose stored object carries a deletionTimestamp says so first
 * (apiserver pkg/registry/generic/registry/store.go Create: `object is being deleted: %s`).
 */
export function alreadyExists(info: ResourceInfo, name: string, beingDeleted = false): ApiError {
  return new ApiError('AlreadyExists', `${beingDeleted ? 'object is being deleted: ' : ''}${qualifiedResource(info)} "${name}" already exists`, 409);
}

export function conflict(info: ResourceInfo, name: string, why: string): ApiError {
  return new ApiError('Conflict', `Operation cannot be fulfilled on ${qualifiedResource(info)} "${name}": ${why}`, 409);
}

export function forbidden(message: string): ApiError {
  return new ApiError('Forbidden', message, 403);
}

export function badRequest(message: string): ApiError {
  return new ApiError('BadRequest', message, 400);
}

/** NewInvalid: one cause → `... is invalid: f: body`; several → `... is invalid: [f1: b1, f2: b2]`. */
export function invalid(info: ResourceInfo, name: string, causes: FieldError[]): ApiError {
  const parts = causes.map((c) => `${c.field}: ${c.body}`);
  const agg = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  return new ApiError('Invalid', `${qualifiedKind(info)} "${name}" is invalid: ${agg}`, 422, {
    kind: info.kind,
    name,
    causes,
  });
}

function fmtValue(v: unknown): string {
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

export { goQuote };

export const field = {
  required: (f: string, detail = ''): FieldError => ({ field: f, body: detail ? `Required value: ${detail}` : 'Required value' }),
  invalid: (f: string, value: unknown, detail: string): FieldError => ({
    field: f,
    body: `Invalid value: ${fmtValue(value)}${detail ? `: ${detail}` : ''}`,
  }),
  /** field.NotSupported prints the list as the caller passes it: sorted when that is a set's List(), else in code order (`ordered`). */
  notSupported: (f: string, value: unknown, supported: string[], ordered = false): FieldError => ({
    field: f,
    body: `Unsupported value: ${fmtValue(value)}: supported values: ${(ordered ? supported : [...supported].sort()).map(goQuote).join(', ')}`,
  }),
  /** Invalid with the value already printed the Go way (`%#v` of a struct). */
  invalidRaw: (f: string, printed: string, detail: string): FieldError => ({ field: f, body: `Invalid value: ${printed}: ${detail}` }),
  forbidden: (f: string, detail: string): FieldError => ({ field: f, body: `Forbidden: ${detail}` }),
  duplicate: (f: string, value: unknown): FieldError => ({ field: f, body: `Duplicate value: ${fmtValue(value)}` }),
  notFound: (f: string, value: unknown): FieldError => ({ field: f, body: `Not found: ${fmtValue(value)}` }),
};
