/**
 * The API server's decoding of a write (k8s.io/apimachinery pkg/runtime/serializer/json/json.go
 * over sigs.k8s.io/json, a fork of Go's encoding/json): the JSON a client sends is typed by the
 * kind's schema (./openapi), so a value of the wrong JSON type fails with encoding/json's text,
 * `null` leaves a field absent, quantities are stored canonical, and unknown fields are reported
 * by the field-validation directive (Strict: `strict decoding error: unknown field "…"`, Warn: a
 * warning each, Ignore: dropped silently). The handlers wrap a failure as
 * `<Kind> in version "<v>" cannot be handled as a <Kind>: <err>` (apiserver
 * pkg/endpoints/handlers/rest.go transformDecodeError), a BadRequest.
 *
 * encoding/json semantics kept here (decode.go): the first type error is saved and decoding goes
 * on (`UnmarshalTypeError` with the innermost struct and the dotted field path, no indices), in
 * the order kubectl's body lists fields (sorted: it marshals a map); an
 * error from a type's own UnmarshalJSON (Quantity, IntOrString, Time) stops decoding at once and
 * wins; strict errors only count when there is no other error; names match case-sensitively.
 */
import { remember } from '../../util/bounded-map.js';
import { badRequest, type ApiError } from './errors.js';
import { BYTES_MAPS, GO_TYPES } from './openapi/go-types.js';
import { schemaComponent, KIND_SCHEMAS, REF_PREFIX, type Schema } from './openapi/schema.js';
import { canonicalQuantity, ERR_FORMAT_WRONG } from './quantity.js';
import type { KObject } from './types.js';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface Decoded {
  obj: KObject;
  /** Unknown fields (paths as the server prints them), dropped from obj. */
  unknownFields: string[];
}

const INTSTR = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const TIME = 'io.k8s.apimachinery.pkg.apis.meta.v1.Time';
/** managedFields[].fieldsV1: its UnmarshalJSON keeps the raw JSON, whatever its shape (fields_proto.go). */
const FIELDS_V1 = 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1';

/** An error from a type's own UnmarshalJSON: it ends decoding. */
class Fatal extends Error {}

interface Ctx {
  /** The Go struct whose field is being decoded, and the field stack (encoding/json errorContext). */
  struct: string;
  fields: Fields | undefined;
  /** sigs.k8s.io/json's strict path: `spec.containers[0]`. */
  path: PathStep | undefined;
}

/**
 * The field stack and the strict path as linked steps, turned into text only for an error or an
 * unknown field: building both strings and a fresh array for every field decoded was most of
 * decoding a write.
 */
interface Fields {
  up: Fields | undefined;
  name: string;
}

/** A step of the strict path: a struct's field (joined with `.` unless the path so far is ''), a map key (`.k`), a list index (`[i]`). */
interface PathStep {
  up: PathStep | undefined;
  how: 'field' | 'key' | 'index';
  seg: string;
}

function fieldsText(f: Fields | undefined): string {
  const names: string[] = [];
  for (let x = f; x; x = x.up) names.push(x.name);
  return names.reverse().join('.');
}

function pathText(p: PathStep | undefined): string {
  if (!p) return '';
  const up = pathText(p.up);
  if (p.how === 'index') return `${up}[${p.seg}]`;
  if (p.how === 'key') return `${up}.${p.seg}`;
  return up ? `${up}.${p.seg}` : p.seg;
}

/** `io.k8s.api.core.v1.PodSpec` → `PodSpec`, and the GO_TYPES / BYTES_MAPS entries of its fields: pure functions of the name, kept. */
const STRUCTS = new Map<string, { struct: string; fields: Map<string, { type: string | undefined; bytes: boolean }> }>();

function structOf(name: string): { struct: string; fields: Map<string, { type: string | undefined; bytes: boolean }> } {
  let hit = STRUCTS.get(name);
  // (bounded: a custom resource's kind names its root struct)
  if (!hit) hit = remember(STRUCTS, name, { struct: name.split('.').pop()!, fields: new Map() }, 4096);
  return hit;
}

interface State {
  saved?: string;
  unknown: string[];
}

const ABSENT = Symbol('absent');
type Out = unknown | typeof ABSENT;

function refName(s: Schema): string | undefined {
  const r = s.$ref ?? s.allOf?.[0]?.$ref;
  return r?.startsWith(REF_PREFIX) ? r.slice(REF_PREFIX.length) : undefined;
}

function lookup(name: string): Schema | undefined {
  return schemaComponent(name);
}

