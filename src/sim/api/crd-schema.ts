/**
 * A custom resource against its CRD version's `openAPIV3Schema`, as apiextensions-apiserver
 * treats it (k8s.io/apiextensions-apiserver v0.35):
 *
 * - pruning (pkg/apiserver/schema/pruning/algorithm.go PruneWithOptions): fields the structural
 *   schema does not declare are dropped, except under `x-kubernetes-preserve-unknown-fields`; the
 *   dropped paths (`spec.foo`, `spec.items[0].bar`), sorted as strings, become the strict decoding
 *   errors (customresource_handler.go schemaCoercingDecoder: `unknown field "spec.foo"`);
 * - nulls (schema/defaulting/prunenulls.go PruneNonNullableNullsWithoutDefaults): a null where
 *   the schema is not `nullable` and has no default is dropped;
 * - defaulting (schema/defaulting/algorithm.go Default): an absent (or non-nullable null) property
 *   with a `default` gets a copy of it, then its own properties are defaulted;
 * - validation (pkg/apiserver/validation/validation.go over k8s.io/kube-openapi
 *   pkg/validation/validate): type, format-as-type, enum, required, minimum/maximum (exclusive),
 *   multipleOf, minLength/maxLength/pattern, minItems/maxItems/uniqueItems,
 *   minProperties/maxProperties, allOf, nullable and `x-kubernetes-int-or-string`, with the
 *   texts of kube-openapi's errors/schema.go turned into field errors by
 *   kubeOpenAPIResultToFieldErrors.
 *
 * Not evaluated: CEL `x-kubernetes-validations`, anyOf/oneOf/not, string formats (date-time,
 * …), list-type/map-type uniqueness and validation ratcheting on update.
 */
import { field, type FieldError } from './errors.js';
import { schemaComponents, type Schema } from './openapi/schema.js';

/** apiextensions v1 JSONSchemaProps, as far as this module reads it. */
export interface JSONSchemaProps {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, JSONSchemaProps>;
  items?: JSONSchemaProps;
  additionalProperties?: JSONSchemaProps | boolean;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-validations'?: unknown[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
}

type Json = unknown;
type JsonObject = Record<string, Json>;

const isObject = (v: Json): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/** The schema an additionalProperties entry gives its values, or undefined. */
function additional(s: JSONSchemaProps): JSONSchemaProps | undefined {
  const a = s.additionalProperties;
  if (a === undefined || a === false) return undefined;
  return a === true ? {} : a;
}

// -----------------------------------------------------------------------------------------------
// Pruning

function joinKey(parent: string, key: string): string {
  return parent ? `${parent}.${key}` : key;
}

function prune(x: Json, s: JSONSchemaProps | undefined, path: string, root: boolean, out: string[]): void {
  if (s?.['x-kubernetes-preserve-unknown-fields']) {
    skipPrune(x, s, path, root, out);
    return;
  }
  const embedded = root || s?.['x-kubernetes-embedded-resource'] === true;
  if (isObject(x)) {
    for (const k of Object.keys(x)) {
      if (embedded && META_FIELDS.has(k)) continue;
      const prop = s?.properties && Object.prototype.hasOwnProperty.call(s.properties, k) ? s.properties[k] : undefined;
      const add = s ? additional(s) : undefined;
      if (prop) prune(x[k], prop, joinKey(path, k), false, out);
      else if (add) prune(x[k], add, joinKey(path, k), false, out);
      else {
        out.push(joinKey(path, k));
        delete x[k];
      }
    }
  } else if (Array.isArray(x)) {
    x.forEach((v, i) => prune(v, s?.items, `${path}[${i}]`, false, out));
  }
}

function skipPrune(x: Json, s: JSONSchemaProps, path: string, root: boolean, out: string[]): void {
  const embedded = root || s['x-kubernetes-embedded-resource'] === true;
  if (isObject(x)) {
    for (const k of Object.keys(x)) {
      if (embedded && META_FIELDS.has(k)) continue;
      const prop = s.properties && Object.prototype.hasOwnProperty.call(s.properties, k) ? s.properties[k] : undefined;
      const add = additional(s);
      if (prop) prune(x[k], prop, joinKey(path, k), false, out);
      else if (add && typeof s.additionalProperties === 'object') prune(x[k], add, joinKey(path, k), false, out);
    }
  } else if (Array.isArray(x) && s.items) x.forEach((v, i) => skipPrune(v, s.items!, `${path}[${i}]`, false, out));
}

/**
 * Drop what the schema does not declare from a custom resource (in place) and return the dropped
 * paths, sorted as Go's sort.Strings does. apiVersion, kind and metadata at the root are kept.
 */
