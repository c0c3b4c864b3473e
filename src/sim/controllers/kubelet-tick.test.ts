/**
 * A pod due only because time moved (its probe workers' ticks, a wake-up it asked for) after a sync
 * that wrote nothing: the kubelet skips the volume pass when nothing can change it
 * (runtime/volumes.ts podVolumesSettled) and the status build when the containers step to the
 * statuses a sync of the same object found unchanged (kubelet.ts SAME_STATUS). Both must leave
 * exactly what the full sync leaves.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { podSyncs } from '../../testing/kubelet-syncs.js';
import { ApiServer } from '../apiserver.js';
import type { ConfigMap, Pod } from '../api/types.js';
import { Cluster } from '../cluster.js';
import { ManualClock } from '../../util/clock.js';
import { CONTROLLERS } from './index.js';
import { kubeletStatusBuilds } from './kubelet.js';
import { containerFs, volumeSyncPasses } from '../runtime/volumes.js';

/** How many times `counter` moved while `fn` ran. */
function delta(counter: () => number, fn: () => void): number {
  const before = counter();
  fn();
  return counter() - before;
}

/**
 * A settled cluster whose CoreDNS pods (a ConfigMap and a projected token volume each, a liveness
 * probe every 10 s) are quiet, beside a pod whose readiness probe fails every 5 s: its wake-ups run
 * the kubelet, which syncs the CoreDNS pods once their probe ticks have passed. Its own syncs record
 * an event each (never quiet), its status stays the same.
 */
function settled(): { c: Cluster; api: ApiServer } {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create<Pod>({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'noisy', namespace: 'default' },
    spec: { containers: [{ name: 'app', image: 'busybox', command: ['sleep', '86400'], readinessProbe: { exec: { command: ['cat', '/nope'] }, periodSeconds: 5 } }] },
  });
  c.advance(121_000);
  return { c, api };
}

const corefile = (c: Cluster, pod: Pod): string | undefined => containerFs(c, pod, 'coredns').tryRead('/etc/coredns/Corefile');

test('kubelet: the probe-tick syncs of quiet pods neither look at their volumes nor build their status again', () => {
  const { c } = settled();
  let syncs = 0;
  const volumes = delta(volumeSyncPasses, () => {
    const builds = delta(kubeletStatusBuilds, () => {
      syncs = podSyncs(c, () => c.advance(120_000));
    });
    // without the shortcuts: one of each per sync
    assert.equal(builds, 0);
  });
  // the noisy pod's 24 syncs look at its volumes (each wrote an event), the CoreDNS pods' do not
  assert.ok(syncs >= 40, `${syncs} pod syncs`);
  assert.ok(volumes <= 25, `${volumes} volume passes`);
});

test('kubelet: a ConfigMap change still reaches a probed pod at its periodic sync, between its probe ticks', () => {
  const { c, api } = settled();
  const dns = (): Pod => c.store.list<Pod>('Pod', 'kube-system').find((p) => p.metadata.labels?.['k8s-app'] === 'kube-dns')!;
  const cm = structuredClone(c.store.get<ConfigMap>('ConfigMap', 'kube-system', 'coredns')!);
  const text = `${cm.data!['Corefile']!}# changed\n`;
  cm.data = { ...cm.data, Corefile: text };
  api.update(cm);
  assert.notEqual(corefile(c, dns()), text, 'not before the periodic sync');
  // the volume waits for the pod's next periodic sync (a minute at most), probe ticks in between
  c.advance(61_000);
  assert.equal(corefile(c, dns()), text);
});

test("kubelet: a probe that starts failing between a quiet pod's ticks is still written", () => {
  const { c, api } = settled();
  api.create<Pod>({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'flaky', namespace: 'default' },
    spec: { containers: [{ name: 'app', image: 'busybox', command: ['sh', '-c', 'touch /tmp/ready; sleep 95; rm /tmp/ready; sleep 3600'], readinessProbe: { exec: { command: ['cat', '/tmp/ready'] }, periodSeconds: 10 } }] },
  });
  c.advance(60_000);
  const before = c.store.get<Pod>('Pod', 'default', 'flaky')!;
  assert.equal(before.status?.containerStatuses?.[0]?.ready, true);
  c.advance(120_000);
  const after = c.store.get<Pod>('Pod', 'default', 'flaky')!;
  assert.equal(after.status?.containerStatuses?.[0]?.ready, false);
  const ready = after.status?.conditions?.find((x) => x.type === 'Ready');
  assert.equal(ready?.status, 'False');
  assert.notEqual(ready?.lastTransitionTime, before.status?.conditions?.find((x) => x.type === 'Ready')?.lastTransitionTime);
});

test('kubelet: an exact copy goes on as its original does through the probe-tick shortcuts', () => {
  const { c } = settled();
  const copy = Cluster.restore(c.snapshot(), new ManualClock(c.now()), CONTROLLERS);
  copy.adoptControllerMemory(c.controllerMemory());
  // a fresh cluster of the same state without the kubelet's memory syncs every pod in full
  const fresh = Cluster.restore(c.snapshot(), new ManualClock(c.now()), CONTROLLERS);
  for (const x of [c, copy, fresh]) x.advance(300_000);
  assert.deepEqual(copy.snapshot(), c.snapshot());
  assert.deepEqual(fresh.snapshot(), c.snapshot());
});
