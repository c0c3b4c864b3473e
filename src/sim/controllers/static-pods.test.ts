import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import type { KEvent, Node, Pod } from '../api/types.js';
import { rebootNode, staticPods, staticPodsLostOnReboot } from '../node/runtime.js';
import { kubeletRunning } from '../controlplane.js';
import { mirrorPublishes, staticPodUid } from './static-pods.js';
import { Cluster } from '../cluster.js';
import { ManualClock } from '../../util/clock.js';
import { CONTROLLERS } from './index.js';
import { fnv32a } from './util.js';

const MANIFEST = '/etc/kubernetes/manifests/kube-scheduler.yaml';

function mirror(c: ReturnType<typeof loadFixture>): Pod {
  return c.store.get<Pod>('Pod', 'kube-system', 'kube-scheduler-cka-cp1')!;
}

// pkg/kubelet/pod/mirror_client.go, kubelet.go syncPod: a changed manifest is a new static pod
// (new config hash); the kubelet deletes the mirror pod of the old one and creates a new one
const edits: { name: string; edit: (text: string) => string; recreated: boolean }[] = [
  { name: 'a new flag', edit: (t) => t.replace('- --leader-elect=true', '- --leader-elect=true\n    - --v=2'), recreated: true },
  { name: 'a new label', edit: (t) => t.replace('tier: control-plane', 'tier: control-plane\n    team: blue'), recreated: true },
  { name: 'the same bytes written again', edit: (t) => t, recreated: false },
];

for (const tc of edits) {
  test(`static pod manifest edit: ${tc.name}`, () => {
    const c = loadFixture('kubeadm-calico');
    const cp = c.host('cka-cp1')!;
    const before = mirror(c);
    c.advance(60_000);
    const editedAt = c.now();
    cp.fs.write(MANIFEST, tc.edit(cp.fs.read(MANIFEST)));
    c.advance(30_000);
    const after = mirror(c);
    if (tc.recreated) {
      assert.notEqual(after.metadata.uid, before.metadata.uid);
      assert.equal(after.metadata.creationTimestamp, new Date(editedAt).toISOString().replace('.000Z', 'Z'));
      assert.notEqual(after.metadata.annotations?.['kubernetes.io/config.hash'], before.metadata.annotations?.['kubernetes.io/config.hash']);
    } else {
      assert.equal(after.metadata.uid, before.metadata.uid);
      assert.equal(after.metadata.creationTimestamp, before.metadata.creationTimestamp);
    }
  });
}

test('a restarted component logs the time it started, not the fixture time', () => {
  const c = loadFixture('kubeadm-calico');
  const cp = c.host('cka-cp1')!;
  const rt = () => Object.values(staticPods(c)['cka-cp1']!).find((r) => r.name === 'kube-scheduler')!;
  assert.match(rt().logs[0]!, /^I1127 06:00:00\.000000 /, 'started with the cluster');
  c.advance(60_000);
  cp.fs.write(MANIFEST, cp.fs.read(MANIFEST).replace('- --leader-elect=true', '- --leader-elect=true\n    - --v=2'));
  c.advance(30_000);
  const d = new Date(rt().since).toISOString();
  assert.match(rt().logs[0]!, new RegExp(`^I${d.slice(5, 7)}${d.slice(8, 10)} ${d.slice(11, 19).replace(/:/g, ':')}\\.000000 `));
  assert.ok(rt().since > Date.parse('2026-12-02T10:00:00Z'));
});

// pkg/kubelet/config/common.go applyDefaults: MD5 of the pod, then host:NODE and file:PATH
test('a static pod UID is 32 hex digits and differs per node for the same manifest', () => {
  const c = loadFixture('kubeadm-calico');
  const hash = mirror(c).metadata.annotations?.['kubernetes.io/config.hash'] ?? '';
  assert.match(hash, /^[0-9a-f]{32}$/);
  assert.equal(mirror(c).metadata.annotations?.['kubernetes.io/config.mirror'], hash);
  assert.notEqual(staticPodUid('x', 'cka-w1', '/etc/kubernetes/manifests/a.yaml'), staticPodUid('x', 'cka-w2', '/etc/kubernetes/manifests/a.yaml'));
});

test('a session saved with the old FNV config hash keeps its static pods running', () => {
  const c = loadFixture('kubeadm-calico');
  const cp = c.host('cka-cp1')!;
  const r = staticPods(c)['cka-cp1']![MANIFEST]!;
  const { since, containerId } = r;
  const legacy = fnv32a(cp.fs.read(MANIFEST)).toString(16);
  r.hash = legacy;
  const m = structuredClone(mirror(c));
  m.metadata.annotations = { ...m.metadata.annotations, 'kubernetes.io/config.hash': legacy, 'kubernetes.io/config.mirror': legacy };
  c.store.put(m);
  const uid = mirror(c).metadata.uid;
  // the controller looks at the manifests again when a host changes
  cp.fs.write('/tmp/touch', 'x');
  c.advance(60_000);
  const after = staticPods(c)['cka-cp1']![MANIFEST]!;
  assert.equal(after.hash, staticPodUid(cp.fs.read(MANIFEST), 'cka-cp1', MANIFEST));
  assert.equal(after.since, since);
  assert.equal(after.containerId, containerId);
  assert.equal(after.restarts, 0);
  assert.equal(mirror(c).metadata.uid, uid);
  assert.equal(mirror(c).metadata.annotations?.['kubernetes.io/config.mirror'], after.hash);
});

