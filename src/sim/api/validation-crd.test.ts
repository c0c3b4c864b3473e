/**
 * A CustomResourceDefinition's scale subresource paths (sim/api/validation-crd.ts): apiextensions-
 * apiserver pkg/apis/apiextensions/validation/validation.go (v1.35)
 * ValidateCustomResourceDefinitionSubresources and validateSimpleJSONPath; subresources every
 * version shares are named at spec.subresources (the v1 → internal conversion moves them there,
 * pkg/apis/apiextensions/v1/conversion.go), else under the version.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateCrd } from './validation-crd.js';
import type { CustomResourceDefinition } from './crd.js';

const crd = (scales: (Record<string, string> | undefined)[]): CustomResourceDefinition =>
  ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.ex.com' },
    spec: {
      group: 'ex.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: scales.map((scale, i) => ({
        name: `v${i + 1}`,
        served: true,
        storage: i === 0,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        ...(scale ? { subresources: { scale } } : {}),
      })),
    },
  }) as unknown as CustomResourceDefinition;

const cases: { name: string; scales: (Record<string, string> | undefined)[]; want: string[] }[] = [
  { name: 'valid paths', scales: [{ specReplicasPath: '.spec.size', statusReplicasPath: '.status.size', labelSelectorPath: '.status.sel' }], want: [] },
  { name: 'a selector under .spec', scales: [{ specReplicasPath: '.spec.size', statusReplicasPath: '.status.size', labelSelectorPath: '.spec.sel' }], want: [] },
  {
    name: 'missing paths',
    scales: [{}],
    want: ['spec.subresources.scale.specReplicasPath: Required value', 'spec.subresources.scale.statusReplicasPath: Required value'],
  },
  {
    name: 'paths outside their place',
    scales: [{ specReplicasPath: '.status.size', statusReplicasPath: '.spec.size', labelSelectorPath: '.metadata.labels' }],
    want: [
      'spec.subresources.scale.specReplicasPath: Invalid value: ".status.size": should be a json path under .spec',
      'spec.subresources.scale.statusReplicasPath: Invalid value: ".spec.size": should be a json path under .status',
      'spec.subresources.scale.labelSelectorPath: Invalid value: ".metadata.labels": should be a json path under either .spec or .status',
    ],
  },
  {
    name: 'paths without the leading dot',
    scales: [{ specReplicasPath: 'spec.size', statusReplicasPath: '.status.size', labelSelectorPath: 'status.sel' }],
    want: [
      'spec.subresources.scale.specReplicasPath: Invalid value: "spec.size": must be a simple json path starting with .',
      'spec.subresources.scale.labelSelectorPath: Invalid value: "status.sel": must be a simple json path starting with .',
    ],
  },
  { name: 'the path itself is not under .spec', scales: [{ specReplicasPath: '.spec', statusReplicasPath: '.status.size' }], want: ['spec.subresources.scale.specReplicasPath: Invalid value: ".spec": should be a json path under .spec'] },
  {
    name: 'versions that differ are named each',
    scales: [{ specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' }, { specReplicasPath: 'size', statusReplicasPath: '.status.size' }],
    want: ['spec.versions[1].subresources.scale.specReplicasPath: Invalid value: "size": must be a simple json path starting with .'],
  },
];
for (const tc of cases)
  test(`ValidateCustomResourceDefinitionSubresources: ${tc.name}`, () => {
    assert.deepEqual(
      validateCrd(crd(tc.scales)).map((e) => `${e.field}: ${e.body}`),
      tc.want,
    );
  });

/**
 * Structural-schema and OpenAPI schema errors (validation.go validateCustomResourceDefinitionValidation,
 * pkg/apiserver/schema/validation.go validateStructuralInvariants, v1.35): named at
 * spec.validation.openAPIV3Schema when every version shares the schema, the structural ones sorted.
 */
const withSchemas = (schemas: unknown[]): CustomResourceDefinition => {
  const c = crd(schemas.map(() => undefined));
  c.spec.versions.forEach((v, i) => ((v as { schema?: unknown }).schema = { openAPIV3Schema: schemas[i] }));
  return c;
};
const schemaCases: { name: string; schemas: unknown[]; want: string[] }[] = [
  { name: 'a typed schema', schemas: [{ type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } }], want: [] },
  {
    name: 'types missing at the root, on a field and on items, sorted',
    schemas: [{ properties: { spec: { properties: { list: { type: 'array', items: {} } } } } }],
    want: [
      'spec.validation.openAPIV3Schema.properties[spec].properties[list].items.type: Required value: must not be empty for specified array items',
      'spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields',
      'spec.validation.openAPIV3Schema.type: Required value: must not be empty at the root',
    ],
  },
  { name: 'preserve-unknown-fields and int-or-string need no type', schemas: [{ type: 'object', properties: { a: { 'x-kubernetes-preserve-unknown-fields': true }, b: { 'x-kubernetes-int-or-string': true } } }], want: [] },
  { name: 'the root is an object', schemas: [{ type: 'string' }], want: ['spec.validation.openAPIV3Schema.type: Invalid value: "string": must be object at the root'] },
  {
    name: 'an unknown type',
    schemas: [{ type: 'object', properties: { size: { type: 'int' } } }],
    want: ['spec.validation.openAPIV3Schema.properties[size].type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string"'],
  },
  {
    name: 'properties beside additionalProperties, uniqueItems, preserve-unknown-fields false',
    schemas: [{ type: 'object', properties: { m: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } }, l: { type: 'array', uniqueItems: true, items: { type: 'string' } }, p: { type: 'object', 'x-kubernetes-preserve-unknown-fields': false } } }],
    want: [
      'spec.validation.openAPIV3Schema.properties[m].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive',
      'spec.validation.openAPIV3Schema.properties[l].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      'spec.validation.openAPIV3Schema.properties[p].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined',
    ],
  },
  {
    name: 'versions with different schemas are named each',
    schemas: [{ type: 'object' }, { type: 'object', properties: { a: {} } }],
    want: ['spec.versions[1].schema.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields'],
  },
];
for (const tc of schemaCases)
  test(`CRD schema: ${tc.name}`, () => {
    assert.deepEqual(
      validateCrd(withSchemas(tc.schemas)).map((e) => `${e.field}: ${e.body}`),
      tc.want,
    );
  });
