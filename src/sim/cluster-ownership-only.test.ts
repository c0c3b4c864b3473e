/**
 * A controller whose runs are decided by ownership alone (Controller.ownershipOnly: the garbage
 * collector) is not run again, after a run of it that changed nothing, by writes that change no
 * object's ownership (status, spec, data, labels, an Event's count) nor create an object of its
 * dependent kinds (Cluster.ownershipRest, Store.ownership, Store.created); it is left at the very
 * signature such a run would have left it at. An ownership change, a removal or a new dependent
 * runs it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../testing/fixtures.js';
import { Cluster, type Controller } from './cluster.js';
import { Store, sameOwnership } from './api/store.js';
import { garbageCollector } from './controllers/garbage-collector.js';
import { ManualClock } from '../util/clock.js';
import { Random } from '../util/random.js';
import type { KObject, Pod } from './api/types.js';

const pod = (name: string): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [] } }) as unknown as Pod;
const cm = (name: string): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: {} }) as KObject;

/** A status write as the kubelet makes it: the stored object's other members shared. */
const withStatus = (p: Pod, phase: string): Pod => ({ ...p, status: { phase } }) as Pod;

test('Store.ownership moves with ownership changes and removals, Store.created with new objects', () => {
  const s = new Store();
  const p = s.put(pod('a'));
  assert.equal(s.ownership, 0);
  assert.equal(s.created.get('Pod'), 1);
  const q = s.put(withStatus(p, 'Pending'));
  s.put({ ...q, spec: { ...q.spec, nodeName: 'n1' } });
  const r = s.get<Pod>('Pod', 'default', 'a')!;
  s.put({ ...r, metadata: { ...r.metadata, labels: { x: 'y' } } });
  assert.equal(s.ownership, 0, 'status, spec and labels');
  const refs = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u1' }];
  const t = s.get<Pod>('Pod', 'default', 'a')!;
  s.put({ ...t, metadata: { ...t.metadata, ownerReferences: refs } });
  assert.equal(s.ownership, 1, 'an owner reference');
  const u = s.get<Pod>('Pod', 'default', 'a')!;
  s.put(JSON.parse(JSON.stringify(u)) as Pod);
  assert.equal(s.ownership, 1, 'an equal copy of the references');
  const v = s.get<Pod>('Pod', 'default', 'a')!;
  s.put({ ...v, metadata: { ...v.metadata, finalizers: ['f'] } });
  assert.equal(s.ownership, 2, 'a finalizer');
  const w = s.get<Pod>('Pod', 'default', 'a')!;
  s.put({ ...w, metadata: { ...w.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } });
  assert.equal(s.ownership, 3, 'a deletionTimestamp');
  s.put({ ...cm('going'), metadata: { name: 'going', namespace: 'default', deletionTimestamp: '2026-01-01T00:00:00Z' } } as KObject);
  assert.equal(s.ownership, 4, 'a new object that is going');
  s.put(cm('c'));
  assert.equal(s.ownership, 4, 'a new object');
  assert.equal(s.created.get('ConfigMap'), 2);
  s.remove('Pod', 'default', 'a');
  assert.equal(s.ownership, 5, 'a removal');
  s.load({ resourceVersion: 5000, uidCounter: 0, objects: [] });
  assert.equal(s.ownership, 6, 'a load');
});

test('sameOwnership: uid, ownerReferences, deletionTimestamp, finalizers', () => {
  const m = { name: 'a', uid: 'u', ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'o' }], finalizers: ['f'], resourceVersion: '1' };
  assert.equal(sameOwnership(m, { ...m, resourceVersion: '2', labels: { a: 'b' } }), true);
  assert.equal(sameOwnership(m, { ...m, ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'o' }] }), true, 'equal references');
  assert.equal(sameOwnership(m, { ...m, ownerReferences: [] }), false);
  assert.equal(sameOwnership(m, { ...m, finalizers: [] }), false);
  assert.equal(sameOwnership(m, { ...m, uid: 'v' }), false);
  assert.equal(sameOwnership(m, { ...m, deletionTimestamp: 'now' }), false);
});

function cluster(ownershipOnly: boolean): { c: Cluster; runs: { n: number } } {
  const runs = { n: 0 };
  const controllers: Controller[] = [{ name: 'gc', watches: ['Pod', 'ConfigMap'], ...(ownershipOnly ? { ownershipOnly: { dependents: ['Pod'] } } : {}), reconcile: () => void runs.n++ }];
  const c = new Cluster({ clock: new ManualClock(0), random: new Random([1, 2, 3, 4]), meta: loadFixture('kubeadm-calico').meta, controllers });
  return { c, runs };
}

function steps(c: Cluster): void {
  c.insert(pod('p1'));
  c.settle();
  for (const phase of ['Pending', 'Running', 'Running', 'Succeeded']) {
    c.write(withStatus(c.store.get<Pod>('Pod', 'default', 'p1')!, phase));
    c.settle();
  }
  c.insert(cm('c1'));
  c.settle();
}

