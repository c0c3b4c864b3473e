import { test } from 'node:test';
import assert from 'node:assert/strict';
import { remember } from './bounded-map.js';

test('remember: a new key in a full map drops the oldest entry; a known key drops none', () => {
  const m = new Map<string, number>();
  assert.equal(remember(m, 'a', 1, 2), 1);
  remember(m, 'b', 2, 2);
  remember(m, 'c', 3, 2);
  assert.deepEqual([...m], [['b', 2], ['c', 3]]);
  remember(m, 'c', 4, 2);
  assert.deepEqual([...m], [['b', 2], ['c', 4]]);
});
