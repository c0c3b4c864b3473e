import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture, fixtureText } from '../testing/fixtures.js';
import { bookkeepingListed, Cluster, type Controller } from './cluster.js';
import { ApiServer } from './apiserver.js';
import { ManualClock } from '../util/clock.js';
import { Random } from '../util/random.js';
import { CONTROLLERS } from './controllers/index.js';
import { FixtureError, parseFixture } from './fixture/build.js';
import type { KObject, Node, Service } from './api/types.js';

function workload(c: Cluster): void {
  const api = new ApiServer(c);
  api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'net' } });
  api.create({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'net' },
    spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } } },
  } as KObject);
  api.create({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'net' }, spec: { type: 'NodePort', selector: { app: 'web' }, ports: [{ port: 80 }] } } as KObject);
  c.advance(10_000);
}

test('same fixture, seed and operations give byte-identical state', () => {
  const a = loadFixture('kubeadm-calico', 7);
  const b = loadFixture('kubeadm-calico', 7);
  workload(a);
  workload(b);
  assert.equal(JSON.stringify(a.snapshot()), JSON.stringify(b.snapshot()));
});

test('a different seed gives different names and addresses', () => {
  const a = loadFixture('kubeadm-calico', 7);
  const b = loadFixture('kubeadm-calico', 8);
  workload(a);
  workload(b);
  const ip = (c: Cluster): string | undefined => c.store.get<Service>('Service', 'net', 'web')?.spec.clusterIP;
  assert.notEqual(ip(a), ip(b));
});

test('snapshot → restore → snapshot round-trips and the restored cluster behaves the same', () => {
  const a = loadFixture('kubeadm-calico', 3);
  workload(a);
  const snap = a.snapshot();
  const b = Cluster.restore(snap, new ManualClock(0), CONTROLLERS);
  assert.equal(JSON.stringify(b.snapshot()), JSON.stringify(snap));
  for (const c of [a, b]) {
    new ApiServer(c).create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'net' }, data: { a: '1' } });
    c.advance(30_000);
  }
  assert.equal(JSON.stringify(b.snapshot()), JSON.stringify(a.snapshot()));
});

test('fixtures reproduce the seeds: node podCIDRs and Calico blocks (seed 000), advertise address (seed 004)', () => {
  const c = loadFixture('kubeadm-calico');
  assert.deepEqual(
    c.store.list<Node>('Node').map((n) => [n.metadata.name, n.spec.podCIDR]),
    [
      ['cka-cp1', '10.244.0.0/24'],
      ['cka-w1', '10.244.1.0/24'],
      ['cka-w2', '10.244.2.0/24'],
    ],
  );
  assert.deepEqual(
    c.store.list<KObject & { spec: { node: string; cidr: string } }>('BlockAffinity').map((b) => [b.spec.node, b.spec.cidr]),
    [
      ['cka-cp1', '10.244.212.128/26'],
      ['cka-w1', '10.244.95.128/26'],
      ['cka-w2', '10.244.62.128/26'],
    ],
  );
  const f = loadFixture('flannel-single');
  assert.equal(f.store.get<Service>('Service', 'kube-system', 'kube-dns')?.spec.clusterIP, '10.244.0.10');
  assert.equal(f.store.get<Service>('Service', 'default', 'kubernetes')?.spec.clusterIP, '10.244.0.1');
});

test('fixture errors name the field', () => {
  const text = fixtureText('kubeadm-calico');
  const cases: { name: string; text: string; message: string }[] = [
    { name: 'bad plugin', text: text.replace('plugin: calico', 'plugin: cilium'), message: 'kubeadm-calico.yaml.spec.cni.plugin: unsupported "cilium" (calico, flannel, weave)' },
    { name: 'bad age', text: text.replace('age: 5d4h', 'age: soon'), message: 'invalid duration "soon" (use e.g. 5d4h, 47m, 30s)' },
    { name: 'not YAML', text: 'kind: [', message: 'kubeadm-calico.yaml: ' },
    { name: 'missing nodes', text: text.replace('  nodes:', '  nodez:'), message: 'kubeadm-calico.yaml.spec.nodes: expected array, got nothing' },
  ];
  for (const tc of cases)
    assert.throws(
      () => parseFixture(tc.text, 'kubeadm-calico.yaml'),
      (e: unknown) => e instanceof FixtureError && e.message.startsWith(tc.message),
      tc.name,
    );
});

