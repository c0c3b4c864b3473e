/**
 * runningFlags: the flags a control-plane component started with, as a map shared by every caller
 * (and every copy of the state) while its record is frozen; a record nobody froze gets a map of
 * its own each time, so a map can never go stale under a record changed in place.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../testing/fixtures.js';
import { runningFlags } from './controlplane.js';

test('runningFlags: one shared map per frozen record, equal to the record; a fresh one otherwise', () => {
  const c = loadFixture('kubeadm-calico', 1);
  c.snapshot();
  const saved = c.state.componentFlags!['kube-apiserver']!;
  assert.ok(Object.isFrozen(saved), 'a snapshot freezes the records');
  const a = runningFlags(c, 'kube-apiserver');
  assert.equal(runningFlags(c, 'kube-apiserver'), a, 'the same map again');
  assert.deepEqual(Object.fromEntries(a), { ...saved });
  assert.equal(a.get('service-cluster-ip-range'), saved['service-cluster-ip-range']);
  // a record replaced by an unfrozen one (a component started again) is read afresh each time
  const fresh = { ...saved, 'service-node-port-range': '30000-30100' };
  c.state.componentFlags!['kube-apiserver'] = fresh;
  const b = runningFlags(c, 'kube-apiserver');
  assert.equal(b.get('service-node-port-range'), '30000-30100');
  assert.notEqual(runningFlags(c, 'kube-apiserver'), b, 'not kept: the record could still change');
  fresh['service-node-port-range'] = '30000-30200';
  assert.equal(runningFlags(c, 'kube-apiserver').get('service-node-port-range'), '30000-30200');
});