export function pruneUnknownFields(obj: JsonObject, schema: JSONSchemaProps | undefined): string[] {
  const out: string[] = [];
  prune(obj, schema ?? {}, '', true, out);
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Whether a null here is dropped: the schema is neither nullable nor defaulted. */
function isNonNullableNull(v: Json, s: JSONSchemaProps | undefined): boolean {
  return v === null && s !== undefined && s.nullable !== true;
}

/** prunenulls.go PruneNonNullableNullsWithoutDefaults (in place). */
export function pruneNonNullableNulls(x: Json, s: JSONSchemaProps | undefined): void {
  if (!s) return;
  if (isObject(x)) {
    for (const k of Object.keys(x)) {
      const prop = s.properties?.[k] ?? additional(s);
      if (!prop) continue;
      if (x[k] === null && prop.nullable !== true && prop.default === undefined) delete x[k];
      else pruneNonNullableNulls(x[k], prop);
    }
  } else if (Array.isArray(x)) x.forEach((v) => pruneNonNullableNulls(v, s.items));
}

/** defaulting/algorithm.go Default (in place). */
export function applySchemaDefaults(x: Json, s: JSONSchemaProps | undefined): void {
  if (!s) return;
  if (isObject(x)) {
    for (const [k, prop] of Object.entries(s.properties ?? {})) {
      if (prop.default === undefined) continue;
      if (!(k in x) || isNonNullableNull(x[k], prop)) x[k] = structuredClone(prop.default);
    }
    const add = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
    for (const k of Object.keys(x)) {
      const prop = s.properties?.[k];
      if (prop) applySchemaDefaults(x[k], prop);
      else if (add) {
        if (isNonNullableNull(x[k], add) && add.default !== undefined) x[k] = structuredClone(add.default);
        applySchemaDefaults(x[k], add);
      }
    }
  } else if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      if (isNonNullableNull(x[i], s.items) && s.items?.default !== undefined) x[i] = structuredClone(s.items.default);
      applySchemaDefaults(x[i], s.items);
    }
  }
}

// -----------------------------------------------------------------------------------------------
// Validation

/** The JSON type kube-openapi's typeValidator infers from a decoded value (schemaInfoForType). */
function schemaType(v: Json): { type: string; format: string } {
  if (typeof v === 'string') return { type: 'string', format: '' };
  if (typeof v === 'boolean') return { type: 'boolean', format: '' };
  if (typeof v === 'number') return Number.isInteger(v) ? { type: 'integer', format: 'int64' } : { type: 'number', format: 'float64' };
  if (Array.isArray(v)) return { type: 'array', format: '' };
  return { type: 'object', format: '' };
}

/** Go's %v of a float64 (strconv 'g' with the shortest representation). */
function goFloat(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const s = String(n);
  return s.replace(/e([+-])(\d)$/, 'e$10$2');
}

/** Go's %v of an []interface{} enum: `[a b 1]`. */
function goSlice(vs: readonly Json[]): string {
  const one = (v: Json): string => {
    if (typeof v === 'string') return v;
    if (typeof v === 'number') return goFloat(v);
    if (typeof v === 'boolean' || v === null) return String(v ?? '<nil>');
    if (Array.isArray(v)) return goSlice(v);
    return `map[${Object.keys(v as JsonObject).sort().map((k) => `${k}:${one((v as JsonObject)[k])}`).join(' ')}]`;
  };
  return `[${vs.map(one).join(' ')}]`;
}

interface Err {
  code: 'type' | 'required' | 'enum' | 'tooLong' | 'maxItems' | 'maxProperties' | 'other';
  name: string;
  value?: Json;
  valid?: number;
  values?: readonly Json[];
  message: string;
}

const IN = 'body';

function typeValidate(data: Json, s: JSONSchemaProps, types: string[], path: string): Err | undefined {
  if (types.length === 0 && !s.format) return undefined;
  if (data === null) {
    if (types.length > 0 && !types.includes('null') && s.nullable !== true)
      return { code: 'type', name: path, value: 'null', message: `${path} in ${IN} must be of type ${types.join(',')}: "null"` };
    return undefined;
  }
  const { type, format } = schemaType(data);
  const isString = typeof data === 'string';
  const isSlice = Array.isArray(data);
  const isIntFloat = type === 'integer' && types.includes('number');
  const isLowerInt = s.format === 'int64' && format === 'int32';
  if (!isString && !isSlice && s.format && !(types.includes(type) || format === s.format || isIntFloat || isLowerInt))
    return { code: 'type', name: path, value: format, message: `${path} in ${IN} must be of type ${s.format}: ${JSON.stringify(format)}` };
  if (!(types.includes('number') || types.includes('integer')) && s.format && (isString || isSlice)) return undefined;
  if (!(types.includes(type) || isIntFloat))
    return { code: 'type', name: path, value: type, message: `${path} in ${IN} must be of type ${types.join(',')}: ${JSON.stringify(type)}` };
  return undefined;
}

