/**
 * documentFor (serialize.ts): what -o yaml/json/jsonpath print is the objects' keys sorted; a
 * stored (frozen) object's sorted copy is the one kept beside it, shared, never written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { documentFor, sortKeys } from './serialize.js';
import { sortKeysShared } from '../../util/go-json.js';
import { deepFreeze } from '../../util/json-copy.js';
import type { KObject } from '../../sim/api/types.js';

test('documentFor: a frozen object is printed from its kept sorted copy; managedFields dropped around it; an unfrozen one copied', () => {
  const obj = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c', namespace: 'd', managedFields: [{ manager: 'kubectl' }] }, data: { b: '2', a: '1' } } as unknown as KObject;
  deepFreeze(obj);
  const whole = documentFor([obj], false, { showManagedFields: true });
  assert.equal(whole, sortKeysShared(obj), 'the kept copy itself');
  assert.deepEqual(whole, sortKeys(obj));
  const shown = documentFor([obj], false) as { data: unknown; metadata: Record<string, unknown> };
  assert.deepEqual(shown, sortKeys({ ...obj, metadata: { name: 'c', namespace: 'd' } }));
  assert.equal(shown.data, sortKeysShared((obj as unknown as { data: unknown }).data), 'the frozen parts: their kept copies');
  assert.ok(!('managedFields' in shown.metadata));
  const list = documentFor([obj, obj], true, { showManagedFields: true }) as { items: unknown[] };
  assert.equal(list.items[0], whole);
  const loose = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'e' }, data: { y: '1', x: '2' } } as unknown as KObject;
  const copy = documentFor([loose], false);
  assert.deepEqual(copy, sortKeys(loose));
  assert.ok(!Object.isFrozen(copy));
});
