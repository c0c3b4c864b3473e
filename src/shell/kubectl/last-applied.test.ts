/**
 * The last-applied annotation records the object without itself, its keys sorted, as json.Marshal
 * writes it (last-applied.ts): annotations that held only it are left out, others (even one whose
 * members all print as nothing) stay.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../sim/api/types.js';
import { LAST_APPLIED, lastAppliedAnnotate } from './last-applied.js';

const recorded = (obj: KObject): string => {
  lastAppliedAnnotate(obj);
  return obj.metadata.annotations![LAST_APPLIED]!;
};

test('last-applied: sorted, without itself; its own stale value never recorded; the input unchanged but for it', () => {
  const cm = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c', annotations: { [LAST_APPLIED]: 'old', z: '1', a: '2' } }, data: { k: 'v' } } as unknown as KObject;
  assert.equal(recorded(cm), '{"apiVersion":"v1","data":{"k":"v"},"kind":"ConfigMap","metadata":{"annotations":{"a":"2","z":"1"},"name":"c"}}\n');
  assert.deepEqual(Object.keys(cm), ['kind', 'apiVersion', 'metadata', 'data']);
  assert.equal(cm.metadata.annotations!['z'], '1');
  // only the annotation itself: no annotations recorded; run twice, the same text
  const only = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c', annotations: { [LAST_APPLIED]: 'old' } } } as unknown as KObject;
  const first = recorded(only);
  assert.equal(first, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}\n');
  assert.equal(recorded(only), first);
  // a member that prints as nothing still makes the annotations non-empty (as a copy counted it)
  const odd = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c', annotations: { gone: undefined } } } as unknown as KObject;
  assert.equal(recorded(odd), '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"annotations":{},"name":"c"}}\n');
});
