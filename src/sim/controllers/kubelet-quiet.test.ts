import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { podSyncs } from '../../testing/kubelet-syncs.js';
import { ApiServer } from '../apiserver.js';
import type { Pod } from '../api/types.js';
import { Cluster } from '../cluster.js';
import { ManualClock } from '../../util/clock.js';
import { CONTROLLERS } from './index.js';
import { podFs } from '../runtime/podfs.js';
import { provideNetTools } from '../runtime/net-tools.js';

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

/** The pods the kubelet syncs (not the static ones'), with the node each runs on. */
function kubeletPods(c: Cluster): Pod[] {
  return c.store.list<Pod>('Pod').filter((p) => p.spec.nodeName && !p.metadata.annotations?.['kubernetes.io/config.mirror']);
}

function isCoreDns(p: Pod): boolean {
  return p.metadata.labels?.['k8s-app'] === 'kube-dns';
}

test("kubelet: a file written on one node's host syncs that node's pods again, not every node's", () => {
  const { c } = withPods();
  const api = new ApiServer(c);
  // a script with a network tool reaches other hosts (a session hands the cluster its tools): it
  // follows every host's changes
  provideNetTools(c, { names: ['wget'], run: () => ({ stdout: '', stderr: '', exitCode: 0, elapsedMs: 0, files: [] }) });
  api.create<Pod>({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'poller', namespace: 'default' }, spec: { nodeName: 'cka-w2', containers: [{ name: 'p', image: 'busybox', command: ['sh', '-c', 'while true; do wget -qO- http://10.96.0.1; sleep 3600; done'] }] } });
  c.advance(60_000);
  c.touchHosts();
  c.settle();
  const pods = kubeletPods(c);
  // the pods that read cka-w1's files (its own) and those that may reach it over the network
  const reads = pods.filter((p) => p.spec.nodeName === 'cka-w1' || isCoreDns(p) || p.metadata.name === 'poller');
  assert.ok(pods.some((p) => p.spec.nodeName !== 'cka-w1' && !isCoreDns(p) && p.metadata.name !== 'poller'), 'pods on other nodes that read no other host');
  const n = podSyncs(c, () => {
    c.host('cka-w1')!.fs.write('/tmp/x', 'x\n');
    c.settle();
  });
  assert.equal(n, reads.length);
  // a touch that names no host (a unit, iptables, a module) still syncs every pod
  assert.equal(podSyncs(c, () => (c.touchHosts(), c.settle())), pods.length);
});

test("kubelet: a session copy's quiet pods follow its own hosts, as its original's do", () => {
  const { c } = withPods();
  c.touchHosts();
  c.settle();
  const copy = Cluster.restore(c.snapshot(), new ManualClock(c.now()), CONTROLLERS);
  copy.adoptControllerMemory(c.controllerMemory());
  const write = (x: Cluster): number =>
    podSyncs(x, () => {
      x.host('cka-w2')!.fs.write('/tmp/x', 'x\n');
      x.settle();
    });
  const onW2 = kubeletPods(c).filter((p) => p.spec.nodeName === 'cka-w2' || isCoreDns(p)).length;
  assert.equal(write(c), onW2);
  assert.equal(write(copy), onW2);
  // and the two go on alike
  c.advance(300_000);
  copy.advance(300_000);
  assert.deepEqual(copy.snapshot(), c.snapshot());
});

test('kubelet: a ConfigMap no pod refers to does not sync the pods again', () => {
  const { c, pods } = withPods();
  const api = new ApiServer(c);
  c.touchHosts();
  c.settle();
  const all = kubeletPods(c);
  const n = podSyncs(c, () => {
    // the kubelet runs (pod a changed) after a write to a ConfigMap none of the pods reads
    api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unrelated', namespace: 'default' }, data: { k: 'v' } });
    const a = structuredClone(c.store.get<Pod>('Pod', 'default', pods[0]!.metadata.name)!);
    a.metadata.labels = { ...a.metadata.labels, touched: 'yes' };
    c.write(a);
    c.settle();
  });
  // pod a, and the CoreDNS pods (their server reaches the network, which may read any object)
  assert.equal(n, 1 + all.filter(isCoreDns).length);
  assert.ok(n < all.length);
  // a ConfigMap a pod mounts syncs that pod (kube-proxy's, which its process also reads)
  const cm = structuredClone(c.store.get('ConfigMap', 'kube-system', 'kube-proxy')!);
  (cm as { data: Record<string, string> }).data['unused'] = 'x';
  const m = podSyncs(c, () => {
    c.write(cm);
    c.settle();
  });
  assert.equal(m, all.filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-proxy' || isCoreDns(p)).length);
});
