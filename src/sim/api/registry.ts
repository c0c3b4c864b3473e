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
  /** Discovery categories (a CRD's spec.names.categories; built-ins use `all`). */
  categories?: readonly string[];
  /** For a custom resource: the name of the CustomResourceDefinition that serves it. */
  crd?: string;
  /** For a custom resource: every served version, preferred first (`version` is the first). */
  servedVersions?: readonly string[];
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
];

/**
 * What the server serves at one moment: the built-in resources followed by those of every
 * Established CustomResourceDefinition (sim/api/crd.ts `discoveryOf` builds it from the store).
 * Lookups are by kind, as the store keys objects: a custom kind that repeats a served kind is
 * shadowed by the earlier one.
 */
export class Discovery {
  private readonly byKind = new Map<string, ResourceInfo>();

  constructor(readonly resources: readonly ResourceInfo[]) {
    for (const r of resources) if (!this.byKind.has(r.kind)) this.byKind.set(r.kind, r);
  }

  /** The entry of a kind; throws for a kind the server does not serve (a programming error). */
  infoForKind(kind: string): ResourceInfo {
    const info = this.byKind.get(kind);
    if (!info) throw new Error(`unknown kind ${kind}`);
    return info;
  }

  hasKind(kind: string): boolean {
    return this.byKind.has(kind);
  }

  /**
   * Resolve what a user typed (`po`, `pods`, `Pod`, `deployments.apps`, `deploy`, `crontabs.stable.example.com`)
   * as kubectl's RESTMapper does against discovery. Returns undefined when the server has no such type.
   */
  resolve(arg: string): ResourceInfo | undefined {
    const a = arg.toLowerCase();
    const rs = this.resources;
    const dot = a.indexOf('.');
    if (dot > 0) {
      const name = a.slice(0, dot);
      const group = a.slice(dot + 1);
      const hit = rs.find(
        (r) =>
          (r.resource === name || r.singular === name || r.kind.toLowerCase() === name || r.shortNames.includes(name)) &&
          (r.group === group || (r.servedVersions ?? [r.version]).some((v) => `${v}.${r.group}` === group)),
      );
      if (hit) return hit;
    }
    return (
      rs.find((r) => r.resource === a) ??
      rs.find((r) => r.singular === a) ??
      rs.find((r) => r.kind.toLowerCase() === a) ??
      rs.find((r) => r.shortNames.includes(a))
    );
  }

  /** The resources of a category (`all`, or a CRD's own such as `calico`), in discovery order. */
  category(name: string): ResourceInfo[] {
    const n = name.toLowerCase();
    return this.resources.filter((r) => (n === 'all' && r.all === true) || (r.categories ?? []).includes(n));
  }
}

/** The built-in resources alone: what a server with no CustomResourceDefinitions serves. */
export const BUILTIN = new Discovery(RESOURCES);

/** The built-in entry of a kind (code that only handles built-in kinds); see Discovery.infoForKind. */
export function infoForKind(kind: string, d: Discovery = BUILTIN): ResourceInfo {
  return d.infoForKind(kind);
}

export function hasKind(kind: string, d: Discovery = BUILTIN): boolean {
  return d.hasKind(kind);
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

/** Resolve what a user typed against discovery (built-ins unless given); see Discovery.resolve. */
export function resolveResource(arg: string, d: Discovery = BUILTIN): ResourceInfo | undefined {
  return d.resolve(arg);
}
