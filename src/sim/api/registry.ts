/**
 * Resource registry: every kind the simulated API server serves, with the names kubectl resolves
 * (plural, singular, kind, `resource.group`, short names) and whether it is namespaced.
 * Short names and discovery order follow a default v1.35 apiserver's discovery documents
 * (kubernetes/kubernetes api/discovery/aggregated_v2.json; ../shared/reference/kubectl.md §7).
 */

export interface ResourceInfo {
  kind: string;
  /** Lower-case plural resource name, e.g. `deployments`. */
  resource: string;
  singular: string;
  /** API group; '' for core. */
  group: string;
  version: string;
  namespaced: boolean;
  shortNames: readonly string[];
  /** In the `all` category (`kubectl get all`). */
  all?: boolean;
}

const R = (
  kind: string,
  resource: string,
  group: string,
  version: string,
  namespaced: boolean,
  shortNames: readonly string[] = [],
  all = false,
): ResourceInfo => ({ kind, resource, singular: kind.toLowerCase(), group, version, namespaced, shortNames, all });

/** Discovery order: core group first, then groups as a v1.35 server lists them; alphabetical within a group. */
export const RESOURCES: readonly ResourceInfo[] = [
  R('Binding', 'bindings', '', 'v1', true),
  R('ComponentStatus', 'componentstatuses', '', 'v1', false, ['cs']),
  R('ConfigMap', 'configmaps', '', 'v1', true, ['cm']),
  R('Endpoints', 'endpoints', '', 'v1', true, ['ep']),
  R('Event', 'events', '', 'v1', true, ['ev']),
  R('LimitRange', 'limitranges', '', 'v1', true, ['limits']),
  R('Namespace', 'namespaces', '', 'v1', false, ['ns']),
  R('Node', 'nodes', '', 'v1', false, ['no']),
  R('PersistentVolumeClaim', 'persistentvolumeclaims', '', 'v1', true, ['pvc']),
  R('PersistentVolume', 'persistentvolumes', '', 'v1', false, ['pv']),
  R('Pod', 'pods', '', 'v1', true, ['po'], true),
  R('PodTemplate', 'podtemplates', '', 'v1', true),
  R('ReplicationController', 'replicationcontrollers', '', 'v1', true, ['rc'], true),
  R('ResourceQuota', 'resourcequotas', '', 'v1', true, ['quota']),
  R('Secret', 'secrets', '', 'v1', true),
  R('ServiceAccount', 'serviceaccounts', '', 'v1', true, ['sa']),
  R('Service', 'services', '', 'v1', true, ['svc'], true),
  // groupPriorityMinimum 18000, as the core group's: listed right after it
  R('APIService', 'apiservices', 'apiregistration.k8s.io', 'v1', false),
  R('ControllerRevision', 'controllerrevisions', 'apps', 'v1', true),
  R('DaemonSet', 'daemonsets', 'apps', 'v1', true, ['ds'], true),
  R('Deployment', 'deployments', 'apps', 'v1', true, ['deploy'], true),
  R('ReplicaSet', 'replicasets', 'apps', 'v1', true, ['rs'], true),
  R('StatefulSet', 'statefulsets', 'apps', 'v1', true, ['sts'], true),
  R('HorizontalPodAutoscaler', 'horizontalpodautoscalers', 'autoscaling', 'v2', true, ['hpa'], true),
  R('CronJob', 'cronjobs', 'batch', 'v1', true, ['cj'], true),
  R('Job', 'jobs', 'batch', 'v1', true, [], true),
  R('CertificateSigningRequest', 'certificatesigningrequests', 'certificates.k8s.io', 'v1', false, ['csr']),
  R('Lease', 'leases', 'coordination.k8s.io', 'v1', true),
  R('EndpointSlice', 'endpointslices', 'discovery.k8s.io', 'v1', true),
  R('IngressClass', 'ingressclasses', 'networking.k8s.io', 'v1', false),
  R('Ingress', 'ingresses', 'networking.k8s.io', 'v1', true, ['ing']),
  R('NetworkPolicy', 'networkpolicies', 'networking.k8s.io', 'v1', true, ['netpol']),
  R('ServiceCIDR', 'servicecidrs', 'networking.k8s.io', 'v1', false),
  R('PodDisruptionBudget', 'poddisruptionbudgets', 'policy', 'v1', true, ['pdb']),
  R('ClusterRoleBinding', 'clusterrolebindings', 'rbac.authorization.k8s.io', 'v1', false),
  R('ClusterRole', 'clusterroles', 'rbac.authorization.k8s.io', 'v1', false),
  R('RoleBinding', 'rolebindings', 'rbac.authorization.k8s.io', 'v1', true),
  R('Role', 'roles', 'rbac.authorization.k8s.io', 'v1', true),
  R('PriorityClass', 'priorityclasses', 'scheduling.k8s.io', 'v1', false, ['pc']),
  R('StorageClass', 'storageclasses', 'storage.k8s.io', 'v1', false, ['sc']),
  R('CustomResourceDefinition', 'customresourcedefinitions', 'apiextensions.k8s.io', 'v1', false, ['crd', 'crds']),
  R('BlockAffinity', 'blockaffinities', 'crd.projectcalico.org', 'v1', false),
  R('IPPool', 'ippools', 'crd.projectcalico.org', 'v1', false),
  // Gateway API standard channel (kubernetes-sigs/gateway-api config/crd/standard, v1.2):
  // names, scope and short names as the CRDs declare them; ReferenceGrant is served as v1beta1.
  R('GatewayClass', 'gatewayclasses', 'gateway.networking.k8s.io', 'v1', false, ['gc']),
  R('Gateway', 'gateways', 'gateway.networking.k8s.io', 'v1', true, ['gtw']),
  R('HTTPRoute', 'httproutes', 'gateway.networking.k8s.io', 'v1', true),
  R('ReferenceGrant', 'referencegrants', 'gateway.networking.k8s.io', 'v1beta1', true, ['refgrant']),
];

