/**
 * The ReplicaSet controller's claim of pods by labels (pkg/controller/controller_ref_manager.go
 * ClaimPods): release of a pod whose labels stop matching, adoption of a matching orphan, and
 * what the count of controlled pods does next (a replacement, or the surplus deleted).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { ApiServer } from '../apiserver.js';
import type { Cluster } from '../cluster.js';
import type { Deployment, KEvent, Pod, ReplicaSet } from '../api/types.js';

function replicaSet(replicas: number): ReplicaSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web', namespace: 'default' },
    spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
  };
}

function bare(name: string, labels: Record<string, string>): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
}

/** Active pods whose controller is the ReplicaSet `web`, by name. */
function controlled(c: Cluster): string[] {
  const rs = c.store.get<ReplicaSet>('ReplicaSet', 'default', 'web')!;
  return c.store
    .list<Pod>('Pod', 'default')
    .filter((p) => !p.metadata.deletionTimestamp && p.metadata.ownerReferences?.some((r) => r.controller && r.uid === rs.metadata.uid))
    .map((p) => p.metadata.name)
    .sort();
}

function rsEvents(c: Cluster, reason: string): string[] {
  return c.store.list<KEvent>('Event', 'default').filter((e) => e.involvedObject.kind === 'ReplicaSet' && e.reason === reason).map((e) => e.message);
}

const cases: {
  name: string;
  replicas: number;
  /** pods created before the ReplicaSet (orphans) */
  before: Pod[];
  /** relabel this many of the ReplicaSet's pods after it settled */
  relabel?: Record<string, string>;
  wantControlled: number;
  wantOrphanOwned: boolean;
  wantDeletes: number;
}[] = [
  { name: 'a matching orphan is adopted and counts toward replicas', replicas: 1, before: [bare('orphan', { app: 'web' })], wantControlled: 1, wantOrphanOwned: true, wantDeletes: 0 },
  { name: 'an orphan that does not match stays an orphan', replicas: 1, before: [bare('orphan', { app: 'db' })], wantControlled: 1, wantOrphanOwned: false, wantDeletes: 0 },
  { name: 'an adopted orphan stands in for one of two replicas', replicas: 2, before: [bare('orphan', { app: 'web' })], wantControlled: 2, wantOrphanOwned: true, wantDeletes: 0 },
  { name: 'a pod relabelled out of the selector is released and replaced', replicas: 2, before: [], relabel: { app: 'debug' }, wantControlled: 2, wantOrphanOwned: false, wantDeletes: 0 },
];

for (const tc of cases) {
  test(`replicaset claim: ${tc.name}`, () => {
    const c = loadFixture('kubeadm-calico');
    const api = new ApiServer(c);
    for (const p of tc.before) api.create<Pod>(p);
    c.advance(5_000);
    api.create<ReplicaSet>(replicaSet(tc.replicas));
    c.advance(5_000);
    let released: Pod | undefined;
    if (tc.relabel) {
      const victim = c.store.get<Pod>('Pod', 'default', controlled(c)[0]!)!;
      api.update<Pod>({ ...victim, metadata: { ...victim.metadata, labels: tc.relabel } });
      c.advance(5_000);
      released = c.store.get<Pod>('Pod', 'default', victim.metadata.name);
    }
    assert.equal(controlled(c).length, tc.wantControlled);
    const orphan = c.store.get<Pod>('Pod', 'default', 'orphan');
    if (orphan) assert.equal(orphan.metadata.ownerReferences?.some((r) => r.kind === 'ReplicaSet' && r.controller === true && r.blockOwnerDeletion === true) === true, tc.wantOrphanOwned);
    if (released) {
      assert.equal(released.metadata.ownerReferences, undefined, 'the released pod has no ownerReference left');
      assert.ok(!released.metadata.deletionTimestamp, 'the released pod keeps running');
      assert.equal(rsEvents(c, 'SuccessfulCreate').length, tc.wantControlled + 1, 'a replacement was created');
    }
    assert.equal(rsEvents(c, 'SuccessfulDelete').length, tc.wantDeletes);
  });
}

test('replicaset claim: an adopted orphan over the replica count is the newest-first victim only when it is newer', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create<ReplicaSet>(replicaSet(2));
  c.advance(30_000);
  const before = controlled(c);
  // a newer orphan with the selector's labels: adopted, then the surplus (the newest) is deleted
  api.create<Pod>(bare('orphan', { app: 'web' }));
  c.advance(30_000);
  assert.deepEqual(controlled(c), before);
  assert.deepEqual(rsEvents(c, 'SuccessfulDelete'), ['Deleted pod: orphan']);
});

