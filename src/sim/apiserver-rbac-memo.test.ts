/**
 * The API server keeps the rules bound to a user per namespace while the RBAC objects stand
 * (apiserver.ts boundRules): a binding or role created, changed or removed is seen by the next request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../testing/fixtures.js';
import { Session } from '../shell/session.js';

test('RBAC rules memo: bindings and roles created, changed and removed count at the next request', async () => {
  const s = new Session(loadFixture('kubeadm-calico'));
  const can = async (line: string): Promise<string> => (await s.exec(`kubectl auth can-i ${line} --as=jane`)).stdout.trim();
  assert.equal(await can('get pods -n default'), 'no');
  assert.equal((await s.exec('kubectl create role reader --verb=get --resource=pods -n default')).exitCode, 0);
  assert.equal(await can('get pods -n default'), 'no');
  assert.equal((await s.exec('kubectl create rolebinding jane-reader --role=reader --user=jane -n default')).exitCode, 0);
  assert.equal(await can('get pods -n default'), 'yes');
  // another namespace's bindings do not count there
  assert.equal(await can('get pods -n kube-system'), 'no');
  assert.equal(await can('list pods -n default'), 'no');
  // the role changed: the binding's rules follow
  assert.equal((await s.exec("kubectl patch role reader -n default --type=json -p='[{\"op\":\"add\",\"path\":\"/rules/0/verbs/-\",\"value\":\"list\"}]'")).exitCode, 0);
  assert.equal(await can('list pods -n default'), 'yes');
  // a cluster-wide binding
  assert.equal((await s.exec('kubectl create clusterrolebinding jane-view --clusterrole=view --user=jane')).exitCode, 0);
  assert.equal(await can('get services -n kube-system'), 'yes');
  assert.equal((await s.exec('kubectl delete clusterrolebinding jane-view')).exitCode, 0);
  assert.equal(await can('get services -n kube-system'), 'no');
  assert.equal((await s.exec('kubectl delete rolebinding jane-reader -n default')).exitCode, 0);
  assert.equal(await can('get pods -n default'), 'no');
});