// pkg/kubelet/config/common.go: decoded with the API's defaults, the NoExecute toleration added;
// the ServiceAccount admission plugin skips mirror pods, and DefaultTolerationSeconds adds nothing
test('a mirror pod carries the kubelet file source defaults and no service account', () => {
  const spec = mirror(loadFixture('kubeadm-calico')).spec;
  assert.deepEqual(spec.tolerations, [{ operator: 'Exists', effect: 'NoExecute' }]);
  assert.equal(spec.serviceAccountName, undefined);
  assert.equal(spec.serviceAccount, undefined);
  assert.equal(spec.dnsPolicy, 'ClusterFirst');
  assert.equal(spec.restartPolicy, 'Always');
  assert.equal(spec.enableServiceLinks, true);
  assert.equal(spec.containers[0]!.terminationMessagePolicy, 'File');
  assert.equal(spec.containers[0]!.livenessProbe?.successThreshold, 1);
});

test('a reboot of the control-plane node: down for its boot, then every static pod runs again as the next attempt', () => {
  const c = loadFixture('kubeadm-calico');
  const cp = c.host('cka-cp1')!;
  const components = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'];
  const mirrors = (): Pod[] => components.map((n) => c.store.get<Pod>('Pod', 'kube-system', `${n}-cka-cp1`)!);
  const before = mirrors().map((p) => ({ id: p.status!.containerStatuses![0]!.containerID, restarts: p.status!.containerStatuses![0]!.restartCount }));
  const t0 = c.now();
  staticPodsLostOnReboot(c, 'cka-cp1', t0 + 40_000);
  rebootNode(c, cp, 40_000);
  c.advance(20_000);
  const during = [
    { name: 'the kubelet', got: kubeletRunning(cp), want: false },
    { name: 'containerd', got: cp.unitActive('containerd'), want: false },
    { name: 'the API server', got: c.state.apiserver?.up, want: false },
  ];
  for (const d of during) assert.equal(d.got, d.want, `${d.name} while the node boots`);
  c.advance(20_000);
  assert.equal(kubeletRunning(cp), true);
  assert.equal(c.state.apiserver?.up, true);
  mirrors().forEach((p, i) => {
    const cs = p.status!.containerStatuses![0]!;
    assert.equal(cs.restartCount, before[i]!.restarts + 1, components[i]);
    assert.notEqual(cs.containerID, before[i]!.id, `${components[i]}: a new container`);
    assert.deepEqual(cs.lastState.terminated && { reason: cs.lastState.terminated.reason, exitCode: cs.lastState.terminated.exitCode, containerID: cs.lastState.terminated.containerID }, { reason: 'Unknown', exitCode: 255, containerID: before[i]!.id }, components[i]);
    assert.equal(cs.state.running?.startedAt, new Date(t0 + 40_000).toISOString().replace('.000Z', 'Z'));
  });
  const node = c.store.get<Node>('Node', undefined, 'cka-cp1')!;
  assert.equal(node.status?.conditions?.find((x) => x.type === 'Ready')?.status, 'True', 'a 40 s boot is shorter than the grace period');
});

// An image the registry does not have fails to pull for a static pod as for any pod
// (image_manager.go EnsureImageExists): ErrImagePull, then ImagePullBackOff, no container.
// kubeadm-calico runs v1.35.9 and its pkgs.k8s.io serves v1.35 up to .9.
const images: { name: string; manifest: string; from: string; to: string; pulls: boolean }[] = [
  { name: 'a typo in the repository', manifest: 'kube-scheduler', from: 'kube-scheduler:', to: 'kube-schedulr:', pulls: false },
  { name: 'a patch that was never released', manifest: 'kube-controller-manager', from: ':v1.35.9', to: ':v1.35.99', pulls: false },
  { name: 'a minor the repositories do not serve', manifest: 'kube-scheduler', from: ':v1.35.9', to: ':v1.36.0', pulls: false },
  { name: 'an older patch of the same minor', manifest: 'kube-controller-manager', from: ':v1.35.9', to: ':v1.35.8', pulls: true },
  { name: 'a tag with a leading zero', manifest: 'kube-scheduler', from: ':v1.35.9', to: ':v1.35.08', pulls: false },
];

