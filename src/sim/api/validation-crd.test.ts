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