const byKind = new Map<string, ResourceInfo>(RESOURCES.map((r) => [r.kind, r]));

/** The registry entry of a kind; throws for a kind the simulation does not serve (a programming error). */
export function infoForKind(kind: string): ResourceInfo {
  const info = byKind.get(kind);
  if (!info) throw new Error(`unknown kind ${kind}`);
  return info;
}

export function hasKind(kind: string): boolean {
  return byKind.has(kind);
}

/** `apps/v1`, or `v1` for the core group. */
export function apiVersionOf(info: ResourceInfo): string {
  return info.group ? `${info.group}/${info.version}` : info.version;
}

/** `pods`, `deployments.apps`: the qualified resource in server messages (errors.go). */
export function qualifiedResource(info: ResourceInfo): string {
  return info.group ? `${info.resource}.${info.group}` : info.resource;
}

/** `Pod`, `Deployment.apps`: the qualified kind in Invalid messages. */
export function qualifiedKind(info: ResourceInfo): string {
  return info.group ? `${info.kind}.${info.group}` : info.kind;
}

/** `pod`, `deployment.apps`: the prefix kubectl prints in `<kind>.<group>/<name> created`. */
export function kindPrefix(info: ResourceInfo): string {
  const k = info.kind.toLowerCase();
  return info.group ? `${k}.${info.group}` : k;
}

/**
 * Resolve what a user typed (`po`, `pods`, `Pod`, `deployments.apps`, `deploy`) as kubectl does
 * against discovery. Returns undefined when the server has no such type.
 */
export function resolveResource(arg: string): ResourceInfo | undefined {
  const a = arg.toLowerCase();
  const dot = a.indexOf('.');
  if (dot > 0) {
    const name = a.slice(0, dot);
    const group = a.slice(dot + 1);
    const hit = RESOURCES.find(
      (r) => (r.resource === name || r.singular === name || r.shortNames.includes(name)) && (r.group === group || `${r.version}.${r.group}` === group),
    );
    if (hit) return hit;
  }
  return (
    RESOURCES.find((r) => r.resource === a) ??
    RESOURCES.find((r) => r.singular === a) ??
    RESOURCES.find((r) => r.shortNames.includes(a))
  );
}
