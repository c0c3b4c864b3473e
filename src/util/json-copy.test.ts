import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyJSON, toPlainJSON } from './json-copy.js';
import { fixtureSnapshot } from '../scenario/session.js';

const roundTrip = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

const CASES: { name: string; value: unknown }[] = [
  { name: 'undefined in an object is dropped', value: { a: undefined, b: 1 } },
  { name: 'undefined and functions in arrays become null', value: [undefined, () => 1, Symbol('x'), 2] },
  { name: 'non-finite numbers become null', value: { a: NaN, b: Infinity, c: -Infinity, d: -0 } },
  { name: 'toJSON is honoured with its key', value: { when: new Date(0), custom: { toJSON: (k: string) => `key=${k}` } } },
  { name: 'Maps and Sets become empty objects', value: { m: new Map([[1, 2]]), s: new Set([1]) } },
  { name: 'nested arrays and objects', value: { a: [{ b: [1, 'x', null, true] }], c: {} } },
  { name: 'key order is kept', value: { z: 1, a: 2, '1': 3 } },
];

for (const c of CASES)
  test(`toPlainJSON: ${c.name}`, () => {
    assert.deepEqual(toPlainJSON(c.value), roundTrip(c.value));
    assert.equal(JSON.stringify(toPlainJSON(c.value)), JSON.stringify(c.value));
  });

test('toPlainJSON and copyJSON of a fixture snapshot equal the JSON round trip, and the copy is independent', () => {
  const snap = fixtureSnapshot('kubeadm-calico', 1);
  assert.equal(JSON.stringify(toPlainJSON(snap)), JSON.stringify(snap));
  const copy = copyJSON(snap);
  assert.equal(JSON.stringify(copy), JSON.stringify(snap));
  copy.store.objects[0]!.metadata.name = 'changed';
  assert.notEqual(snap.store.objects[0]!.metadata.name, 'changed');
});
