/**
 * The RBAC objects a kubeadm v1.35 cluster starts with: the API server's bootstrap policy
 * (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go, as recorded in its
 * testdata/cluster-roles.yaml and cluster-role-bindings.yaml; the system:controller:* roles are
 * left out) and what kubeadm adds (cmd/kubeadm/app/phases/bootstraptoken/clusterinfo,
 * .../node, .../kubeconfig EnsureAdminClusterRoleBinding, .../addons/proxy, .../addons/dns).
 * admin, edit and view are stored with the rules the aggregation controller copies into them.
 */
import { effectiveRules, type BindingObject, type PolicyRule, type RoleObject, type Subject } from './rbac.js';

const RBAC = 'rbac.authorization.k8s.io/v1';
const DEFAULTS = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const AUTOUPDATE = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' };

/** `r('apps', 'deployments deployments/scale', 'get list')`; groups comma-separated, '' the core group. */
function r(groups: string, resources: string, verbs: string, names?: string): PolicyRule {
  return { apiGroups: groups.split(','), resources: resources.split(' '), verbs: verbs.split(' '), ...(names ? { resourceNames: names.split(' ') } : {}) };
}
const url = (urls: string, verbs: string): PolicyRule => ({ nonResourceURLs: urls.split(' '), verbs: verbs.split(' ') });

const RW = 'create delete deletecollection patch update';
const RO = 'get list watch';

function cr(name: string, rules: PolicyRule[] | null, opts: { labels?: Record<string, string>; aggregate?: string; kubeadm?: boolean } = {}): RoleObject {
  return {
    apiVersion: RBAC,
    kind: 'ClusterRole',
    metadata: { name, ...(opts.kubeadm ? {} : { annotations: { ...AUTOUPDATE }, labels: { ...DEFAULTS, ...opts.labels } }) },
    ...(opts.aggregate ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [`rbac.authorization.k8s.io/aggregate-to-${opts.aggregate}`]: 'true' } }] } } : {}),
    rules,
  };
}

const user = (name: string): Subject => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name });
const group = (name: string): Subject => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name });
const sa = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace });

function crb(name: string, role: string, subjects: Subject[] | null, kubeadm = false): BindingObject {
  return {
    apiVersion: RBAC,
    kind: 'ClusterRoleBinding',
    metadata: { name, ...(kubeadm ? {} : { annotations: { ...AUTOUPDATE }, labels: { ...DEFAULTS } }) },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    ...(subjects ? { subjects } : {}),
  };
}

function role(namespace: string, name: string, rules: PolicyRule[], bootstrap = false): RoleObject {
  return { apiVersion: RBAC, kind: 'Role', metadata: { name, namespace, ...(bootstrap ? { annotations: { ...AUTOUPDATE }, labels: { ...DEFAULTS } } : {}) }, rules };
}

function rb(namespace: string, name: string, roleName: string, subjects: Subject[]): BindingObject {
  return { apiVersion: RBAC, kind: 'RoleBinding', metadata: { name, namespace }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: roleName }, subjects };
}

