/**
 * Custom resources against their CRD schema: pruning, nulls, defaults and kube-openapi's
 * validation texts (apiextensions-apiserver pkg/apiserver/validation/validation.go,
 * kube-openapi pkg/validation/errors/schema.go).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applySchemaDefaults, pruneNonNullableNulls, pruneUnknownFields, validateCustomResource, type JSONSchemaProps } from './crd-schema.js';

const root = (spec: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { spec } });

interface Case {
  name: string;
  schema: JSONSchemaProps;
  spec: unknown;
  want: string[];
}

const cases: Case[] = [
  { name: 'valid object', schema: { type: 'object', properties: { a: { type: 'string' } } }, spec: { a: 'x' }, want: [] },
  {
    name: 'string for integer',
    schema: { type: 'object', properties: { replicas: { type: 'integer' } } },
    spec: { replicas: '3' },
    want: ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"'],
  },
  { name: 'integer where number', schema: { type: 'object', properties: { r: { type: 'number' } } }, spec: { r: 3 }, want: [] },
  {
    name: 'float for integer',
    schema: { type: 'object', properties: { r: { type: 'integer' } } },
    spec: { r: 1.5 },
    want: ['spec.r: Invalid value: "number": spec.r in body must be of type integer: "number"'],
  },
  {
    name: 'object for string',
    schema: { type: 'object', properties: { image: { type: 'string' } } },
    spec: { image: { a: 1 } },
    want: ['spec.image: Invalid value: "object": spec.image in body must be of type string: "object"'],
  },
  {
    name: 'boolean for array',
    schema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } },
    spec: { tags: true },
    want: ['spec.tags: Invalid value: "boolean": spec.tags in body must be of type array: "boolean"'],
  },
  {
    name: 'item type in a list',
    schema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } },
    spec: { tags: ['a', 2] },
    want: ['spec.tags[1]: Invalid value: "integer": spec.tags[1] in body must be of type string: "integer"'],
  },
  {
    name: 'enum',
    schema: { type: 'object', properties: { mode: { type: 'string', enum: ['Fast', 'Slow'] } } },
    spec: { mode: 'Medium' },
    want: ['spec.mode: Unsupported value: "Medium": supported values: "Fast", "Slow"'],
  },
  {
    name: 'integer enum',
    schema: { type: 'object', properties: { n: { type: 'integer', enum: [1, 2] } } },
    spec: { n: 3 },
    want: ['spec.n: Unsupported value: 3: supported values: "1", "2"'],
  },
  { name: 'required', schema: { type: 'object', required: ['cronSpec'], properties: { cronSpec: { type: 'string' } } }, spec: {}, want: ['spec.cronSpec: Required value'] },
  {
    name: 'maximum',
    schema: { type: 'object', properties: { r: { type: 'integer', maximum: 10 } } },
    spec: { r: 20 },
    want: ['spec.r: Invalid value: 20: spec.r in body should be less than or equal to 10'],
  },
  {
    name: 'exclusive minimum',
    schema: { type: 'object', properties: { r: { type: 'integer', minimum: 1, exclusiveMinimum: true } } },
    spec: { r: 1 },
    want: ['spec.r: Invalid value: 1: spec.r in body should be greater than 1'],
  },
  {
    name: 'minimum and maximum both',
    schema: { type: 'object', properties: { r: { type: 'number', minimum: 0.5, maximum: 0 } } },
    spec: { r: 0.25 },
    want: ['spec.r: Invalid value: 0.25: spec.r in body should be greater than or equal to 0.5', 'spec.r: Invalid value: 0.25: spec.r in body should be less than or equal to 0'],
  },
  {
    name: 'pattern',
    schema: { type: 'object', properties: { s: { type: 'string', pattern: '^[a-z]+$' } } },
    spec: { s: 'ABC' },
    want: [`spec.s: Invalid value: "ABC": spec.s in body should match '^[a-z]+$'`],
  },
  { name: 'maxLength', schema: { type: 'object', properties: { s: { type: 'string', maxLength: 3 } } }, spec: { s: 'abcd' }, want: ['spec.s: Too long: may not be more than 3 bytes'] },
  { name: 'maxLength 1', schema: { type: 'object', properties: { s: { type: 'string', maxLength: 1 } } }, spec: { s: 'ab' }, want: ['spec.s: Too long: may not be more than 1 byte'] },
  { name: 'maxLength counts runes', schema: { type: 'object', properties: { s: { type: 'string', maxLength: 2 } } }, spec: { s: 'éé' }, want: [] },
  {
    name: 'minLength',
    schema: { type: 'object', properties: { s: { type: 'string', minLength: 3 } } },
    spec: { s: 'ab' },
    want: ['spec.s: Invalid value: "ab": spec.s in body should be at least 3 chars long'],
  },
  {
    name: 'maxItems',
    schema: { type: 'object', properties: { l: { type: 'array', maxItems: 2, items: { type: 'string' } } } },
    spec: { l: ['a', 'b', 'c'] },
    want: ['spec.l: Too many: 3: must have at most 2 items'],
  },
  {
    name: 'minItems',
    schema: { type: 'object', properties: { l: { type: 'array', minItems: 1, items: { type: 'string' } } } },
    spec: { l: [] },
    want: ['spec.l: Invalid value: 0: spec.l in body should have at least 1 items'],
  },
  {
    name: 'uniqueItems',
    schema: { type: 'object', properties: { l: { type: 'array', uniqueItems: true, items: { type: 'string' } } } },
    spec: { l: ['a', 'a'] },
    want: [`spec.l: Invalid value: "": spec.l in body shouldn't contain duplicates`],
  },
  { name: 'int-or-string takes a string', schema: { type: 'object', properties: { p: { 'x-kubernetes-int-or-string': true } } }, spec: { p: 'http' }, want: [] },
  { name: 'int-or-string takes an integer', schema: { type: 'object', properties: { p: { 'x-kubernetes-int-or-string': true } } }, spec: { p: 80 }, want: [] },
  {
    name: 'int-or-string refuses a boolean',
    schema: { type: 'object', properties: { p: { 'x-kubernetes-int-or-string': true } } },
    spec: { p: true },
    want: ['spec.p: Invalid value: "boolean": spec.p in body must be of type integer,string: "boolean"'],
  },
  { name: 'nullable null', schema: { type: 'object', properties: { s: { type: 'string', nullable: true } } }, spec: { s: null }, want: [] },
  {
    name: 'maxProperties',
    schema: { type: 'object', properties: { m: { type: 'object', maxProperties: 1, additionalProperties: { type: 'string' } } } },
    spec: { m: { a: 'x', b: 'y' } },
    want: ['spec.m: Too many: 2: must have at most 1 item'],
  },
  {
    name: 'additionalProperties values',
    schema: { type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' } } } },
    spec: { m: { a: 1 } },
    want: ['spec.m.a: Invalid value: "integer": spec.m.a in body must be of type string: "integer"'],
  },
  {
    name: 'format as the type of a number',
    schema: { type: 'object', properties: { t: { type: 'string', format: 'date-time' } } },
    spec: { t: 5 },
    want: ['spec.t: Invalid value: "int64": spec.t in body must be of type date-time: "int64"'],
  },
];

for (const c of cases) {
  test(`schema validation: ${c.name}`, () => {
    const got = validateCustomResource({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'x' }, spec: c.spec }, root(c.schema));
    assert.deepEqual(got.map((e) => `${e.field}: ${e.body}`), c.want);
  });
}

test('a required field at the root is reported without a leading dot', () => {
  const got = validateCustomResource({ apiVersion: 'a/v1', kind: 'K' }, { type: 'object', required: ['spec'], properties: { spec: { type: 'object' } } });
  assert.deepEqual(got.map((e) => `${e.field}: ${e.body}`), ['spec: Required value']);
});

const pruning: { name: string; schema: JSONSchemaProps; obj: Record<string, unknown>; pruned: string[]; left: Record<string, unknown> }[] = [
  {
    name: 'unknown spec fields, sorted',
    schema: root({ type: 'object', properties: { a: { type: 'string' } } }),
    obj: { apiVersion: 'x/v1', kind: 'K', metadata: { name: 'n' }, spec: { z: 1, a: 'x', b: 2 } },
    pruned: ['spec.b', 'spec.z'],
    left: { apiVersion: 'x/v1', kind: 'K', metadata: { name: 'n' }, spec: { a: 'x' } },
  },
  {
    name: 'inside list items',
    schema: root({ type: 'object', properties: { l: { type: 'array', items: { type: 'object', properties: { n: { type: 'string' } } } } } }),
    obj: { spec: { l: [{ n: 'a', q: 1 }, { r: 2 }] } },
    pruned: ['spec.l[0].q', 'spec.l[1].r'],
    left: { spec: { l: [{ n: 'a' }, {}] } },
  },
  {
    name: 'status without a schema',
    schema: root({ type: 'object' }),
    obj: { spec: {}, status: { ready: true } },
    pruned: ['status'],
    left: { spec: {} },
  },
  {
    name: 'preserve-unknown-fields keeps everything below it',
    schema: root({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'object', properties: { b: { type: 'string' } } } } }),
    obj: { spec: { any: { deep: 1 }, a: { b: 'x', c: 1 } } },
    pruned: ['spec.a.c'],
    left: { spec: { any: { deep: 1 }, a: { b: 'x' } } },
  },
  {
    name: 'map values by additionalProperties',
    schema: root({ type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'object', properties: { v: { type: 'string' } } } } } }),
    obj: { spec: { m: { k1: { v: 'a', w: 'b' } } } },
    pruned: ['spec.m.k1.w'],
    left: { spec: { m: { k1: { v: 'a' } } } },
  },
];

for (const c of pruning) {
  test(`pruning: ${c.name}`, () => {
    const obj = structuredClone(c.obj);
    assert.deepEqual(pruneUnknownFields(obj, c.schema), c.pruned);
    assert.deepEqual(obj, c.left);
  });
}

test('defaults fill absent fields and nested defaults; nulls drop unless nullable or defaulted', () => {
  const schema = root({
    type: 'object',
    properties: {
      replicas: { type: 'integer', default: 1 },
      policy: { type: 'object', default: {}, properties: { mode: { type: 'string', default: 'Fast' } } },
      image: { type: 'string' },
      note: { type: 'string', nullable: true },
      size: { type: 'integer', default: 5 },
    },
  });
  const obj: Record<string, unknown> = { spec: { image: null, note: null, size: null } };
  pruneNonNullableNulls(obj, schema);
  applySchemaDefaults(obj, schema);
  assert.deepEqual(obj, { spec: { note: null, size: 5, replicas: 1, policy: { mode: 'Fast' } } });
});
