/**
 * metrics.ts remembers what a frozen (stored) container's command line does and which Services
 * its load loop hits, and reads an unfrozen one afresh.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Container } from './api/types.js';
import { deepFreeze } from '../util/json-copy.js';
import { commandWork, loadTargets } from './metrics.js';

const stress = (): Container => ({ name: 'c', image: 'polinux/stress', command: ['stress'], args: ['--cpu', '2', '--vm', '1', '--vm-bytes', '64M'] }) as Container;
const loader = (): Container => ({ name: 'l', image: 'busybox', command: ['sh', '-c', 'while true; do wget -q -O- http://web.shop; wget -q -O- http://api; done'] }) as Container;

test('commandWork: a frozen container answers once, the same as an unfrozen one', () => {
  const frozen = stress();
  deepFreeze(frozen);
  const first = commandWork(frozen);
  assert.deepEqual(first, { cpu: 2000, memory: 64 * 1024 * 1024 });
  assert.equal(commandWork(frozen), first, 'remembered');
  assert.deepEqual(commandWork(stress()), first);
  assert.notEqual(commandWork(stress()), commandWork(stress()), 'an unfrozen container is read afresh');
  // a container frozen on top with a command line that is not: read afresh
  const shallow = Object.freeze(stress());
  assert.notEqual(commandWork(shallow), commandWork(shallow));
});

test('loadTargets: remembered per frozen container and namespace', () => {
  const frozen = loader();
  deepFreeze(frozen);
  const first = loadTargets(frozen, 'default');
  assert.deepEqual(first, [{ name: 'web', namespace: 'shop' }, { name: 'api', namespace: 'default' }]);
  assert.equal(loadTargets(frozen, 'default'), first, 'remembered');
  assert.deepEqual(loadTargets(frozen, 'other'), [{ name: 'web', namespace: 'shop' }, { name: 'api', namespace: 'other' }], 'another namespace is read again');
  assert.deepEqual(loadTargets(loader(), 'default'), first);
});
