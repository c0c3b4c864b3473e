/**
 * The controllers' "nothing changed" memo (sync-memo.ts): a pod's change that none of a
 * Deployment's, ReplicaSet's, DaemonSet's or Service's (Endpoints, EndpointSlices) reads holds
 * does not sync it again; one that does, does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { ApiServer } from '../apiserver.js';
import type { Deployment, KObject, Pod } from '../api/types.js';
import { deploymentMemo } from './deployment.js';
import { replicaSetMemo } from './replicaset.js';
import { daemonSetMemo } from './daemonset.js';
import { endpointsMemo } from './endpoints.js';
import { endpointSliceMemo } from './endpointslice.js';
import { crdStatusMemo } from './crd-status.js';
import type { SyncMemo } from './sync-memo.js';
import { nginxDeployment } from '../../testing/workloads.js';

const deployment = nginxDeployment;

function counts(m: SyncMemo): { runs: number; skips: number } {
  return { runs: m.runs, skips: m.skips };
}

test('sync memo: a bare pod syncs no Deployment, DaemonSet or Service endpoints again; a Deployment pod deleted syncs its Deployment', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create(deployment('web', 2));
  c.advance(10_000);
  const dep0 = counts(deploymentMemo);
  const ds0 = counts(daemonSetMemo);
  const rs0 = counts(replicaSetMemo);
  const ep0 = counts(endpointsMemo);
  const eps0 = counts(endpointSliceMemo);
  api.create<Pod>({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'lone', namespace: 'default', labels: { run: 'lone' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
  c.advance(10_000);
  assert.equal(c.store.get<Pod>('Pod', 'default', 'lone')?.status?.phase, 'Running');
  // every Deployment (web, coredns, ...) and DaemonSet (kube-proxy, calico-node) was looked at and none synced
  assert.equal(deploymentMemo.runs, dep0.runs);
  assert.ok(deploymentMemo.skips >= dep0.skips + 2, `deployment skips ${deploymentMemo.skips - dep0.skips}`);
  assert.equal(daemonSetMemo.runs, ds0.runs);
  assert.ok(daemonSetMemo.skips >= ds0.skips + 2);
  // no Service selects it: kube-dns's Endpoints and EndpointSlice are not synced again
  assert.equal(endpointsMemo.runs, ep0.runs);
  assert.ok(endpointsMemo.skips > ep0.skips);
  assert.equal(endpointSliceMemo.runs, eps0.runs);
  assert.ok(endpointSliceMemo.skips > eps0.skips);
  // the orphan is in the default namespace's ReplicaSet's reads (it could adopt it); kube-system's are not synced
  assert.ok(replicaSetMemo.runs > rs0.runs);
  assert.ok(replicaSetMemo.skips > replicaSetMemo.runs - rs0.runs);

  // a pod of web's goes: web's ReplicaSet replaces it, and web's status follows
  const victim = c.store.list<Pod>('Pod', 'default').find((p) => p.metadata.name.startsWith('web-'))!;
  const dep1 = counts(deploymentMemo);
  api.delete('Pod', 'default', victim.metadata.name);
  c.advance(40_000);
  assert.ok(deploymentMemo.runs > dep1.runs);
  const d = c.store.get<Deployment>('Deployment', 'default', 'web')!;
  assert.equal(d.status?.readyReplicas, 2);
  assert.equal(c.store.list<Pod>('Pod', 'default').filter((p) => p.metadata.name.startsWith('web-') && !p.metadata.deletionTimestamp).length, 2);
});

test('sync memo: a CRD of another group runs no other CRD naming again; one of the same group does', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  const crd = (group: string, kind: string): KObject =>
    ({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${kind.toLowerCase()}s.${group}` },
      spec: { group, scope: 'Namespaced', names: { plural: `${kind.toLowerCase()}s`, kind }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
    }) as unknown as KObject;
  api.create(crd('a.example.com', 'Apple'));
  api.create(crd('b.example.com', 'Banana'));
  const all = c.store.list('CustomResourceDefinition').length;
  const before = counts(crdStatusMemo);
  api.create(crd('c.example.com', 'Cherry'));
  // Cherry is named and established (one run that writes, one that finds it done); no other runs
  assert.equal(crdStatusMemo.runs - before.runs, 2);
  assert.ok(crdStatusMemo.skips - before.skips >= 2 * all);
  const same = counts(crdStatusMemo);
  api.create(crd('a.example.com', 'Avocado'));
  // Apple reads its group's CRDs: it runs again, and still has its names
  assert.ok(crdStatusMemo.runs - same.runs >= 3);
  const apple = c.store.get('CustomResourceDefinition', undefined, 'apples.a.example.com') as unknown as { status?: { conditions?: { type: string; status: string }[] } };
  assert.equal(apple.status?.conditions?.find((x) => x.type === 'NamesAccepted')?.status, 'True');
});

test('sync memo: a Deployment scaled syncs no other Deployment of its namespace, nor their ReplicaSets (owner-index.ts)', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create(deployment('web', 1));
  api.create(deployment('api', 1));
  c.advance(30_000);
  const before = c.store.get<Deployment>('Deployment', 'default', 'api')!;
  const dep0 = counts(deploymentMemo);
  const rs0 = counts(replicaSetMemo);
  const web = c.store.get<Deployment>('Deployment', 'default', 'web')!;
  api.update<Deployment>({ ...web, spec: { ...web.spec, replicas: 2 } });
  c.advance(30_000);
  assert.equal(c.store.get<Deployment>('Deployment', 'default', 'web')!.status?.readyReplicas, 2);
  // web's ReplicaSet and pods changed: web synced at every step, api (and coredns) never; a
  // sync reads only its own ReplicaSets and the orphans it could adopt, and their pods
  const webSyncs = deploymentMemo.runs - dep0.runs;
  assert.ok(webSyncs >= 2, `web synced ${webSyncs} times`);
  assert.ok(deploymentMemo.skips - dep0.skips >= 2 * webSyncs, `deployment skips ${deploymentMemo.skips - dep0.skips} for ${webSyncs} runs`);
  assert.equal(c.store.get<Deployment>('Deployment', 'default', 'api'), before);
  // api's ReplicaSet reads its own pods and the orphans: web's new pod is neither
  const rsRuns = replicaSetMemo.runs - rs0.runs;
  const rsSkips = replicaSetMemo.skips - rs0.skips;
  assert.ok(rsSkips >= 2 * rsRuns, `replicaset runs ${rsRuns}, skips ${rsSkips}`);
});
