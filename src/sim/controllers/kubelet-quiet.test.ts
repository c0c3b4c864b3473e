import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { ApiServer } from '../apiserver.js';
import type { Pod } from '../api/types.js';
import type { Cluster } from '../cluster.js';
import { podFs } from '../runtime/podfs.js';

/**
 * How many pods the kubelet syncs while `fn` runs: it brackets every pod's sync with two calls of
 * Cluster.earliestWakeAsked (kubelet.ts reconcile), and nothing else calls it.
 */
function podSyncs(c: Cluster, fn: () => void): number {
  const orig = c.earliestWakeAsked.bind(c);
  let calls = 0;
  c.earliestWakeAsked = (): number => {
    calls++;
    return orig();
  };
  try {
    fn();
  } finally {
    c.earliestWakeAsked = orig;
  }
  return calls / 2;
}

function withPods(): { c: Cluster; pods: Pod[] } {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  for (const name of ['a', 'b', 'c'])
    api.create<Pod>({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'web', image: 'nginx', readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 10 } }] } });
  c.advance(120_000);
  const pods = ['a', 'b', 'c'].map((n) => c.store.get<Pod>('Pod', 'default', n)!);
  for (const p of pods) assert.equal(p.status?.phase, 'Running');
  return { c, pods };
}

test('kubelet: a file written in one pod syncs that pod again, not every pod', () => {
  const { c, pods } = withPods();
  // every pod synced once more now (a host change), so none is due during the write below
  c.touchHosts();
  c.settle();
  const n = podSyncs(c, () => {
    podFs(c, `${pods[0]!.metadata.uid}/web`).write('/tmp/x', 'x\n');
    c.settle();
  });
  assert.equal(n, 1);
});

test("kubelet: another pod's restart does not sync the CoreDNS and kube-proxy pods again", () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create<Pod>({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'crash', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'sleep 20; exit 1'] }] } });
  c.advance(60_000);
  const n = podSyncs(c, () => c.advance(600_000));
  assert.ok((c.store.get<Pod>('Pod', 'default', 'crash')!.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 5, 'the container keeps crashing');
  // the crash pod's own exits, back-offs and starts: 36 syncs; when every kubelet wake-up synced
  // the two CoreDNS and three kube-proxy pods too, 63
  assert.ok(n <= 40, `${n} pod syncs in ten minutes`);
});