/** `io.k8s.api.core.v1.PodSpec` → `v1.PodSpec`; `…intstr.IntOrString` → `intstr.IntOrString`. */
function goName(name: string): string {
  const parts = name.split('.');
  return `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
}

/** reflect.Type.String() of a schema, for UnmarshalTypeError. */
function goType(s: Schema): string {
  const name = refName(s);
  if (name === QUANTITY) return 'resource.Quantity';
  if (name) return goName(name);
  if (s.type === 'array' && s.items) return `[]${goType(s.items)}`;
  if (s.type === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object') return `map[string]${goType(s.additionalProperties)}`;
  if (s.type === 'integer') return 'int32';
  if (s.type === 'boolean') return 'bool';
  return 'string';
}

function jsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

function typeError(value: string, type: string, ctx: Ctx): string {
  if (ctx.struct || ctx.fields) return `json: cannot unmarshal ${value} into Go struct field ${ctx.struct}.${fieldsText(ctx.fields)} of type ${type}`;
  return `json: cannot unmarshal ${value} into Go value of type ${type}`;
}

function save(st: State, msg: string): void {
  st.saved ??= msg;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const INT32: readonly [number, number] = [-(2 ** 31), 2 ** 31 - 1];
/** int64 as far as a JSON number is exact in JavaScript. */
const INT64: readonly [number, number] = [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];

/** Go's base64.StdEncoding.Decode acceptance (CorruptInputError at the first bad byte). */
function base64Error(s: string): string | undefined {
  const clean = s.replace(/[\r\n]/g, '');
  const bad = /[^A-Za-z0-9+/=]/.exec(clean);
  if (bad) return `illegal base64 data at input byte ${bad.index}`;
  const pad = clean.indexOf('=');
  if (pad >= 0 && !/^={1,2}$/.test(clean.slice(pad))) return `illegal base64 data at input byte ${pad}`;
  if (clean.length % 4 !== 0) return `illegal base64 data at input byte ${Math.floor(clean.length / 4) * 4}`;
  return undefined;
}

/**
 * Decode one value by its schema. `type` is the Go type of this position when a table names it
 * (GO_TYPES); `bytes` marks a map of []byte (base64 text).
 */
function decodeValue(v: unknown, s: Schema, ctx: Ctx, type: string | undefined, bytes: boolean, st: State): Out {
  if (v === null || v === undefined) return ABSENT;
  const name = refName(s);
  if (name === QUANTITY) {
    // quantity.go UnmarshalJSON: the text between quotes (or the bare literal) must parse
    if (typeof v !== 'string' && typeof v !== 'number') throw new Fatal(ERR_FORMAT_WRONG);
    try {
      return canonicalQuantity(String(v));
    } catch (e) {
      throw new Fatal((e as Error).message);
    }
  }
  if (name === INTSTR) {
    if (typeof v === 'string') return v;
    // intstr.go UnmarshalJSON: json.Unmarshal into IntVal (int32); the outer decoder adds its context
    if (typeof v === 'number' && (!Number.isInteger(v) || v < INT32[0] || v > INT32[1])) throw new Fatal(typeError(`number ${v}`, 'int32', ctx));
    if (typeof v !== 'number') throw new Fatal(typeError(jsonKind(v), 'int32', ctx));
    return v;
  }
  if (name === TIME) {
    // metav1.Time UnmarshalJSON: json.Unmarshal into a string first
    if (typeof v !== 'string') throw new Fatal(typeError(jsonKind(v), 'string', ctx));
    return v;
  }
  if (name === FIELDS_V1) return structuredClone(v);
  if (name) {
    const target = lookup(name);
    if (!target) return structuredClone(v);
    // a type with its own UnmarshalJSON and no schema type (apiextensions JSON, JSONSchemaPropsOrBool,
    // OrArray, OrStringArray: OpenAPISchemaType() nil) takes any JSON value as it is
    if (target.type === undefined && target.properties === undefined) return structuredClone(v);
    return decodeStruct(v, target, name, ctx, type ?? goName(name), st);
  }
  const goT = type ?? goType(s);
  switch (s.type) {
    case 'array': {
      if (!Array.isArray(v)) return fail(st, typeError(jsonKind(v), goT, ctx));
      const items = s.items ?? {};
      const elemType = goT.startsWith('[]') ? goT.slice(2) : undefined;
      return v.map((x, i) => {
        const out = decodeValue(x, items, { ...ctx, path: { up: ctx.path, how: 'index', seg: String(i) } }, elemType, false, st);
        return out === ABSENT ? zeroOf(items) : out;
      });
    }
    case 'object': {
      if (!isObject(v)) return fail(st, typeError(jsonKind(v), goT, ctx));
      const elem = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
      if (!elem) return structuredClone(v);
      const elemType = goT.startsWith('map[string]') ? goT.slice('map[string]'.length) : undefined;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        if (bytes) {
          // a []byte is base64 text; null is an empty slice
          if (x === null) out[k] = '';
          else if (typeof x !== 'string') save(st, typeError(jsonKind(x), '[]uint8', ctx));
          else {
            const err = base64Error(x);
            if (err) save(st, err);
            else out[k] = x;
          }
          continue;
        }
        const r = decodeValue(x, elem, { ...ctx, path: { up: ctx.path, how: 'key', seg: k } }, elemType, false, st);
        out[k] = r === ABSENT ? zeroOf(elem) : r;
      }
      return out;
    }
    case 'integer': {
      if (typeof v !== 'number') return fail(st, typeError(jsonKind(v), goT, ctx));
      const [lo, hi] = goT === 'int64' ? INT64 : INT32;
      if (!Number.isInteger(v) || v < lo || v > hi) return fail(st, typeError(`number ${v}`, goT, ctx));
      return v;
    }
    case 'boolean':
      return typeof v === 'boolean' ? v : fail(st, typeError(jsonKind(v), goT, ctx));
    case 'string':
      return typeof v === 'string' ? v : fail(st, typeError(jsonKind(v), goT, ctx));
    default:
      return structuredClone(v);
  }
}

function fail(st: State, msg: string): Out {
  save(st, msg);
  return ABSENT;
}

/** The zero value a null map or slice element decodes to. */
function zeroOf(s: Schema): unknown {
  const name = refName(s);
  // a null Quantity is the zero quantity, written "0"; a zero Time is written null
  if (name === QUANTITY) return '0';
  if (name === INTSTR) return 0;
  if (name === TIME) return null;
  if (name) return {};
  if (s.type === 'integer') return 0;
  if (s.type === 'boolean') return false;
  if (s.type === 'string') return '';
  return null;
}

function decodeStruct(v: unknown, s: Schema, name: string, ctx: Ctx, type: string, st: State): Out {
  if (!isObject(v)) return fail(st, typeError(jsonKind(v), type, ctx));
  const { struct, fields } = structOf(name);
  const props = s.properties ?? {};
  const open = s.additionalProperties === true;
  const decoded = new Map<string, unknown>();
  // kubectl sends JSON marshalled from a map: keys arrive sorted, and errors follow that order
  for (const k of Object.keys(v).sort()) {
    const x = v[k];
    const p = Object.prototype.hasOwnProperty.call(props, k) ? props[k] : undefined;
    const path: PathStep = { up: ctx.path, how: 'field', seg: k };
    if (!p) {
      if (open) decoded.set(k, structuredClone(x));
      else st.unknown.push(pathText(path));
      continue;
    }
    let f = fields.get(k);
    if (!f) {
      const key = `${struct}.${k}`;
      fields.set(k, (f = { type: GO_TYPES[key], bytes: BYTES_MAPS.has(key) }));
    }
    const r = decodeValue(x, p, { struct, fields: { up: ctx.fields, name: k }, path }, f.type, f.bytes, st);
    if (r !== ABSENT) decoded.set(k, r);
  }
  // the stored object keeps the client's key order
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) if (decoded.has(k)) out[k] = decoded.get(k);
  return out;
}

/** The schema a kind's writes are decoded by. */
function kindSchema(kind: string): Schema {
  const name = KIND_SCHEMAS[kind];
  const schema = name ? lookup(name) : undefined;
  if (schema) return schema;
  return {
    type: 'object',
    additionalProperties: true,
    properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { allOf: [{ $ref: `${REF_PREFIX}io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta` }] } },
  };
}

/**
 * Decode a write's body as the kind it claims to be. Throws the server's BadRequest; returns the
 * typed object and the unknown fields it dropped (the caller turns them into the Strict error or
 * warnings, see decodeError). `coerce` is a custom resource's schema pass (./crd-schema.ts
 * pruning): the paths it drops count as unknown fields after those of metadata, as
 * customresource_handler.go unstructuredSchemaCoercer.apply orders them.
 */
export function decodeObject(input: unknown, kind: string, version: string, validation: FieldValidation, coerce?: (obj: Record<string, unknown>) => string[]): Decoded {
  const st: State = { unknown: [] };
  const schema = kindSchema(kind);
  let out: Out;
  try {
    out = decodeStruct(input, schema, kind, { struct: '', fields: undefined, path: undefined }, kind, st);
  } catch (e) {
    if (e instanceof Fatal) throw cannotHandle(kind, version, e.message);
    throw e;
  }
  if (st.saved) throw cannotHandle(kind, version, st.saved);
  if (coerce && out !== ABSENT) st.unknown.push(...coerce(out as Record<string, unknown>));
  if (validation === 'Strict' && st.unknown.length > 0)
    throw cannotHandle(kind, version, `strict decoding error: ${st.unknown.map((p) => `unknown field ${JSON.stringify(p)}`).join(', ')}`);
  return { obj: (out === ABSENT ? {} : out) as KObject, unknownFields: validation === 'Ignore' ? [] : st.unknown };
}

function cannotHandle(kind: string, version: string, msg: string): ApiError {
  return badRequest(`${kind} in version ${JSON.stringify(version)} cannot be handled as a ${kind}: ${msg}`);
}

/** The warning text for each unknown field under fieldValidation=Warn (handlers/create.go addStrictDecodingWarnings). */
export function unknownFieldWarning(path: string): string {
  return `unknown field ${JSON.stringify(path)}`;
}
