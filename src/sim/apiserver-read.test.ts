/**
 * The API server's reads for callers that only read (ApiServer.read, readList: kubectl get and
 * describe, pod lookups, rollout status polls): the stored objects themselves, frozen, where get
 * and list hand out copies; the same objects, the same checks and errors. Nodes stay copies: the
 * node view writes the kubelet's last status post into what it returns.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../testing/fixtures.js';
import { ApiServer } from './apiserver.js';
import { ApiError } from './api/errors.js';
import type { KObject } from './api/types.js';

test('read and readList: the stored objects, not copies, equal to what get and list copy', () => {
  const c = loadFixture('kubeadm-calico', 1);
  const api = new ApiServer(c);
  const pods = api.readList('Pod', 'kube-system');
  assert.ok(pods.length > 3);
  assert.deepEqual(pods, api.list('Pod', 'kube-system'));
  const stored = c.store.list('Pod', 'kube-system');
  pods.forEach((p, i) => assert.equal(p, stored[i], 'the stored object itself'));
  assert.notEqual(pods, stored, 'a new array: a caller may sort or filter it');
  const name = pods[0]!.metadata.name;
  const one = api.read('Pod', 'kube-system', name);
  assert.equal(one, c.store.get('Pod', 'kube-system', name));
  assert.ok(Object.isFrozen(one) && Object.isFrozen(one.metadata));
  assert.notEqual(api.get('Pod', 'kube-system', name), one, 'get still copies');
  assert.throws(() => api.read('Pod', 'kube-system', 'nosuch'), (e: unknown) => e instanceof ApiError && e.message === 'pods "nosuch" not found');
  // derived objects (leases of the nodes) and cluster-scoped kinds read the same as listed
  assert.deepEqual(api.readList('Lease'), api.list('Lease'));
  assert.deepEqual(api.readList('Namespace'), api.list('Namespace'));
});

test('read and readList: a Node is a copy (the node view writes into it)', () => {
  const c = loadFixture('kubeadm-calico', 1);
  const api = new ApiServer(c);
  const nodes = api.readList<KObject>('Node');
  const stored = c.store.list('Node');
  assert.deepEqual(nodes, api.list('Node'));
  nodes.forEach((n, i) => assert.notEqual(n, stored[i]));
  const name = stored[0]!.metadata.name;
  assert.notEqual(api.read('Node', undefined, name), stored[0]);
  assert.deepEqual(api.read('Node', undefined, name), api.get('Node', undefined, name));
});
