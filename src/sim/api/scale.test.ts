/** The scale subresource's Scale and its merge patch's decode error (sim/api/scale.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from './types.js';
import { customScale, customScaleErrors, scaleOf, scalePatchError, selectorString } from './scale.js';
import { ApiError } from './errors.js';

const selectors: { sel: Parameters<typeof selectorString>[0]; want: string }[] = [
  { sel: { matchLabels: { app: 'x' } }, want: 'app=x' },
  { sel: { matchLabels: { tier: 'web', app: 'x' } }, want: 'app=x,tier=web' },
  { sel: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'dev'] }, { key: 'a', operator: 'Exists' }] }, want: 'a,env in (dev,prod)' },
  { sel: { matchExpressions: [{ key: 'b', operator: 'DoesNotExist' }, { key: 'c', operator: 'NotIn', values: ['1'] }] }, want: '!b,c notin (1)' },
];
for (const tc of selectors) test(`LabelSelectorAsSelector: ${tc.want}`, () => assert.equal(selectorString(tc.sel), tc.want));

const deploy = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x', namespace: 'default', uid: 'u', resourceVersion: '7', creationTimestamp: '2026-01-01T00:00:00Z' }, spec: { replicas: 2, selector: { matchLabels: { app: 'x' } } }, status: { replicas: 2 } } as unknown as KObject;
const widget = { apiVersion: 'ex.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 4 }, status: { size: 3, sel: 'app=w' } } as unknown as KObject;

test('a Scale from a Deployment and from a custom resource’s paths', () => {
  assert.deepEqual(scaleOf(deploy, undefined), {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { name: 'x', namespace: 'default', uid: 'u', resourceVersion: '7', creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { replicas: 2 },
    status: { replicas: 2, selector: 'app=x' },
  });
  const s = scaleOf(widget, { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size', labelSelectorPath: '.status.sel' });
  assert.deepEqual([s.spec, s.status], [{ replicas: 4 }, { replicas: 3, selector: 'app=w' }]);
});

const patches: { replicas: number; want: string | undefined }[] = [
  { replicas: 2147483647, want: undefined },
  {
    replicas: 3000000000,
    want: 'patch: Invalid value: "{\\"apiVersion\\":\\"autoscaling/v1\\",\\"kind\\":\\"Scale\\",\\"metadata\\":{\\"name\\":\\"x\\",\\"namespace\\":\\"default\\",\\"uid\\":\\"u\\",\\"resourceVersion\\":\\"7\\",\\"creationTimestamp\\":\\"2026-01-01T00:00:00Z\\"},\\"spec\\":{\\"replicas\\":3000000000},\\"status\\":{\\"replicas\\":2,\\"selector\\":\\"app=x\\"}}": json: cannot unmarshal number 3000000000 into Go struct field ScaleSpec.spec.replicas of type int32',
  },
];
for (const tc of patches)
  test(`merge patch of ${tc.replicas} replicas`, () => {
    const e = scalePatchError(scaleOf(deploy, undefined), tc.replicas);
    if (tc.want === undefined) return assert.equal(e, undefined);
    assert.equal(e?.reason, 'Invalid');
    assert.deepEqual(e?.details && { kind: e.details.kind, name: e.details.name }, { kind: '', name: '' });
    assert.equal(e?.details?.causes.map((c) => `${c.field}: ${c.body}`).join('\n'), tc.want);
  });

/**
 * A custom resource's Scale (apiextensions-apiserver etcd.go scaleFromCustomResource): apimachinery
 * unstructured NestedInt64/NestedString/NestedFieldNoCopy accessor errors, %v and %T as Go prints
 * a value decoded from JSON, int32() narrowing, and whether the spec replicas were found.
 */