function clusterRoles(): RoleObject[] {
  return [
    cr('admin', null, { aggregate: 'admin' }),
    cr('cluster-admin', [r('*', '*', '*'), url('*', '*')]),
    cr('edit', null, { aggregate: 'edit', labels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }),
    cr('system:aggregate-to-admin', [r('authorization.k8s.io', 'localsubjectaccessreviews', 'create'), r('rbac.authorization.k8s.io', 'rolebindings roles', `create delete deletecollection get list patch update watch`)], {
      labels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' },
    }),
    cr(
      'system:aggregate-to-edit',
      [
        r('', 'pods/attach pods/exec pods/portforward pods/proxy secrets services/proxy', RO),
        r('', 'serviceaccounts', 'impersonate'),
        r('', 'pods pods/attach pods/exec pods/portforward pods/proxy', RW),
        r('', 'pods/eviction', 'create'),
        r('', 'configmaps events persistentvolumeclaims replicationcontrollers replicationcontrollers/scale secrets serviceaccounts services services/proxy', RW),
        r('', 'serviceaccounts/token', 'create'),
        r('apps', 'daemonsets deployments deployments/rollback deployments/scale replicasets replicasets/scale statefulsets statefulsets/scale', RW),
        r('autoscaling', 'horizontalpodautoscalers', RW),
        r('batch', 'cronjobs jobs', RW),
        r('extensions', 'daemonsets deployments deployments/rollback deployments/scale ingresses networkpolicies replicasets replicasets/scale replicationcontrollers/scale', RW),
        r('policy', 'poddisruptionbudgets', RW),
        r('networking.k8s.io', 'ingresses networkpolicies', RW),
        r('coordination.k8s.io', 'leases', 'create delete deletecollection get list patch update watch'),
      ],
      { labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } },
    ),
    cr(
      'system:aggregate-to-view',
      [
        r('', 'configmaps endpoints persistentvolumeclaims persistentvolumeclaims/status pods replicationcontrollers replicationcontrollers/scale serviceaccounts services services/status', RO),
        r('', 'bindings events limitranges namespaces/status pods/log pods/status replicationcontrollers/status resourcequotas resourcequotas/status', RO),
        r('', 'namespaces', RO),
        r('discovery.k8s.io', 'endpointslices', RO),
        r('apps', 'controllerrevisions daemonsets daemonsets/status deployments deployments/scale deployments/status replicasets replicasets/scale replicasets/status statefulsets statefulsets/scale statefulsets/status', RO),
        r('autoscaling', 'horizontalpodautoscalers horizontalpodautoscalers/status', RO),
        r('batch', 'cronjobs cronjobs/status jobs jobs/status', RO),
        r('extensions', 'daemonsets daemonsets/status deployments deployments/scale deployments/status ingresses ingresses/status networkpolicies replicasets replicasets/scale replicasets/status replicationcontrollers/scale', RO),
        r('policy', 'poddisruptionbudgets poddisruptionbudgets/status', RO),
        r('networking.k8s.io', 'ingresses ingresses/status networkpolicies', RO),
      ],
      { labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
    ),
    cr('system:auth-delegator', [r('authentication.k8s.io', 'tokenreviews', 'create'), r('authorization.k8s.io', 'subjectaccessreviews', 'create')]),
    cr('system:basic-user', [r('authorization.k8s.io', 'selfsubjectaccessreviews selfsubjectrulesreviews', 'create'), r('authentication.k8s.io', 'selfsubjectreviews', 'create')]),
    cr('system:certificates.k8s.io:certificatesigningrequests:nodeclient', [r('certificates.k8s.io', 'certificatesigningrequests/nodeclient', 'create')]),
    cr('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [r('certificates.k8s.io', 'certificatesigningrequests/selfnodeclient', 'create')]),
    cr('system:certificates.k8s.io:kube-apiserver-client-approver', [r('certificates.k8s.io', 'signers', 'approve', 'kubernetes.io/kube-apiserver-client')]),
    cr('system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', [r('certificates.k8s.io', 'signers', 'approve', 'kubernetes.io/kube-apiserver-client-kubelet')]),
    cr('system:certificates.k8s.io:kubelet-serving-approver', [r('certificates.k8s.io', 'signers', 'approve', 'kubernetes.io/kubelet-serving')]),
    cr('system:certificates.k8s.io:legacy-unknown-approver', [r('certificates.k8s.io', 'signers', 'approve', 'kubernetes.io/legacy-unknown')]),
    cr('system:discovery', [url('/api /api/* /apis /apis/* /healthz /livez /openapi /openapi/* /readyz /version /version/', 'get')]),
    cr('system:heapster', [r('', 'events namespaces nodes pods', RO), r('extensions', 'deployments', RO)]),
    cr('system:kube-aggregator', [r('', 'endpoints services', RO)]),
    cr('system:kube-controller-manager', [
      r(',events.k8s.io', 'events', 'create patch update'),
      r('coordination.k8s.io', 'leases', 'create'),
      r('coordination.k8s.io', 'leases', 'get update', 'kube-controller-manager'),
      r('', 'secrets serviceaccounts', 'create'),
      r('', 'secrets', 'delete'),
      r('', 'configmaps namespaces secrets serviceaccounts', 'get'),
      r('', 'secrets serviceaccounts', 'update'),
      r('authentication.k8s.io', 'tokenreviews', 'create'),
      r('authorization.k8s.io', 'subjectaccessreviews', 'create'),
      r('*', '*', 'list watch'),
      r('', 'serviceaccounts/token', 'create'),
    ]),
    cr('system:kube-dns', [r('', 'endpoints services', 'list watch')]),
    cr('system:kube-scheduler', [
      r(',events.k8s.io', 'events', 'create patch update'),
      r('coordination.k8s.io', 'leases', 'create'),
      r('coordination.k8s.io', 'leases', 'get update', 'kube-scheduler'),
      r('', 'nodes', RO),
      r('', 'pods', 'delete get list watch'),
      r('', 'bindings pods/binding', 'create'),
      r('', 'pods/status', 'patch update'),
      r('', 'replicationcontrollers services', RO),
      r('apps,extensions', 'replicasets', RO),
      r('apps', 'statefulsets', RO),
      r('policy', 'poddisruptionbudgets', RO),
      r('', 'persistentvolumeclaims persistentvolumes', RO),
      r('authentication.k8s.io', 'tokenreviews', 'create'),
      r('authorization.k8s.io', 'subjectaccessreviews', 'create'),
      r('storage.k8s.io', 'csinodes', RO),
      r('', 'namespaces', RO),
      r('storage.k8s.io', 'csidrivers', RO),
      r('storage.k8s.io', 'csistoragecapacities', RO),
    ]),
    cr('system:kubelet-api-admin', [r('', 'nodes', RO), r('', 'nodes', 'proxy'), r('', 'nodes/log nodes/metrics nodes/proxy nodes/stats', '*')]),
    cr('system:monitoring', [url('/healthz /healthz/* /livez /livez/* /metrics /metrics/slis /readyz /readyz/*', 'get')]),
    cr('system:node', [
      r('authentication.k8s.io', 'tokenreviews', 'create'),
      r('authorization.k8s.io', 'localsubjectaccessreviews subjectaccessreviews', 'create'),
      r('', 'services', RO),
      r('', 'nodes', 'create get list watch'),
      r('', 'nodes/status', 'patch update'),
      r('', 'nodes', 'patch update'),
      r('', 'events', 'create patch update'),
      r('', 'pods', RO),
      r('', 'pods', 'create delete'),
      r('', 'pods/status', 'patch update'),
      r('', 'pods/eviction', 'create'),
      r('', 'configmaps secrets', RO),
      r('', 'persistentvolumeclaims persistentvolumes', 'get'),
      r('', 'endpoints', 'get'),
      r('certificates.k8s.io', 'certificatesigningrequests', 'create get list watch'),
      r('coordination.k8s.io', 'leases', 'create delete get patch update'),
      r('storage.k8s.io', 'volumeattachments', 'get'),
      r('', 'serviceaccounts/token', 'create'),
      r('', 'persistentvolumeclaims/status', 'get patch update'),
      r('storage.k8s.io', 'csidrivers', RO),
      r('storage.k8s.io', 'csinodes', 'create delete get patch update'),
      r('node.k8s.io', 'runtimeclasses', RO),
    ]),
    cr('system:node-bootstrapper', [r('certificates.k8s.io', 'certificatesigningrequests', 'create get list watch')]),
    cr('system:node-problem-detector', [r('', 'nodes', 'get'), r('', 'nodes/status', 'patch'), r(',events.k8s.io', 'events', 'create patch update')]),
    cr('system:node-proxier', [r('', 'endpoints services', 'list watch'), r('', 'nodes', RO), r(',events.k8s.io', 'events', 'create patch update'), r('discovery.k8s.io', 'endpointslices', 'list watch')]),
    cr('system:persistent-volume-provisioner', [
      r('', 'persistentvolumes', 'create delete get list watch'),
      r('', 'persistentvolumeclaims', 'get list update watch'),
      r('storage.k8s.io', 'storageclasses', RO),
      r('', 'events', 'watch'),
      r(',events.k8s.io', 'events', 'create patch update'),
    ]),
    cr('system:public-info-viewer', [url('/healthz /livez /readyz /version /version/', 'get')]),
    cr('system:service-account-issuer-discovery', [url('/.well-known/openid-configuration /openid/v1/jwks', 'get')]),
    cr('system:volume-scheduler', [r('', 'persistentvolumes', 'get list patch update watch'), r('storage.k8s.io', 'storageclasses', RO), r('', 'persistentvolumeclaims', 'get list patch update watch')]),
    cr('view', null, { aggregate: 'view', labels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } }),
    // kubeadm's own
    cr('kubeadm:get-nodes', [r('', 'nodes', 'get')], { kubeadm: true }),
    cr('system:coredns', [r('', 'endpoints services pods namespaces', 'list watch'), r('discovery.k8s.io', 'endpointslices', 'list watch')], { kubeadm: true }),
  ];
}