test('replicaset claim: a Deployment pod relabelled is released by its ReplicaSet and replaced', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create<Deployment>({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
  });
  c.advance(30_000);
  const pods = c.store.list<Pod>('Pod', 'default').filter((p) => p.metadata.labels?.['app'] === 'web');
  assert.equal(pods.length, 2);
  const victim = pods[0]!;
  api.update<Pod>({ ...victim, metadata: { ...victim.metadata, labels: { ...victim.metadata.labels, app: 'quarantine' } } });
  c.advance(30_000);
  const after = c.store.list<Pod>('Pod', 'default');
  assert.equal(after.filter((p) => p.metadata.labels?.['app'] === 'web').length, 2, 'a replacement keeps two pods');
  const kept = after.find((p) => p.metadata.name === victim.metadata.name)!;
  assert.equal(kept.metadata.ownerReferences, undefined);
  assert.equal(kept.status?.phase, 'Running');
});

function deployment(labels: Record<string, string> = { app: 'web' }): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } } },
  };
}

/** Deployment `web`, settled, then deleted with propagationPolicy Orphan: its ReplicaSet and pods stay, without the Deployment's ownerReference. */
function orphaned(): { c: Cluster; api: ApiServer; rs: ReplicaSet; pods: Pod[] } {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create<Deployment>(deployment());
  c.advance(30_000);
  api.delete('Deployment', 'default', 'web', { propagation: 'Orphan' });
  c.advance(5_000);
  const [rs, ...more] = c.store.list<ReplicaSet>('ReplicaSet', 'default');
  assert.ok(rs && more.length === 0);
  assert.equal(rs.metadata.ownerReferences, undefined, 'the orphaned ReplicaSet has no owner');
  const pods = c.store.list<Pod>('Pod', 'default').filter((p) => p.metadata.labels?.['app'] === 'web');
  assert.equal(pods.length, 2);
  return { c, api, rs, pods };
}

test('deployment claim: a re-created Deployment adopts the orphaned ReplicaSet and keeps its pods', () => {
  const { c, api, rs, pods } = orphaned();
  const d = api.create<Deployment>(deployment());
  c.advance(30_000);
  const after = c.store.list<ReplicaSet>('ReplicaSet', 'default');
  assert.deepEqual(after.map((x) => x.metadata.uid), [rs.metadata.uid], 'the same ReplicaSet, not a new one');
  const ref = after[0]!.metadata.ownerReferences;
  assert.deepEqual(ref, [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: d.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  const podsAfter = c.store.list<Pod>('Pod', 'default').filter((p) => p.metadata.labels?.['app'] === 'web' && !p.metadata.deletionTimestamp);
  assert.deepEqual(podsAfter.map((p) => p.metadata.uid).sort(), pods.map((p) => p.metadata.uid).sort(), 'the pods are kept');
  assert.deepEqual(rsEvents(c, 'SuccessfulCreate').length, 2, 'no pod created after the adoption');
  const dep = c.store.get<Deployment>('Deployment', 'default', 'web')!;
  assert.equal(dep.status?.readyReplicas, 2);
  assert.equal(dep.metadata.annotations?.['deployment.kubernetes.io/revision'], '1');
});

test('deployment claim: a Deployment whose selector does not match the orphan leaves it alone', () => {
  const { c, api, rs } = orphaned();
  api.create<Deployment>(deployment({ app: 'other' }));
  c.advance(30_000);
  const kept = c.store.get<ReplicaSet>('ReplicaSet', 'default', rs.metadata.name)!;
  assert.equal(kept.metadata.uid, rs.metadata.uid);
  assert.equal(kept.metadata.ownerReferences, undefined);
  assert.equal(c.store.list<ReplicaSet>('ReplicaSet', 'default').length, 2);
});

test('deployment claim: a ReplicaSet relabelled out of the selector is released (and a new one made)', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create<Deployment>(deployment());
  c.advance(30_000);
  const rs = c.store.list<ReplicaSet>('ReplicaSet', 'default')[0]!;
  api.update<ReplicaSet>({ ...rs, metadata: { ...rs.metadata, labels: { app: 'gone' } } });
  c.advance(5_000);
  const released = c.store.get<ReplicaSet>('ReplicaSet', 'default', rs.metadata.name);
  assert.equal(released?.metadata.uid, rs.metadata.uid);
  assert.equal(released?.metadata.ownerReferences, undefined);
});

test('a ReplicaSet’s status writes keep its stored spec (the Deployment controller’s template keys are memoised by its identity)', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create<ReplicaSet>(replicaSet(2));
  c.advance(1);
  const first = c.store.get<ReplicaSet>('ReplicaSet', 'default', 'web')!;
  c.advance(60_000);
  const later = c.store.get<ReplicaSet>('ReplicaSet', 'default', 'web')!;
  assert.notEqual(later, first, 'the status was written');
  assert.equal(later.status?.readyReplicas, 2);
  assert.equal(later.spec, first.spec, 'its spec is the stored one, shared');
});