test('an ownership-only controller is not run by status writes nor new objects of other kinds, and is left at the signature a run would leave', () => {
  const skip = cluster(true);
  const plain = cluster(false);
  steps(skip.c);
  steps(plain.c);
  assert.equal(plain.runs.n, 6, 'without ownershipOnly every write of a watched kind runs it');
  assert.equal(skip.runs.n, 1);
  assert.equal(skip.c.ownershipSkips, 5);
  const marks = (c: Cluster): unknown => (c.snapshot().state as unknown as { __controllers: { lastSeen: unknown } }).__controllers.lastSeen;
  assert.deepEqual(marks(skip.c), marks(plain.c), 'the same signatures as after the runs');
  // a new dependent runs it, and so do an ownership change and a removal
  skip.c.insert(pod('p2'));
  skip.c.settle();
  assert.equal(skip.runs.n, 2);
  const p = skip.c.store.get<Pod>('Pod', 'default', 'p1')!;
  skip.c.write({ ...p, metadata: { ...p.metadata, finalizers: ['x'] } });
  skip.c.settle();
  assert.equal(skip.runs.n, 3);
  skip.c.store.remove('ConfigMap', 'default', 'c1');
  skip.c.settle();
  assert.equal(skip.runs.n, 4);
});

test('an ownership-only run that changed something is not the rest a skip goes on from', () => {
  const runs = { n: 0 };
  const controllers: Controller[] = [
    {
      name: 'writer',
      watches: ['Pod'],
      ownershipOnly: { dependents: ['Pod'] },
      reconcile: (c: Cluster) => {
        runs.n++;
        // every run writes a ConfigMap's data (a kind it does not watch): never a run that changed nothing
        const had = c.store.get('ConfigMap', 'default', 'n');
        c.write({ ...(had ?? cm('n')), data: { n: String(runs.n) } } as KObject);
      },
    },
  ];
  const c = new Cluster({ clock: new ManualClock(0), random: new Random([1, 2, 3, 4]), meta: loadFixture('kubeadm-calico').meta, controllers });
  steps(c);
  assert.equal(runs.n, 5);
  assert.equal(c.ownershipSkips, 0);
});

test('the garbage collector still deletes a dependent whose owner goes, after skipped runs', () => {
  const c = new Cluster({ clock: new ManualClock(0), random: new Random([1, 2, 3, 4]), meta: loadFixture('kubeadm-calico').meta, controllers: [garbageCollector] });
  // an owner of a kind it watches (a Service), and a dependent Pod not yet scheduled
  const owner = c.insert({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'owner', namespace: 'default' }, spec: {} } as KObject);
  const ref = { apiVersion: 'v1', kind: 'Service', name: 'owner', uid: owner.metadata.uid! };
  c.insert({ ...pod('dep'), metadata: { name: 'dep', namespace: 'default', ownerReferences: [ref] } } as Pod);
  c.settle();
  c.write(withStatus(c.store.get<Pod>('Pod', 'default', 'dep')!, 'Running'));
  c.settle();
  assert.ok(c.ownershipSkips >= 1, 'the status write skipped it');
  assert.ok(c.store.get('Pod', 'default', 'dep'));
  c.store.remove('Service', 'default', 'owner');
  c.settle();
  assert.equal(c.store.get('Pod', 'default', 'dep'), undefined, 'the unscheduled dependent is deleted at once');
});

test('a cluster whose garbage collector skips runs ends byte for byte as one that runs it at every write', async () => {
  const { buildFixture } = await import('../testing/fixtures.js');
  const { CONTROLLERS } = await import('./controllers/index.js');
  const { ApiServer } = await import('./apiserver.js');
  const snap = buildFixture('kubeadm-calico').snapshot();
  const always: Controller[] = CONTROLLERS.map((c) => {
    if (c.name !== 'garbage-collector') return c;
    const { ownershipOnly: _skips, ...runs } = c;
    return runs;
  });
  const run = (controllers: readonly Controller[]): Cluster => {
    const c = Cluster.restore(snap, new ManualClock(snap.now), controllers);
    const api = new ApiServer(c);
    // a crash loop (back-off wake-ups, status writes, events) and a Deployment (owned pods)
    api.create<Pod>({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'crash', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'sleep 5; exit 1'] }] } } as Pod);
    api.create({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx', readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 5 } }] } } } } as KObject);
    c.advance(180_000);
    // the owner goes: its ReplicaSet and pods follow
    api.delete('Deployment', 'default', 'web');
    c.advance(120_000);
    return c;
  };
  const skipping = run(CONTROLLERS);
  const plain = run(always);
  assert.ok(skipping.ownershipSkips > 10, `skipped ${skipping.ownershipSkips}`);
  assert.equal(plain.ownershipSkips, 0);
  assert.equal(skipping.store.list('ReplicaSet', 'default').length, 0, 'the collector deleted the ReplicaSet');
  assert.equal(JSON.stringify(skipping.snapshot()), JSON.stringify(plain.snapshot()));
});
