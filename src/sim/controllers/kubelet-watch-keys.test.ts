/**
 * The kubelet's watch keys (kubelet.ts dynamicWatches): the ConfigMaps and Secrets the scheduled
 * pods refer to. They are a function of the pods' specs and namespaces, so a Pod write that keeps
 * every spec (a status write) hands back the answer it had, and a spec that names another object
 * changes it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { ApiServer } from '../apiserver.js';
import type { Pod } from '../api/types.js';
import { kubeletController } from './kubelet.js';

function withPods(): { c: ReturnType<typeof loadFixture>; api: ApiServer } {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  for (const [name, cm] of [['a', 'cfg-a'], ['b', 'cfg-b']] as const)
    api.create<Pod>({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default' },
      spec: { containers: [{ name: 'web', image: 'nginx', env: [{ name: 'X', valueFrom: { secretKeyRef: { name: `sec-${name}`, key: 'x' } } }] }], volumes: [{ name: 'v', configMap: { name: cm } }] },
    } as Pod);
  c.advance(60_000);
  return { c, api };
}

test('kubelet watch keys: a status write to a pod keeps the very same answer', () => {
  const { c } = withPods();
  const before = kubeletController.dynamicWatches!(c);
  assert.ok(before.includes('ConfigMap@default/cfg-a') && before.includes('Secret@default/sec-b'), before.join(' '));
  const pod = c.store.get<Pod>('Pod', 'default', 'a')!;
  assert.ok(Object.isFrozen(pod.spec));
  // as the kubelet writes status: the stored spec is kept
  c.store.put<Pod>({ ...pod, status: { ...pod.status, message: 'touched' } });
  const after = kubeletController.dynamicWatches!(c);
  assert.equal(c.store.get<Pod>('Pod', 'default', 'a')!.status?.message, 'touched');
  // the same array, not one built again from every pod
  assert.strictEqual(after, before);
});

test('kubelet watch keys: a pod whose spec names another object, or that goes, changes the answer', () => {
  const { c } = withPods();
  const before = kubeletController.dynamicWatches!(c);
  const pod = c.store.get<Pod>('Pod', 'default', 'a')!;
  const spec = structuredClone(pod.spec);
  spec.volumes = [{ name: 'v', configMap: { name: 'cfg-other' } }];
  c.store.put<Pod>({ ...pod, spec });
  const after = kubeletController.dynamicWatches!(c);
  assert.ok(after.includes('ConfigMap@default/cfg-other') && !after.includes('ConfigMap@default/cfg-a'), after.join(' '));
  assert.ok(after.includes('Secret@default/sec-a') && after.includes('ConfigMap@default/cfg-b'));
  assert.notDeepEqual(after, before);
  c.store.remove('Pod', 'default', 'b');
  const gone = kubeletController.dynamicWatches!(c);
  assert.ok(!gone.includes('ConfigMap@default/cfg-b') && !gone.includes('Secret@default/sec-b'), gone.join(' '));
});