function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as Json[]).length && a.every((x, i) => deepEqual(x, (b as Json[])[i]));
  const ka = Object.keys(a as JsonObject);
  const kb = Object.keys(b as JsonObject);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as JsonObject)[k], (b as JsonObject)[k]));
}

function enumValidate(data: Json, s: JSONSchemaProps, path: string): Err | undefined {
  if (!s.enum || s.enum.length === 0) return undefined;
  if (s.enum.some((e) => deepEqual(e, data))) return undefined;
  return { code: 'enum', name: path, value: data, values: s.enum, message: `${path} in ${IN} should be one of ${goSlice(s.enum)}` };
}

/** Go regexp (RE2) patterns as JavaScript ones: the syntax CRD authors use is shared. */
function compilePattern(p: string): RegExp | string {
  try {
    return new RegExp(p, 'u');
  } catch (e) {
    return (e as Error).message;
  }
}

function stringValidate(data: string, s: JSONSchemaProps, path: string): Err | undefined {
  const len = [...data].length;
  if (s.maxLength !== undefined && len > s.maxLength)
    return { code: 'tooLong', name: path, value: data, valid: s.maxLength, message: `${path} in ${IN} should be at most ${s.maxLength} chars long` };
  if (s.minLength !== undefined && len < s.minLength) return { code: 'other', name: path, value: data, message: `${path} in ${IN} should be at least ${s.minLength} chars long` };
  if (s.pattern !== undefined) {
    const re = compilePattern(s.pattern);
    if (typeof re === 'string') return { code: 'other', name: path, value: data, message: `${path} in ${IN} should match '${s.pattern}, but pattern is invalid: ${re}'` };
    if (!re.test(data)) return { code: 'other', name: path, value: data, message: `${path} in ${IN} should match '${s.pattern}'` };
  }
  return undefined;
}

function numberValidate(data: number, s: JSONSchemaProps, path: string): Err[] {
  const errs: Err[] = [];
  if (s.multipleOf !== undefined && s.multipleOf !== 0) {
    const q = data / s.multipleOf;
    if (Math.abs(q - Math.round(q)) > 1e-9) errs.push({ code: 'other', name: path, value: data, message: `${path} in ${IN} should be a multiple of ${goFloat(s.multipleOf)}` });
  }
  if (s.minimum !== undefined && (s.exclusiveMinimum ? data <= s.minimum : data < s.minimum))
    errs.push({ code: 'other', name: path, value: data, message: `${path} in ${IN} should be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${goFloat(s.minimum)}` });
  if (s.maximum !== undefined && (s.exclusiveMaximum ? data >= s.maximum : data > s.maximum))
    errs.push({ code: 'other', name: path, value: data, message: `${path} in ${IN} should be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${goFloat(s.maximum)}` });
  return errs;
}

function sliceValidate(data: Json[], s: JSONSchemaProps, path: string, errs: Err[]): void {
  if (s.items) data.forEach((v, i) => validateValue(v, s.items!, `${path}[${i}]`, errs));
  if (s.minItems !== undefined && data.length < s.minItems) errs.push({ code: 'other', name: path, value: data.length, message: `${path} in ${IN} should have at least ${s.minItems} items` });
  if (s.maxItems !== undefined && data.length > s.maxItems)
    errs.push({ code: 'maxItems', name: path, value: data.length, valid: s.maxItems, message: `${path} in ${IN} should have at most ${s.maxItems} items` });
  if (s.uniqueItems && data.some((v, i) => data.findIndex((w) => deepEqual(v, w)) !== i)) errs.push({ code: 'other', name: path, message: `${path} in ${IN} shouldn't contain duplicates` });
}

function objectValidate(data: JsonObject, s: JSONSchemaProps, path: string, errs: Err[]): void {
  const n = Object.keys(data).length;
  if (s.minProperties !== undefined && n < s.minProperties) errs.push({ code: 'other', name: path, value: n, message: `${path} in ${IN} should have at least ${s.minProperties} properties` });
  if (s.maxProperties !== undefined && n > s.maxProperties)
    errs.push({ code: 'maxProperties', name: path, value: n, valid: s.maxProperties, message: `${path} in ${IN} should have at most ${s.maxProperties} properties` });
  const props = s.properties ?? {};
  const add = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
  if (add) for (const k of Object.keys(data)) if (!Object.prototype.hasOwnProperty.call(props, k)) validateValue(data[k], add, `${path}.${k}`, errs);
  for (const [k, p] of Object.entries(props)) if (k in data) validateValue(data[k], p, path ? `${path}.${k}` : k, errs);
  for (const k of s.required ?? []) if (!(k in data)) errs.push({ code: 'required', name: `${path}.${k}`, message: `${path}.${k} in ${IN} is required` });
}

