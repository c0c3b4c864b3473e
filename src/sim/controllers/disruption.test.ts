import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { ApiServer } from '../apiserver.js';
import type { KObject, Pod } from '../api/types.js';
import type { PodDisruptionBudget } from './disruption.js';
import { nginxDeployment } from '../../testing/workloads.js';

const deployment = nginxDeployment;

function pdb(name: string, spec: PodDisruptionBudget['spec']): KObject {
  return { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name, namespace: 'default' }, spec } as KObject;
}

test('disruption controller status, as disruption.go computes it', () => {
  const cases: Array<{ name: string; spec: PodDisruptionBudget['spec']; replicas: number; ready: boolean; want: { expected: number; desired: number; healthy: number; allowed: number; reason: string } }> = [
    { name: 'minAvailable int counts the pods', spec: { minAvailable: 2 }, replicas: 3, ready: true, want: { expected: 3, desired: 2, healthy: 3, allowed: 1, reason: 'SufficientPods' } },
    { name: 'minAvailable percent rounds up over the scale', spec: { minAvailable: '50%' }, replicas: 3, ready: true, want: { expected: 3, desired: 2, healthy: 3, allowed: 1, reason: 'SufficientPods' } },
    { name: 'maxUnavailable int', spec: { maxUnavailable: 1 }, replicas: 3, ready: true, want: { expected: 3, desired: 2, healthy: 3, allowed: 1, reason: 'SufficientPods' } },
    { name: 'maxUnavailable percent rounds up', spec: { maxUnavailable: '10%' }, replicas: 3, ready: true, want: { expected: 3, desired: 2, healthy: 3, allowed: 1, reason: 'SufficientPods' } },
    { name: 'pods not ready are not healthy', spec: { minAvailable: 1 }, replicas: 2, ready: false, want: { expected: 2, desired: 1, healthy: 0, allowed: 0, reason: 'InsufficientPods' } },
    { name: 'a budget equal to the pods allows nothing', spec: { minAvailable: 3 }, replicas: 3, ready: true, want: { expected: 3, desired: 3, healthy: 3, allowed: 0, reason: 'InsufficientPods' } },
  ];
  for (const c0 of cases) {
    const c = loadFixture('kubeadm-calico');
    const api = new ApiServer(c);
    api.create(deployment('web', c0.replicas));
    if (c0.ready) c.advance(60_000);
    api.create(pdb('b', { ...c0.spec, selector: { matchLabels: { app: 'web' } } }));
    const st = c.store.get<PodDisruptionBudget>('PodDisruptionBudget', 'default', 'b')!.status!;
    assert.deepEqual(
      { expected: st.expectedPods, desired: st.desiredHealthy, healthy: st.currentHealthy, allowed: st.disruptionsAllowed, reason: st.conditions?.[0]?.reason },
      c0.want,
      c0.name,
    );
  }
});

test('an unmanaged pod under a percentage budget fails the sync', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'solo', namespace: 'default', labels: { app: 'solo' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } as Pod);
  api.create(pdb('b', { maxUnavailable: 1, selector: { matchLabels: { app: 'solo' } } }));
  const cond = c.store.get<PodDisruptionBudget>('PodDisruptionBudget', 'default', 'b')!.status!.conditions![0]!;
  assert.deepEqual([cond.status, cond.reason, cond.message], ['False', 'SyncFailed', 'found no controllers for pod "solo"']);
});

test('eviction: 429 at a spent budget, 500 with two budgets, and a success spends the budget', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create(deployment('web', 2));
  c.advance(60_000);
  api.create(pdb('b', { minAvailable: 1, selector: { matchLabels: { app: 'web' } } }));
  const pods = c.store.list<Pod>('Pod', 'default').filter((p) => p.metadata.labels?.['app'] === 'web');
  api.evict('default', pods[0]!.metadata.name);
  assert.equal(c.store.get<PodDisruptionBudget>('PodDisruptionBudget', 'default', 'b')!.status!.disruptionsAllowed, 0);
  assert.throws(() => api.evict('default', pods[1]!.metadata.name), (e: Error) => e.message === "Cannot evict pod as it would violate the pod's disruption budget.");
  api.create(pdb('b2', { minAvailable: 0, selector: { matchLabels: { app: 'web' } } }));
  assert.throws(() => api.evict('default', pods[1]!.metadata.name), /more than one PodDisruptionBudget/);
});