// Timed wake-ups wake the controller that asked (Cluster.wakeAt/fire), the controllers it names in
// wakesAlso, or every time watcher when asked outside any controller.
function wakeCluster(): { c: Cluster; runs: Record<string, number[]> } {
  const runs: Record<string, number[]> = { a: [], b: [], c: [] };
  const at = (name: string) => (cl: Cluster): void => {
    runs[name]!.push(cl.now());
  };
  const c = new Cluster({
    clock: new ManualClock(0),
    random: new Random([1, 2, 3, 4]),
    meta: loadFixture('kubeadm-calico').meta,
    controllers: [
      { name: 'a', watches: ['time'], wakesAlso: ['c'], reconcile: (cl) => { at('a')(cl); if (cl.now() === 0) cl.wakeAt(5_000); } },
      { name: 'b', watches: ['time'], reconcile: (cl) => { at('b')(cl); if (cl.now() === 0) cl.wakeAt(7_000); } },
      { name: 'c', watches: ['time'], reconcile: at('c') },
    ],
  });
  return { c, runs };
}

test('a wake-up wakes the controller that asked for it and those it names in wakesAlso, no other', () => {
  const { c, runs } = wakeCluster();
  c.advance(10_000);
  assert.deepEqual(runs, { a: [0, 5_000], b: [0, 7_000], c: [0, 5_000] });
});

test('a wake-up asked for outside any controller wakes every time watcher', () => {
  const { c, runs } = wakeCluster();
  c.settle();
  c.wakeAt(2_000);
  c.advance(3_000);
  assert.deepEqual(runs, { a: [0, 2_000], b: [0, 2_000], c: [0, 2_000] });
});

// A settle builds the signature of a controller only when something it watches changed (Cluster
// dirty): a wake-up of one controller, or a write of a kind another does not watch, leaves the
// others alone, and they still run at every change of what they do watch.
function watchCluster(): { c: Cluster; runs: Record<string, number>; built: { b: number }; controllers: Controller[] } {
  const runs: Record<string, number> = { a: 0, b: 0, self: 0 };
  const built = { b: 0 };
  const controllers: Controller[] = [
      // a periodic controller: every second, as the APF ensurer is every minute
      { name: 'a', watches: ['time'], reconcile: (cl) => { runs['a']!++; cl.wakeAt(cl.now() + 1_000); } },
      // one object named by a Secret: its list follows the Secrets alone
      {
        name: 'b',
        watches: ['Service'],
        dynamicInputs: ['Secret'],
        dynamicWatches: (cl) => {
          built.b++;
          return cl.store.list('Secret').map((s) => `ConfigMap@default/${s.metadata.name}`);
        },
        reconcile: () => void runs['b']!++,
      },
      // writes what it watches once: runs again, then rests
      {
        name: 'self',
        watches: ['Endpoints'],
        reconcile: (cl) => {
          runs['self']!++;
          if (!cl.store.get('Endpoints', 'default', 'mark')) cl.insert({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'mark', namespace: 'default' } } as KObject);
        },
      },
  ];
  const c = new Cluster({ clock: new ManualClock(0), random: new Random([1, 2, 3, 4]), meta: loadFixture('kubeadm-calico').meta, controllers });
  c.settle();
  return { c, runs, built, controllers };
}