for (const tc of images) {
  test(`static pod image: ${tc.name} ${tc.pulls ? 'runs' : 'fails to pull'}`, () => {
    const c = loadFixture('kubeadm-calico');
    const cp = c.host('cka-cp1')!;
    const path = `/etc/kubernetes/manifests/${tc.manifest}.yaml`;
    const text = cp.fs.read(path);
    assert.ok(text.includes(tc.from));
    cp.fs.write(path, text.replace(tc.from, tc.to));
    const pod = (): Pod => c.store.get<Pod>('Pod', 'kube-system', `${tc.manifest}-cka-cp1`)!;
    const rt = () => staticPods(c)['cka-cp1']![path]!;
    c.advance(15_000); // the kubelet restarts an edited static pod after a short while
    const cs = () => pod().status!.containerStatuses![0]!;
    if (tc.pulls) {
      assert.ok(cs().state.running, JSON.stringify(cs().state));
      assert.equal(rt().pull, undefined);
      return;
    }
    const image = tc.to.startsWith(':') ? `registry.k8s.io/${tc.manifest}${tc.to}` : `registry.k8s.io/kube-schedulr:v1.35.9`;
    const err = `rpc error: code = NotFound desc = failed to pull and unpack image "${image}": failed to resolve reference "${image}": ${image}: not found`;
    assert.deepEqual(cs().state, { waiting: { reason: 'ErrImagePull', message: err } });
    assert.equal(cs().containerID, undefined);
    assert.equal(pod().status!.phase, 'Pending');
    assert.equal(rt().running || rt().exited, false, 'no container');
    c.advance(2_000);
    assert.deepEqual(cs().state, { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${image}": ErrImagePull: ${err}` } });
    assert.equal(cs().restartCount, 0);
    c.advance(10_000); // the 10 s back-off ends: another pull fails
    assert.equal(cs().state.waiting?.reason, 'ErrImagePull');
    assert.equal(rt().pull?.failures, 2);
    const events = c.store
      .list<KEvent>('Event', 'kube-system')
      .filter((e) => e.involvedObject.name === `${tc.manifest}-cka-cp1`)
      .map((e) => `${e.reason ?? ''}: ${e.message ?? ''}`);
    assert.deepEqual(events, [`Pulling: Pulling image "${image}"`, `Failed: Failed to pull image "${image}": ${err}`, 'Failed: Error: ErrImagePull', `BackOff: Back-off pulling image "${image}"`, 'Failed: Error: ImagePullBackOff']);
    // the manifest fixed: the component runs
    cp.fs.write(path, text);
    c.advance(16_000);
    assert.ok(cs().state.running);
  });
}

test('mirror pods of one manifest share its defaulted spec’s frozen parts, each with its own node', () => {
  const c = loadFixture('kubeadm-calico');
  const manifest = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: default\nspec:\n  containers:\n  - name: web\n    image: nginx\n';
  for (const h of ['cka-w1', 'cka-w2']) c.host(h)!.fs.write('/etc/kubernetes/manifests/web.yaml', manifest);
  c.advance(30_000);
  const [a, b] = ['cka-w1', 'cka-w2'].map((h) => c.store.get<Pod>('Pod', 'default', `web-${h}`)!);
  assert.ok(a && b, 'both mirror pods are published');
  assert.equal(a.spec.nodeName, 'cka-w1');
  assert.equal(b.spec.nodeName, 'cka-w2');
  assert.deepEqual({ ...a.spec, nodeName: '' }, { ...b.spec, nodeName: '' });
  assert.equal(a.spec.containers, b.spec.containers, 'made once, shared');
  assert.equal(a.spec.containers[0]!.terminationMessagePolicy, 'File', 'with the defaults');
});

test('a copy of a cluster skips the mirror publishes its original found unchanged, and publishes the same pods', () => {
  const a = loadFixture('kubeadm-calico');
  a.advance(60_000);
  const snap = a.snapshot();
  // the original and a copy both look again at every node's manifests (a host touch wakes static-pods)
  const b = Cluster.restore(snap, new ManualClock(snap.now), CONTROLLERS);
  a.touchHosts();
  a.advance(1_000);
  const { built, skipped } = mirrorPublishes;
  b.touchHosts();
  b.advance(1_000);
  assert.equal(mirrorPublishes.built, built, 'the copy builds no mirror pod its original found unchanged');
  assert.ok(mirrorPublishes.skipped > skipped);
  assert.deepEqual(b.store.list('Pod', 'kube-system'), a.store.list('Pod', 'kube-system'));
  assert.deepEqual(b.state.kubeletConditions, a.state.kubeletConditions);
  // a status patch that drops the kubelet's conditions is still undone in the copy (the cache's content differs)
  const m = b.store.get<Pod>('Pod', 'kube-system', 'kube-scheduler-cka-cp1')!;
  b.store.put({ ...m, status: { ...m.status, conditions: [] } });
  b.touchHosts();
  b.advance(1_000);
  assert.deepEqual(b.store.get<Pod>('Pod', 'kube-system', 'kube-scheduler-cka-cp1')!.status?.conditions, m.status?.conditions);
});