/** SchemaValidator.Validate: the validators in kube-openapi's order, each where it applies. */
function validateValue(data: Json, s: JSONSchemaProps, path: string, errs: Err[]): void {
  const types = s['x-kubernetes-int-or-string'] ? ['integer', 'string'] : s.type ? [s.type] : [];
  const t = typeValidate(data, s, types, path);
  if (t) errs.push(t);
  if (data === null) {
    const e = enumValidate(data, s, path);
    if (e) errs.push(e);
    return;
  }
  for (const sub of s.allOf ?? []) validateValue(data, sub, path, errs);
  if (typeof data === 'string') {
    const e = stringValidate(data, s, path);
    if (e) errs.push(e);
  }
  if (typeof data === 'number') errs.push(...numberValidate(data, s, path));
  if (Array.isArray(data)) sliceValidate(data, s, path, errs);
  const e = enumValidate(data, s, path);
  if (e) errs.push(e);
  if (isObject(data)) objectValidate(data, s, path, errs);
}

function fieldPath(name: string): string {
  return name.startsWith('.') ? name.slice(1) : name;
}

/** kubeOpenAPIResultToFieldErrors: each kube-openapi error as the field error the server returns. */
function toFieldError(e: Err): FieldError {
  const f = fieldPath(e.name);
  switch (e.code) {
    case 'required':
      return field.required(f);
    case 'enum':
      return field.notSupported(f, e.value, (e.values ?? []).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))), true);
    case 'tooLong':
      return { field: f, body: `Too long: may not be more than ${e.valid} ${e.valid === 1 ? 'byte' : 'bytes'}` };
    case 'maxItems':
    case 'maxProperties':
      return { field: f, body: `Too many: ${String(e.value)}: must have at most ${e.valid} ${e.valid === 1 ? 'item' : 'items'}` };
    default:
      return field.invalid(f, e.value ?? '', e.message);
  }
}

/**
 * Validate a custom resource (pruned and defaulted) against its schema; the field errors in
 * kube-apiserver's wording, e.g. `spec.replicas: Invalid value: "string": spec.replicas in body
 * must be of type integer: "string"`.
 */
export function validateCustomResource(obj: Json, schema: JSONSchemaProps | undefined): FieldError[] {
  if (!schema) return [];
  const errs: Err[] = [];
  validateValue(obj, schema, '', errs);
  return errs.map(toFieldError);
}

// -----------------------------------------------------------------------------------------------
// The published OpenAPI v3 schema (what `kubectl explain` reads)

const TYPE_META_OBJECT = 'io.k8s.api.core.v1.Pod';
const OBJECT_META_REF = '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const METADATA_DESCRIPTION = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

function toOpenAPI(s: JSONSchemaProps): Schema {
  const out: Schema = {};
  if (s.description !== undefined) out.description = s.description;
  if (s.type !== undefined) out.type = s.type;
  if (s.format !== undefined) out.format = s.format;
  if (s.properties) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, toOpenAPI(v)]));
  if (s.required) out.required = [...s.required];
  if (s.items) out.items = toOpenAPI(s.items);
  if (typeof s.additionalProperties === 'object') out.additionalProperties = toOpenAPI(s.additionalProperties);
  if (s.allOf) out.allOf = s.allOf.map(toOpenAPI);
  if (s.enum) out.enum = s.enum.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  return out;
}

/**
 * The schema of a CRD version as the server publishes it in /openapi/v3
 * (apiextensions-apiserver pkg/controller/openapi/builder/builder.go buildKubeNative): the
 * structural schema with `metadata` a reference to ObjectMeta and TypeMeta's apiVersion and kind.
 * A version without a schema is a bare object.
 */
export function publishedSchema(schema: JSONSchemaProps | undefined): Schema {
  if (!schema) return { type: 'object' };
  const out = toOpenAPI(schema);
  const typeMeta = schemaComponents()[TYPE_META_OBJECT]?.properties ?? {};
  out.properties = { ...(out.properties ?? {}), metadata: { description: METADATA_DESCRIPTION, $ref: OBJECT_META_REF } };
  if (typeMeta['apiVersion']) out.properties['apiVersion'] = typeMeta['apiVersion'];
  if (typeMeta['kind']) out.properties['kind'] = typeMeta['kind'];
  return out;
}
