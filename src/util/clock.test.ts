import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock, rfc3339 } from './clock.js';
import { Random, randString } from './random.js';

test('manual clock advances only when told', () => {
  const c = new ManualClock(1_000);
  c.advance(500);
  assert.equal(c.now(), 1_500);
  assert.equal(rfc3339(Date.UTC(2026, 0, 15, 10, 0, 0, 999)), '2026-01-15T10:00:00Z');
});

test('random source is deterministic per seed and restorable', () => {
  const a = new Random(42);
  const b = new Random(42);
  assert.deepEqual([a.nextU32(), a.nextU32()], [b.nextU32(), b.nextU32()]);
  const c = new Random(a.state());
  assert.equal(c.nextU32(), a.nextU32());
  assert.match(randString(new Random(1), 5), /^[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.notEqual(new Random(1).nextU32(), new Random(2).nextU32());
});
