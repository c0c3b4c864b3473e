/**
 * The authorizer against the bootstrap policy of a kubeadm cluster: each row is (user, groups,
 * request) → allowed, as plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go grants it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { authorize, forbiddenText, type BindingObject, type RbacPolicy, type RequestAttributes, type RoleObject } from './rbac.js';
import { bootstrapRbac } from './rbac-bootstrap.js';

function policy(extra: (RoleObject | BindingObject)[] = []): RbacPolicy {
  const all = [...bootstrapRbac(), ...extra];
  return {
    roles: all.filter((o) => o.kind === 'Role') as RoleObject[],
    clusterRoles: all.filter((o) => o.kind === 'ClusterRole') as RoleObject[],
    roleBindings: all.filter((o) => o.kind === 'RoleBinding') as BindingObject[],
    clusterRoleBindings: all.filter((o) => o.kind === 'ClusterRoleBinding') as BindingObject[],
  };
}

const AUTH = 'system:authenticated';
const res = (verb: string, resource: string, namespace?: string, group = '', name?: string, subresource?: string): RequestAttributes => ({ verb, group, resource, ...(namespace ? { namespace } : {}), ...(name ? { name } : {}), ...(subresource ? { subresource } : {}) });
const binding = (ns: string, name: string, role: string, kind: 'Role' | 'ClusterRole', user: string): BindingObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'RoleBinding',
  metadata: { name, namespace: ns },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: role },
  subjects: [{ kind: 'User', name: user, apiGroup: 'rbac.authorization.k8s.io' }],
});
const extra: (RoleObject | BindingObject)[] = [
  binding('dev', 'viewer', 'view', 'ClusterRole', 'val'),
  binding('dev', 'editor', 'edit', 'ClusterRole', 'eve'),
  binding('dev', 'adminer', 'admin', 'ClusterRole', 'ada'),
  binding('dev', 'cm', 'cm-a', 'Role', 'cora'),
  binding('dev', 'ghost', 'missing', 'ClusterRole', 'gus'),
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'cm-a', namespace: 'dev' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['a'] }] } as RoleObject,
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'crd-viewer', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }, rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] }] } as RoleObject,
];

const TABLE: [string, string[], RequestAttributes, boolean][] = [
  ['kubernetes-admin', ['kubeadm:cluster-admins', AUTH], res('delete', 'nodes', undefined, '', 'cka-wk1'), true],
  ['kubernetes-admin', ['kubeadm:cluster-admins', AUTH], { verb: 'get', path: '/metrics' }, true],
  ['jane', [AUTH], res('list', 'pods', 'default'), false],
  ['jane', [AUTH], res('create', 'selfsubjectaccessreviews', undefined, 'authorization.k8s.io'), true],
  ['jane', [AUTH], { verb: 'get', path: '/version' }, true],
  ['jane', [AUTH], { verb: 'get', path: '/apis/apps' }, true],
  ['jane', [AUTH], { verb: 'get', path: '/metrics' }, false],
  ['system:anonymous', ['system:unauthenticated'], { verb: 'get', path: '/healthz' }, true],
  ['system:anonymous', ['system:unauthenticated'], { verb: 'get', path: '/api' }, false],
  ['system:anonymous', ['system:unauthenticated'], res('get', 'configmaps', 'kube-public', '', 'cluster-info'), true],
  ['system:kube-scheduler', [AUTH], res('create', 'pods', 'default', '', 'web', 'binding'), true],
  ['system:kube-scheduler', [AUTH], res('delete', 'pods', 'default', '', 'web'), true],
  ['system:kube-scheduler', [AUTH], res('create', 'pods', 'default'), false],
  ['system:kube-scheduler', [AUTH], res('update', 'leases', 'kube-system', 'coordination.k8s.io', 'kube-scheduler'), true],
  ['system:kube-scheduler', [AUTH], res('update', 'leases', 'kube-system', 'coordination.k8s.io', 'other'), false],
  ['system:kube-controller-manager', [AUTH], res('list', 'secrets', 'prod'), true],
  ['system:kube-controller-manager', [AUTH], res('delete', 'pods', 'prod'), false],
  ['system:serviceaccount:kube-system:kube-proxy', ['system:serviceaccounts', 'system:serviceaccounts:kube-system', AUTH], res('list', 'endpointslices', undefined, 'discovery.k8s.io'), true],
  ['system:serviceaccount:kube-system:kube-proxy', ['system:serviceaccounts', 'system:serviceaccounts:kube-system', AUTH], res('list', 'pods', 'default'), false],
  ['system:serviceaccount:kube-system:coredns', ['system:serviceaccounts', 'system:serviceaccounts:kube-system', AUTH], res('watch', 'namespaces'), true],
  ['system:bootstrap:abcdef', ['system:bootstrappers:kubeadm:default-node-token', AUTH], res('get', 'nodes', undefined, '', 'cka-cp1'), true],
  ['system:bootstrap:abcdef', ['system:bootstrappers:kubeadm:default-node-token', AUTH], res('create', 'certificatesigningrequests', undefined, 'certificates.k8s.io'), true],
  ['val', [AUTH], res('get', 'pods', 'dev', '', 'web', 'log'), true],
  ['val', [AUTH], res('list', 'deployments', 'dev', 'apps'), true],
  ['val', [AUTH], res('get', 'secrets', 'dev'), false],
  ['val', [AUTH], res('create', 'pods', 'dev', '', 'web', 'exec'), false],
  ['val', [AUTH], res('list', 'pods', 'prod'), false],
  ['val', [AUTH], res('get', 'widgets', 'dev', 'example.com'), true],
  ['eve', [AUTH], res('patch', 'deployments', 'dev', 'apps', 'web', 'scale'), true],
  ['eve', [AUTH], res('create', 'pods', 'dev', '', 'web', 'exec'), true],
  ['eve', [AUTH], res('get', 'secrets', 'dev'), true],
  ['eve', [AUTH], res('create', 'roles', 'dev', 'rbac.authorization.k8s.io'), false],
  ['ada', [AUTH], res('create', 'rolebindings', 'dev', 'rbac.authorization.k8s.io'), true],
  ['ada', [AUTH], res('create', 'resourcequotas', 'dev'), false],
  ['cora', [AUTH], res('get', 'configmaps', 'dev', '', 'a'), true],
  ['cora', [AUTH], res('get', 'configmaps', 'dev', '', 'b'), false],
  ['cora', [AUTH], res('list', 'configmaps', 'dev'), false],
];

for (const [user, groups, attrs, want] of TABLE) {
  test(`${user} ${JSON.stringify(attrs)} → ${want ? 'allowed' : 'denied'}`, () => {
    assert.equal(authorize(policy(extra), { username: user, groups }, attrs).allowed, want);
  });
}

test('a binding to a missing role names it in the deny reason', () => {
  const d = authorize(policy(extra), { username: 'gus', groups: [AUTH] }, res('list', 'pods', 'dev'));
  assert.deepEqual(d, { allowed: false, reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "missing" not found' });
});

test('Forbidden texts as the API server words them', () => {
  const u = { username: 'jane', groups: [AUTH] };
  assert.equal(forbiddenText(u, res('list', 'pods', 'dev')), 'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "dev"');
  assert.equal(forbiddenText(u, res('get', 'deployments', 'dev', 'apps', 'web')), 'deployments.apps "web" is forbidden: User "jane" cannot get resource "deployments" in API group "apps" in the namespace "dev"');
  assert.equal(forbiddenText(u, res('list', 'nodes')), 'nodes is forbidden: User "jane" cannot list resource "nodes" in API group "" at the cluster scope');
  assert.equal(forbiddenText(u, res('get', 'pods', 'dev', '', 'web', 'log')), 'pods "web" is forbidden: User "jane" cannot get resource "pods/log" in API group "" in the namespace "dev"');
  assert.equal(forbiddenText(u, { verb: 'get', path: '/metrics' }), 'forbidden: User "jane" cannot get path "/metrics"');
});

test('admin, edit and view are stored with their aggregated rules', () => {
  const p = policy();
  const view = p.clusterRoles.find((c) => c.metadata.name === 'view')!;
  const admin = p.clusterRoles.find((c) => c.metadata.name === 'admin')!;
  assert.ok((view.rules ?? []).length > 0);
  assert.ok((admin.rules ?? []).length > (view.rules ?? []).length);
});
