/**
 * The API server keeps the rules bound to a user per namespace while the RBAC objects stand
 * (apiserver.ts boundRules): a binding or role created, changed or removed is seen by the next request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../testing/fixtures.js';
import { Session } from '../shell/session.js';
import { ApiServer } from './apiserver.js';
import type { Cluster } from './cluster.js';
import { rulesFor, type BoundRules, type RbacPolicy, type UserInfo } from './api/rbac.js';
import type { KObject } from './api/types.js';

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

test('RBAC rules memo across stores: a copy of the same state reuses the answer, a copy whose bindings differ gets its own', () => {
  const jane: UserInfo = { username: 'jane', groups: ['dev', 'system:authenticated'] };
  const bound = (c: Cluster, ns: string | undefined): BoundRules => (new ApiServer(c) as unknown as { boundRules(u: UserInfo, ns: string | undefined): BoundRules }).boundRules(jane, ns);
  const policy = (c: Cluster): RbacPolicy => ({
    roles: c.store.list('Role') as RbacPolicy['roles'],
    clusterRoles: c.store.list('ClusterRole') as RbacPolicy['clusterRoles'],
    roleBindings: c.store.list('RoleBinding') as RbacPolicy['roleBindings'],
    clusterRoleBindings: c.store.list('ClusterRoleBinding') as RbacPolicy['clusterRoleBindings'],
  });
  // copies of one state: new stores that share its frozen objects (as validate's runs and `check` do)
  const a = loadFixture('kubeadm-calico');
  const b = loadFixture('kubeadm-calico');
  assert.notEqual(a.store, b.store);
  const first = bound(a, 'default');
  assert.deepEqual(first, rulesFor(policy(a), jane, 'default'));
  assert.equal(bound(b, 'default'), first, 'the same RBAC objects: the answer kept, not computed again');
  // another copy where jane was bound to a role: its own answer
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'reader', namespace: 'default' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] } as KObject);
  api.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'jane-reader', namespace: 'default' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' }, subjects: [{ kind: 'Group', name: 'dev' }] } as KObject);
  const mine = bound(c, 'default');
  assert.notEqual(mine, first);
  assert.deepEqual(mine, rulesFor(policy(c), jane, 'default'));
  assert.ok(mine.rules.some((r) => r.resources?.includes('pods')));
  // a role changed in place (same list length, another object at its position) counts too
  api.update({ ...structuredClone(c.store.get('Role', 'default', 'reader')!), rules: [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }] } as KObject);
  const d = loadFixture('kubeadm-calico');
  assert.deepEqual(bound(d, 'default'), first, 'the first state again: its answer');
  const changed = bound(c, 'default');
  assert.deepEqual(changed, rulesFor(policy(c), jane, 'default'));
  assert.ok(changed.rules.some((r) => r.verbs.includes('list')));
  assert.ok(!changed.rules.some((r) => r.verbs.includes('get') && r.resources?.includes('pods')));
});
