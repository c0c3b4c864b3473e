import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sortKeys, sortKeysShared } from './go-json.js';
import { deepFreeze } from './json-copy.js';

test('sortKeysShared: a frozen object is sorted once, its frozen copy shared; other values copied as sortKeys does', () => {
  const stored = { metadata: { name: 'a', labels: { z: '1', a: '2' } }, kind: 'Pod', spec: { x: undefined, list: [{ b: 1, a: 2 }] } };
  deepFreeze(stored);
  const first = sortKeysShared(stored);
  assert.deepEqual(first, sortKeys(stored));
  assert.equal(JSON.stringify(first), JSON.stringify(sortKeys(stored)));
  assert.ok(Object.isFrozen(first) && Object.isFrozen((first as { metadata: object }).metadata));
  // the second call hands back the same copy (the memo), not a new one
  assert.equal(sortKeysShared(stored), first);
  // a List wrapper built per call is copied, its frozen items taken from the memo
  const list = { kind: 'List', items: [stored] };
  const l = sortKeysShared(list) as { items: unknown[] };
  assert.equal(JSON.stringify(l), JSON.stringify(sortKeys(list)));
  assert.ok(!Object.isFrozen(l));
  assert.equal(l.items[0], first);
  // an unfrozen object is never remembered: a change shows at the next call
  const live: Record<string, unknown> = { b: 1, a: { d: 1, c: 2 } };
  assert.deepEqual(sortKeysShared(live), { a: { c: 2, d: 1 }, b: 1 });
  live['b'] = 3;
  assert.deepEqual(sortKeysShared(live), { a: { c: 2, d: 1 }, b: 3 });
  assert.equal(sortKeysShared('s'), 's');
  assert.equal(sortKeysShared(undefined), null);
});

test('sortKeysShared: a kept sorted copy is its own sorted copy, so a document built of such copies is not sorted again', () => {
  const stored = { metadata: { labels: { '10': 'a', '9': 'b', z: 'c' }, name: 'x' }, kind: 'Pod', spec: { b: [1, { d: 1, c: 2 }], a: null } };
  deepFreeze(stored);
  const first = sortKeysShared(stored);
  assert.equal(sortKeysShared(first), first, 'the copy itself, not a copy of it');
  assert.deepEqual(sortKeys(first), first);
  assert.deepEqual(Object.keys(sortKeys(first) as object), Object.keys(first as object));
  const doc = { items: [first], kind: 'List' };
  const again = sortKeysShared(doc) as { items: unknown[] };
  assert.equal(again.items[0], first);
  assert.deepEqual(again, sortKeys(doc));
});