test('a settle looks at a controller only when something it watches changed', () => {
  const { c, runs, built, controllers } = watchCluster();
  assert.deepEqual(runs, { a: 1, b: 1, self: 2 });
  const before = built.b;
  // 100 wake-ups of `a`, and writes of a kind nobody watches: `b`'s signature is never built
  c.advance(100_000);
  c.insert({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: { containers: [] } } as KObject);
  c.settle();
  assert.equal(runs['a'], 101);
  assert.equal(built.b, before);
  assert.deepEqual([runs['b'], runs['self']], [1, 2]);
  // what `b` does watch: a Service, the Secret its list follows, then the object that names
  c.insert({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'default' }, spec: {} } as KObject);
  c.settle();
  assert.equal(runs['b'], 2);
  c.insert({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x', namespace: 'default' } } as KObject);
  c.settle();
  assert.equal(runs['b'], 3);
  c.insert({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'y', namespace: 'default' } } as KObject);
  c.settle();
  assert.equal(runs['b'], 3, 'a ConfigMap it does not name');
  c.insert({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' } } as KObject);
  c.settle();
  assert.equal(runs['b'], 4, 'the ConfigMap it names');
  // a restored copy compares every signature once, and runs none whose signature it saw
  const copy = Cluster.restore(c.snapshot(), new ManualClock(0), controllers);
  copy.settle();
  assert.deepEqual([runs['b'], runs['self']], [4, 2]);
});

// A list made of state a controller keeps beside the store (static-pods' run records) changes only
// with its runs: `run:<name>` in its dynamicInputs looks at its signature again after each run
// that changed anything, instead of at every change of anything.
test('a run: input follows the lists a controller makes of its own state', () => {
  const runs = { r: 0 };
  const built = { r: 0 };
  const named = (cl: Cluster): string[] => (cl.state as { named?: string[] }).named ?? [];
  const controllers: Controller[] = [
    {
      name: 'r',
      watches: ['Service'],
      dynamicInputs: ['run:r'],
      dynamicWatches: (cl) => {
        built.r++;
        return named(cl).map((n) => `ConfigMap@default/${n}`);
      },
      reconcile: (cl) => {
        runs.r++;
        // each Service names a ConfigMap in the controller's own state, and the run records an Event
        const want = cl.store.list('Service').map((s) => `cm-${s.metadata.name}`);
        if (want.join() === named(cl).join()) return;
        (cl.state as { named?: string[] }).named = want;
        cl.insert({ apiVersion: 'v1', kind: 'Event', metadata: { name: `e${runs.r}`, namespace: 'default' } } as KObject);
      },
    },
  ];
  const c = new Cluster({ clock: new ManualClock(0), random: new Random([1, 2, 3, 4]), meta: loadFixture('kubeadm-calico').meta, controllers });
  c.settle();
  assert.equal(runs.r, 1);
  c.insert({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'a', namespace: 'default' }, spec: {} } as KObject);
  c.settle();
  // its run named cm-a: the new list is a new signature, so it runs once more and rests
  assert.equal(runs.r, 3);
  const before = built.r;
  c.insert({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: { containers: [] } } as KObject);
  c.settle();
  assert.equal(built.r, before, 'a Pod is not among its inputs');
  c.insert({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-a', namespace: 'default' } } as KObject);
  c.settle();
  assert.equal(runs.r, 4, 'the ConfigMap its own run named');
});

// A copy of a cluster made with its settle marks (Cluster.settleMarks, as the grader's and
// validate's copies are) looks where its original would: at rest it settles nothing; a change the
// original had not looked at yet still runs; and the lists a dynamic watcher followed still wake it.
test('a copy with its original\'s settle marks settles nothing at rest, and what moved since or what its lists name still runs', () => {
  const { c, runs, built, controllers } = watchCluster();
  c.insert({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x', namespace: 'default' } } as KObject);
  c.settle();
  assert.equal(runs['b'], 2);
  const copyOf = (): Cluster => {
    const copy = Cluster.restore(c.snapshot(), new ManualClock(0), controllers);
    copy.adoptSettleMarks(c.settleMarks());
    return copy;
  };
  const atRest = copyOf();
  const seen = built.b;
  atRest.settle();
  assert.equal(atRest.settles, 0, 'a copy of a cluster at rest settles nothing');
  assert.equal(built.b, seen);
  // the ConfigMap the Secret names: the copy's list follows it as the original's does
  atRest.insert({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' } } as KObject);
  atRest.settle();
  assert.equal(runs['b'], 3, 'the object its list names wakes it in the copy');
  // written in the original after its last settle: its copy runs it, as the original's next settle does
  c.insert({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's2', namespace: 'default' } } as KObject);
  const pending = copyOf();
  pending.settle();
  assert.equal(runs['b'], 4);
  c.settle();
  assert.equal(runs['b'], 5);
  assert.equal(JSON.stringify(pending.snapshot()), JSON.stringify(c.snapshot()));
  // marks from a cluster mid-settle or of another registry are not taken: every controller looks once
  const other = Cluster.restore(c.snapshot(), new ManualClock(0), controllers);
  other.adoptSettleMarks({ ...c.settleMarks()!, dirty: [false] });
  other.settle();
  assert.equal(other.settles, 1);
});

test("restores of one in-memory snapshot list its settle bookkeeping once, and each goes on as one restored from the snapshot's text", () => {
  const c = loadFixture('kubeadm-calico', 7);
  workload(c);
  c.wakeAt(c.now() + 5_000, 'deployment');
  const snap = c.snapshot();
  const text = JSON.stringify(snap);
  const before = bookkeepingListed.count;
  const copies = [0, 1, 2].map(() => Cluster.restore(snap, new ManualClock(0), CONTROLLERS));
  assert.equal(bookkeepingListed.count - before, 1, 'listed at the first restore only');
  const fromText = Cluster.restore(JSON.parse(text) as typeof snap, new ManualClock(0), CONTROLLERS, { owned: true });
  assert.equal(bookkeepingListed.count - before, 2, "a file's records are listed each time");
  for (const x of [...copies, fromText]) x.advance(30_000);
  for (const x of copies) assert.equal(JSON.stringify(x.snapshot()), JSON.stringify(fromText.snapshot()));
});

test("snapshot: the settle's bookkeeping records are shared while unchanged (by later snapshots and a copy's), and rebuilt when a map moves", () => {
  const c = loadFixture('kubeadm-calico', 7);
  workload(c);
  c.wakeAt(c.now() + 5_000, 'deployment');
  type Ctl = { lastSeen: object; changes: object; wakeOwners?: object; ownTicks?: object };
  const ctlOf = (x: Cluster): Ctl => (x.snapshot().state as unknown as { __controllers: Ctl }).__controllers;
  const a = ctlOf(c);
  const b = ctlOf(c);
  for (const k of ['lastSeen', 'changes', 'wakeOwners', 'ownTicks'] as const) assert.strictEqual(b[k], a[k], `${k} made again`);
  // a copy restored from the in-memory snapshot makes the very records its snapshot held
  const copy = Cluster.restore(c.snapshot(), new ManualClock(c.now()), CONTROLLERS);
  assert.strictEqual(ctlOf(copy).lastSeen, a.lastSeen);
  assert.strictEqual(ctlOf(copy).wakeOwners, a.wakeOwners);
  // a wake-up asked at a pending time by another owner changes that time's owners: a new record, as built anew
  const at = Object.keys(a.wakeOwners!)[0]!;
  c.wakeAt(Number(at), 'someone-else');
  const d = ctlOf(c);
  assert.notStrictEqual(d.wakeOwners, a.wakeOwners);
  assert.deepEqual((d.wakeOwners as Record<string, string[]>)[at], [...(a.wakeOwners as Record<string, string[]>)[at]!, 'someone-else']);
  assert.strictEqual(d.lastSeen, a.lastSeen);
  // a write moves the store's counters
  new ApiServer(c).create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' }, data: {} } as KObject);
  const e = ctlOf(c);
  assert.notStrictEqual(e.changes, a.changes);
  const configMaps = (x: Ctl): number => (x.changes as Record<string, number>)['ConfigMap'] ?? 0;
  assert.equal(configMaps(e), configMaps(a) + 1);
});
