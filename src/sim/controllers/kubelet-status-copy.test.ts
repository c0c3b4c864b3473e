import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { ApiServer } from '../apiserver.js';
import type { Pod } from '../api/types.js';

function twoContainers(): { c: ReturnType<typeof loadFixture>; api: ApiServer; get: () => Pod } {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create<Pod>({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'two', namespace: 'default' },
    spec: { containers: [{ name: 'web', image: 'nginx' }, { name: 'crash', image: 'busybox', command: ['sh', '-c', 'sleep 30; exit 1'] }] },
  });
  c.advance(10_000);
  return { c, api, get: () => c.store.get<Pod>('Pod', 'default', 'two')! };
}

test('kubelet: a status write shares the parts of the stored status it did not change (statusCopy)', () => {
  const { c, get } = twoContainers();
  const before = get();
  assert.equal(before.status?.containerStatuses?.[0]?.state.running !== undefined, true);
  const webState = before.status!.containerStatuses![0]!.state;
  // the second container exits: the kubelet writes the pod's status again
  c.advance(40_000);
  const after = get();
  assert.notEqual(after, before);
  assert.ok((after.status?.containerStatuses?.[1]?.restartCount ?? 0) >= 1 || after.status?.containerStatuses?.[1]?.lastState.terminated, 'the crash was written');
  // the running container's state is the stored object itself, not a copy of it
  assert.equal(after.status!.containerStatuses![0]!.state, webState);
  assert.ok(Object.isFrozen(after.status!.containerStatuses![1]));
});

test('kubelet: the terminal status and zero grace period of a deleted pod that finalizers keep share its spec', () => {
  const { c, api, get } = twoContainers();
  const p = get();
  api.update<Pod>({ ...p, metadata: { ...p.metadata, finalizers: ['example.com/keep'] } });
  c.advance(1_000);
  api.delete('Pod', 'default', 'two');
  const spec = get().spec;
  c.advance(60_000);
  const kept = get();
  assert.equal(kept.metadata.deletionGracePeriodSeconds, 0);
  assert.equal(kept.status?.phase, 'Failed');
  assert.ok(kept.status?.containerStatuses?.every((cs) => cs.state.terminated !== undefined));
  // terminatedPod and the grace period's write copy what they change, not the whole pod
  assert.equal(kept.spec, spec);
});
