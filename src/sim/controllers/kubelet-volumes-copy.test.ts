/**
 * The kubelet's memory of volume contents in a session copy (runtime/volumes.ts SEEN, carried by
 * kubelet.ts Controller.memory): a copy does not rebuild the volumes its original found as they
 * were written, and still follows a source that changes in it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { ApiServer } from '../apiserver.js';
import type { ConfigMap, Pod } from '../api/types.js';
import { Cluster } from '../cluster.js';
import { ManualClock } from '../../util/clock.js';
import { CONTROLLERS } from './index.js';
import { freezeObjects } from '../api/store.js';
import { containerFs, imageRootFileBuilds, seenVolumes, volumeContentBuilds } from '../runtime/volumes.js';

/** The fixture with a running pod `web` that mounts ConfigMap `cfg` (mode: one) at /cfg. */
function webWithConfigMap(): { c: Cluster; api: ApiServer } {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'default' }, data: { mode: 'one' } } as ConfigMap);
  api.create<Pod>({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default' },
    spec: { containers: [{ name: 'c', image: 'nginx', volumeMounts: [{ name: 'cfg', mountPath: '/cfg' }] }], volumes: [{ name: 'cfg', configMap: { name: 'cfg' } }] },
  } as Pod);
  c.advance(120_000);
  return { c, api };
}

test("kubelet volumes: a session copy takes its original's look at each volume, and follows its own ConfigMap changes", () => {
  const { c } = webWithConfigMap();
  assert.equal(c.store.get<Pod>('Pod', 'default', 'web')!.status?.phase, 'Running');
  const copy = Cluster.restore(c.snapshot(), new ManualClock(c.now()), CONTROLLERS);
  copy.adoptControllerMemory(c.controllerMemory());
  // the pod changes in the copy (a label): the kubelet syncs it, and its volumes are as they were
  const before = volumeContentBuilds();
  const pod = structuredClone(copy.store.get<Pod>('Pod', 'default', 'web')!);
  pod.metadata.labels = { ...pod.metadata.labels, touched: 'yes' };
  copy.write(pod);
  copy.settle();
  assert.equal(volumeContentBuilds(), before, 'the copy built a volume its original had found unchanged');
  // the ConfigMap changes in the copy: its volume shows the new value by the next periodic sync
  const cm = structuredClone(copy.store.get<ConfigMap>('ConfigMap', 'default', 'cfg')!);
  cm.data = { mode: 'two' };
  copy.write(cm);
  copy.advance(61_000);
  const now = copy.store.get<Pod>('Pod', 'default', 'web')!;
  assert.equal(containerFs(copy, now, 'c').tryRead('/cfg/mode'), 'two');
  assert.equal(containerFs(c, c.store.get<Pod>('Pod', 'default', 'web')!, 'c').tryRead('/cfg/mode'), 'one');
});

test('kubelet volumes: a copy takes its original\'s looks when it first looks at a volume, and hands on what it has not looked at as it was', () => {
  const { c } = webWithConfigMap();
  const copyOf = (x: Cluster, memory = x.controllerMemory()): Cluster => {
    const y = Cluster.restore(x.snapshot(), new ManualClock(x.now()), CONTROLLERS);
    y.adoptControllerMemory(memory);
    return y;
  };
  const memory = c.controllerMemory();
  const saved = (memory.get('kubelet') as { volumes: ReturnType<typeof seenVolumes> }).volumes;
  assert.ok(saved.some(([k]) => k.endsWith('/cfg')), 'the original found its ConfigMap volume as written');
  // a copy that has looked at no volume hands on the very list it took (its copies share its map)
  const copy = copyOf(c, memory);
  assert.strictEqual(seenVolumes(copy), saved);
  // its copy takes the entries when the kubelet looks: a pod change syncs without a build
  const copy2 = copyOf(copy);
  const before = volumeContentBuilds();
  const pod = structuredClone(copy2.store.get<Pod>('Pod', 'default', 'web')!);
  pod.metadata.labels = { ...pod.metadata.labels, touched: 'yes' };
  copy2.write(pod);
  copy2.settle();
  assert.equal(volumeContentBuilds(), before, 'the copy of a copy built a volume its original had found unchanged');
  assert.deepEqual(seenVolumes(copy2).map(([k, s]) => [k, s.key, s.hash]), saved.map(([k, s]) => [k, s.key, s.hash]));
});

test("container files: an image's own files are built once, and read the same from every container", async () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  for (const name of ['a', 'b']) api.create<Pod>({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } as Pod);
  c.advance(60_000);
  const read = (name: string): string | undefined => containerFs(c, c.store.get<Pod>('Pod', 'default', name)!, 'c').tryRead('/etc/nginx/nginx.conf');
  const first = read('a');
  assert.match(first ?? '', /http \{/);
  const builds = imageRootFileBuilds();
  assert.equal(read('b'), first);
  assert.equal(read('a'), first);
  assert.equal(imageRootFileBuilds(), builds, 'the image files were built again');
});

test('kubelet volumes: a restore of a frozen snapshot without the memory does not rebuild the volumes built from the same objects', () => {
  const { c } = webWithConfigMap();
  // as a fixture's snapshot is kept: its objects frozen once, each restore sharing them
  const snap = c.snapshot();
  freezeObjects(snap.store);
  const restore = (): Cluster => {
    const x = Cluster.restore(snap, new ManualClock(c.now()), CONTROLLERS);
    // a restore has no memory of its kubelet: every pod is synced, every volume looked at
    x.touchHosts();
    x.settle();
    return x;
  };
  // the restores share the original's frozen pod and ConfigMap objects, whose volumes it built
  const before = volumeContentBuilds();
  restore();
  const x = restore();
  assert.equal(volumeContentBuilds(), before, 'a restore built a volume from the same pod and ConfigMap objects again');
  // and a ConfigMap changed in it is still seen
  const cm = structuredClone(x.store.get<ConfigMap>('ConfigMap', 'default', 'cfg')!);
  cm.data = { mode: 'two' };
  x.write(cm);
  x.advance(61_000);
  assert.equal(containerFs(x, x.store.get<Pod>('Pod', 'default', 'web')!, 'c').tryRead('/cfg/mode'), 'two');
});