const BOOTSTRAP_TOKEN_GROUP = 'system:bootstrappers:kubeadm:default-node-token';

function clusterRoleBindings(): BindingObject[] {
  return [
    crb('cluster-admin', 'cluster-admin', [group('system:masters')]),
    crb('kubeadm:cluster-admins', 'cluster-admin', [group('kubeadm:cluster-admins')], true),
    crb('kubeadm:get-nodes', 'kubeadm:get-nodes', [group(BOOTSTRAP_TOKEN_GROUP)], true),
    crb('kubeadm:kubelet-bootstrap', 'system:node-bootstrapper', [group(BOOTSTRAP_TOKEN_GROUP)], true),
    crb('kubeadm:node-autoapprove-bootstrap', 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', [group(BOOTSTRAP_TOKEN_GROUP)], true),
    crb('kubeadm:node-autoapprove-certificate-rotation', 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [group('system:nodes')], true),
    crb('kubeadm:node-proxier', 'system:node-proxier', [sa('kube-system', 'kube-proxy')], true),
    crb('system:basic-user', 'system:basic-user', [group('system:authenticated')]),
    crb('system:coredns', 'system:coredns', [sa('kube-system', 'coredns')], true),
    crb('system:discovery', 'system:discovery', [group('system:authenticated')]),
    crb('system:kube-controller-manager', 'system:kube-controller-manager', [user('system:kube-controller-manager')]),
    crb('system:kube-dns', 'system:kube-dns', [sa('kube-system', 'kube-dns')]),
    crb('system:kube-scheduler', 'system:kube-scheduler', [user('system:kube-scheduler')]),
    crb('system:monitoring', 'system:monitoring', [group('system:monitoring')]),
    crb('system:node', 'system:node', null),
    crb('system:node-proxier', 'system:node-proxier', [user('system:kube-proxy')]),
    crb('system:public-info-viewer', 'system:public-info-viewer', [group('system:authenticated'), group('system:unauthenticated')]),
    crb('system:service-account-issuer-discovery', 'system:service-account-issuer-discovery', [group('system:serviceaccounts')]),
    crb('system:volume-scheduler', 'system:volume-scheduler', [user('system:kube-scheduler')]),
  ];
}

function namespaced(): KObjectList {
  return [
    role('kube-system', 'extension-apiserver-authentication-reader', [r('', 'configmaps', RO, 'extension-apiserver-authentication')], true),
    role('kube-system', 'kube-proxy', [r('', 'configmaps', 'get', 'kube-proxy')]),
    role('kube-system', 'kubeadm:kubelet-config', [r('', 'configmaps', 'get', 'kubelet-config')]),
    role('kube-system', 'kubeadm:nodes-kubeadm-config', [r('', 'configmaps', 'get', 'kubeadm-config')]),
    role('kube-public', 'kubeadm:bootstrap-signer-clusterinfo', [r('', 'configmaps', 'get', 'cluster-info')]),
    rb('kube-system', 'kube-proxy', 'kube-proxy', [group(BOOTSTRAP_TOKEN_GROUP)]),
    rb('kube-system', 'kubeadm:kubelet-config', 'kubeadm:kubelet-config', [group('system:nodes'), group(BOOTSTRAP_TOKEN_GROUP)]),
    rb('kube-system', 'kubeadm:nodes-kubeadm-config', 'kubeadm:nodes-kubeadm-config', [group(BOOTSTRAP_TOKEN_GROUP), group('system:nodes')]),
    rb('kube-public', 'kubeadm:bootstrap-signer-clusterinfo', 'kubeadm:bootstrap-signer-clusterinfo', [user('system:anonymous')]),
  ];
}

type KObjectList = (RoleObject | BindingObject)[];

/** Every RBAC object of a new kubeadm cluster, aggregated roles filled in. */
export function bootstrapRbac(): KObjectList {
  const roles = clusterRoles();
  const filled = roles.map((c) => (c.aggregationRule ? { ...c, rules: effectiveRules(c, roles) } : c));
  return [...filled, ...clusterRoleBindings(), ...namespaced()];
}