const PATHS = { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size', labelSelectorPath: '.status.sel' };
const cr = (spec: unknown, status: unknown = {}): KObject => ({ apiVersion: 'ex.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec, status }) as unknown as KObject;
const customCases: { name: string; obj: KObject; want: { spec?: number; status?: number; selector?: string; found: boolean } | string }[] = [
  { name: 'both counts and the selector', obj: cr({ size: 4 }, { size: 3, sel: 'app=w' }), want: { spec: 4, status: 3, selector: 'app=w', found: true } },
  { name: 'no spec replicas: 0, not found', obj: cr({}), want: { status: 0, found: false } },
  { name: 'null spec replicas: not found', obj: cr({ size: null }), want: { status: 0, found: false } },
  { name: 'no spec at all', obj: cr(undefined), want: { status: 0, found: false } },
  { name: 'int32() keeps the low 32 bits', obj: cr({ size: 5000000000 }), want: { spec: 705032704, status: 0, found: true } },
  { name: 'a string count', obj: cr({ size: 'abc' }), want: '.spec.size accessor error: abc is of the type string, expected int64' },
  { name: 'a fraction', obj: cr({ size: 2.5 }), want: '.spec.size accessor error: 2.5 is of the type float64, expected int64' },
  { name: 'a bool', obj: cr({ size: true }), want: '.spec.size accessor error: true is of the type bool, expected int64' },
  { name: 'a map', obj: cr({ size: { b: 1, a: 'x' } }), want: '.spec.size accessor error: map[a:x b:1] is of the type map[string]interface {}, expected int64' },
  { name: 'a list', obj: cr({ size: [1, 'a'] }), want: '.spec.size accessor error: [1 a] is of the type []interface {}, expected int64' },
  { name: 'spec is no map', obj: cr('x'), want: '.spec.size accessor error: x is of the type string, expected map[string]interface{}' },
  { name: 'a huge float status', obj: cr({ size: 1 }, { size: 1e20 }), want: '.status.size accessor error: 1e+20 is of the type float64, expected int64' },
  { name: 'a selector that is no string', obj: cr({ size: 1 }, { sel: { matchLabels: { app: 'w' } } }), want: '.status.sel accessor error: map[matchLabels:map[app:w]] is of the type map[string]interface {}, expected string' },
];
for (const tc of customCases)
  test(`scaleFromCustomResource: ${tc.name}`, () => {
    if (typeof tc.want === 'string') {
      assert.throws(
        () => customScale(tc.obj, PATHS),
        (e: unknown) => e instanceof ApiError && e.reason === '' && e.code === 500 && e.message === tc.want,
      );
      return;
    }
    const { scale, found } = customScale(tc.obj, PATHS);
    assert.deepEqual({ spec: scale.spec.replicas, status: scale.status.replicas, selector: scale.status.selector, found }, { spec: tc.want.spec, status: tc.want.status, selector: tc.want.selector, found: tc.want.found });
  });

/**
 * A custom resource's scale fields as its strategies validate them: apiextensions-apiserver
 * pkg/registry/customresource/validator.go (v1.35) ValidateScaleSpec and ValidateScaleStatus,
 * field.Invalid at the CRD's path with the leading dot, the value NestedInt64 returned (0 beside
 * an accessor error).
 */
const scaleErrCases: { name: string; obj: KObject; only?: 'status'; want: string[] }[] = [
  { name: 'valid counts and selector', obj: cr({ size: 4 }, { size: 3, sel: 'app=w' }), want: [] },
  { name: 'absent fields are no error', obj: cr({}), want: [] },
  { name: 'a negative spec count', obj: cr({ size: -1 }), want: ['.spec.size: Invalid value: -1: should be a non-negative integer'] },
  { name: 'a spec count beyond int32', obj: cr({ size: 2147483648 }), want: ['.spec.size: Invalid value: 2147483648: should be less than or equal to 2147483647'] },
  { name: 'a string spec count', obj: cr({ size: 'abc' }), want: ['.spec.size: Invalid value: 0: .spec.size accessor error: abc is of the type string, expected int64'] },
  { name: 'a negative status count', obj: cr({ size: 1 }, { size: -2 }), want: ['.status.size: Invalid value: -2: should be a non-negative integer'] },
  {
    name: 'a selector that is no string',
    obj: cr({ size: 1 }, { sel: 3 }),
    want: ['.status.sel: Invalid value: "": .status.sel accessor error: 3 is of the type int64, expected string'],
  },
  {
    name: 'spec and status both wrong, in validator order',
    obj: cr({ size: -1 }, { size: 2.5 }),
    want: ['.spec.size: Invalid value: -1: should be a non-negative integer', '.status.size: Invalid value: 0: .status.size accessor error: 2.5 is of the type float64, expected int64'],
  },
  { name: 'the status update checks no spec count', obj: cr({ size: -1 }, { size: -2 }), only: 'status', want: ['.status.size: Invalid value: -2: should be a non-negative integer'] },
];
for (const tc of scaleErrCases)
  test(`ValidateScaleSpec/Status: ${tc.name}`, () => {
    const errs = customScaleErrors(tc.obj, PATHS, tc.only ?? 'spec+status');
    assert.deepEqual(
      errs.map((e) => `${e.field}: ${e.body}`),
      tc.want,
    );
  });
