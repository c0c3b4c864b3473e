import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podKeyBuilds, podPartKey } from './pod-keys.js';

test('podPartKey: a frozen container or volume keeps its key per uid; another uid or an unfrozen object builds anew', () => {
  const ct = Object.freeze({ name: 'web', image: 'nginx' });
  const before = podKeyBuilds();
  const k = podPartKey('uid-1', ct);
  assert.equal(k, 'uid-1/web');
  assert.equal(podPartKey('uid-1', ct), k);
  assert.equal(podPartKey('uid-1', ct), k);
  assert.equal(podKeyBuilds() - before, 1, 'built once for three looks');
  // the same spec object in another pod (replicas may share it): the other pod's key
  assert.equal(podPartKey('uid-2', ct), 'uid-2/web');
  assert.equal(podPartKey('uid-1', ct), 'uid-1/web');
  const loose = { name: 'data' };
  assert.equal(podPartKey('uid-1', loose), 'uid-1/data');
  loose.name = 'logs';
  assert.equal(podPartKey('uid-1', loose), 'uid-1/logs', 'an object that may change is not kept');
  assert.equal(podKeyBuilds() - before, 5);
});
