/** The scale subresource's Scale and its merge patch's decode error (sim/api/scale.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from './types.js';
import { scaleOf, scalePatchError, selectorString } from './scale.js';

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
