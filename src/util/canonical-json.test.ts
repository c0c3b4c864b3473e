/**
 * sameCanonicalJSON answers what comparing the two canonicalJSON texts answers, on every pair of a
 * set of values made to hit canonicalJSON's quirks (key order, undefined members and elements,
 * NaN and null, -0, nested arrays of different lengths, frozen shared subtrees).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJSON, sameCanonicalJSON } from './canonical-json.js';

const shared = Object.freeze({ type: 'Available', status: 'True' });
const values: unknown[] = [
  undefined, null, 0, -0, 1, '1', '', 'a', true, false, NaN, Infinity, () => 1,
  [], [undefined], [null], [undefined, undefined], [1, undefined], [undefined, 1], [[]], [[1]], [1, [2]], ['a,b'], ['a', 'b'],
  {}, { a: undefined }, { a: null }, { a: 1 }, { b: 1, a: 2 }, { a: 2, b: 1 }, { a: [] }, { a: [undefined] }, { a: { b: undefined } }, { a: { b: null } }, { 'a,b': 1 },
  { conditions: [shared], replicas: 2 }, { replicas: 2, conditions: [{ status: 'True', type: 'Available' }] }, { replicas: 2, conditions: [{ status: 'False', type: 'Available' }] },
  { replicas: 2, conditions: [shared, undefined] }, new Date(0),
];

test('sameCanonicalJSON is canonicalJSON text equality', () => {
  let same = 0;
  for (const a of values) {
    for (const b of values) {
      const want = canonicalJSON(a) === canonicalJSON(b);
      assert.equal(sameCanonicalJSON(a, b), want, `${canonicalJSON(a)} vs ${canonicalJSON(b)}`);
      if (want && a !== b) same++;
    }
  }
  // the set holds pairs that differ yet print alike (key order, NaN/null, [undefined]/[], …)
  assert.ok(same >= 8, String(same));
});
