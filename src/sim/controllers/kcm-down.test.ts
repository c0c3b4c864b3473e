/**
 * Broken components, causally (issue 12): with kube-controller-manager's static pod down, the
 * controllers it runs do nothing (a new Deployment gets no ReplicaSet, a scaled one no new pods),
 * and they catch up once it is back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { ApiServer } from '../apiserver.js';
import type { ReplicaSet } from '../api/types.js';

const MANIFEST = '/etc/kubernetes/manifests/kube-controller-manager.yaml';

test('kube-controller-manager down: Deployments create no ReplicaSets until it is back', () => {
  const c = loadFixture('kubeadm-calico');
  const cp = c.host('cka-cp1')!;
  const good = cp.fs.read(MANIFEST);
  cp.fs.write(MANIFEST, good.replace('- --leader-elect=true', '- --leader-elect=true\n    - --no-such-flag'));
  c.advance(60_000);
  assert.equal(c.state.controllerManager?.up, false, 'the broken flag keeps it down');
  const api = new ApiServer(c);
  api.create({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } } } });
  c.advance(30_000);
  const rsOf = (): ReplicaSet[] => c.store.list<ReplicaSet>('ReplicaSet', 'default').filter((r) => r.metadata.name.startsWith('web-'));
  assert.equal(rsOf().length, 0, 'no ReplicaSet while the controller manager is down');
  cp.fs.write(MANIFEST, good);
  c.advance(60_000);
  assert.equal(c.state.controllerManager?.up, true);
  assert.equal(rsOf().length, 1, 'the deployment controller caught up');
});
