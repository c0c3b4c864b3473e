/**
 * One etcd pin per kubeadm release (sim/kubeadm-pins.ts, from minikube's table of each release's
 * `kubeadm config images list`): the fixtures run what their kubeadm deployed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KUBEADM_PINS, clusterPins, minorPins } from './kubeadm-pins.js';
import { loadFixture } from '../testing/fixtures.js';
import type { Pod } from './api/types.js';

test('kubeadm pins: v1.34.0-1 etcd 3.6.4-0, v1.34.2+ 3.6.5-0, every recorded v1.35 3.6.6-0', () => {
  assert.equal(KUBEADM_PINS['v1.34.1']?.etcd, '3.6.4-0');
  assert.equal(KUBEADM_PINS['v1.34.10']?.etcd, '3.6.5-0');
  for (let p = 0; p <= 7; p++) assert.equal(KUBEADM_PINS[`v1.35.${p}`]?.etcd, '3.6.6-0');
  assert.equal(KUBEADM_PINS['v1.35.9'], undefined);
  assert.equal(minorPins(34)?.etcd, '3.6.5-0');
  assert.equal(minorPins(35)?.etcd, '3.6.6-0');
  assert.equal(minorPins(33), undefined);
  assert.equal(clusterPins('v1.35.9')?.etcd, '3.6.6-0');
  assert.equal(clusterPins('v1.34.1')?.etcd, '3.6.4-0');
});

for (const fixture of ['kubeadm-calico', 'kubeadm-calico-v134']) {
  test(`fixture ${fixture}: etcd runs its kubeadm's pin`, () => {
    const c = loadFixture(fixture, 1);
    const etcd = c.store.list<Pod>('Pod', 'kube-system').find((p) => p.metadata.labels?.['component'] === 'etcd');
    const version = c.store.list<Pod>('Pod', 'kube-system').find((p) => p.metadata.labels?.['component'] === 'kube-apiserver')?.spec.containers[0]?.image.split(':')[1];
    assert.ok(etcd && version);
    assert.equal(etcd.spec.containers[0]?.image, `registry.k8s.io/etcd:${clusterPins(version)!.etcd}`);
  });
}
