/**
 * The resource check and objects being deleted: one that is Terminating no longer exists for the
 * check; it is absent only when it goes by itself, not while a finalizer holds it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CheckSchema } from '../schema.js';
import { evaluateCheck } from '../grade.js';
import { Session } from '../../shell/session.js';
import { loadFixture } from '../../testing/fixtures.js';
import type { CheckContext } from './types.js';

const exists = CheckSchema.parse({ id: 'e', description: 'd', kind: 'resource', target: { kind: 'ConfigMap', name: 'held' } });
const absent = CheckSchema.parse({ id: 'a', description: 'd', kind: 'resource', target: { kind: 'ConfigMap', name: 'held' }, absent: true });
const listAbsent = CheckSchema.parse({ id: 'l', description: 'd', kind: 'resource', target: { kind: 'ConfigMap', selector: 'hold=yes' }, absent: true });

test('a ConfigMap held by a finalizer: neither existing nor absent until the finalizer goes', async () => {
  const s = new Session(loadFixture('kubeadm-calico', 1));
  const ctx = (): CheckContext => ({ cluster: s.cluster, answers: {}, run: () => Promise.reject(new Error('no lines')) });
  const state = async (): Promise<[boolean, boolean, boolean]> => [(await evaluateCheck(exists, ctx())).ok, (await evaluateCheck(absent, ctx())).ok, (await evaluateCheck(listAbsent, ctx())).ok];
  for (const line of ['kubectl create cm held', 'kubectl label cm held hold=yes', `kubectl patch cm held -p '{"metadata":{"finalizers":["example.com/hold"]}}'`]) assert.equal((await s.exec(line)).exitCode, 0, line);
  assert.deepEqual(await state(), [true, false, false], 'live');
  assert.equal((await s.exec('kubectl delete cm held --wait=false')).exitCode, 0);
  assert.deepEqual(await state(), [false, false, false], 'Terminating, held');
  const out = await evaluateCheck(absent, ctx());
  assert.equal(out.actual, 'it is Terminating, held by a finalizer');
  assert.equal((await s.exec(`kubectl patch cm held -p '{"metadata":{"finalizers":null}}'`)).exitCode, 0);
  assert.deepEqual(await state(), [false, true, true], 'gone');
});
