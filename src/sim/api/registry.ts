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
  /** Discovery verbs when the registry offers fewer than the full set (see verbsOf). */
  verbs?: readonly string[];
}

const R = (
  kind: string,
  resource: string,
  group: string,
  version: string,
  namespaced: boolean,
  shortNames: readonly string[] = [],
  all = false,
  extra: Pick<ResourceInfo, 'verbs' | 'categories'> = {},
): ResourceInfo => ({ kind, resource, singular: kind.toLowerCase(), group, version, namespaced, shortNames, all, ...extra });

/** The create-only review resources (TokenReview, SubjectAccessReview, …) and Binding. */
const CREATE_ONLY = { verbs: ['create'] } as const;
/** Category of the API-extension kinds (CRDs, APIServices, admission configuration). */
const API_EXT = { categories: ['api-extensions'] } as const;

/**
 * The resources a default kubeadm v1.35 kube-apiserver serves (GA groups and the beta resources on
 * by default; none is beta in 1.35, so MutatingAdmissionPolicy, ClusterTrustBundle, LeaseCandidate
 * and the like stay off). Discovery order: the core group first, then the groups by their aggregator
 * priority (cmd/kube-apiserver/app/aggregator.go apiVersionPriorities, as /apis lists them);
 * alphabetical within a group. Verbs and categories follow the groups' discovery documents
 * (api/discovery/*.json); `kubectl api-resources` sorts by group itself.
 */
export const RESOURCES: readonly ResourceInfo[] = [
  R('Binding', 'bindings', '', 'v1', true, [], false, CREATE_ONLY),
  R('ComponentStatus', 'componentstatuses', '', 'v1', false, ['cs'], false, { verbs: ['get', 'list'] }),
  R('ConfigMap', 'configmaps', '', 'v1', true, ['cm']),
  R('Endpoints', 'endpoints', '', 'v1', true, ['ep']),
  R('Event', 'events', '', 'v1', true, ['ev']),
  R('LimitRange', 'limitranges', '', 'v1', true, ['limits']),
  R('Namespace', 'namespaces', '', 'v1', false, ['ns'], false, { verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] }),
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
  R('APIService', 'apiservices', 'apiregistration.k8s.io', 'v1', false, [], false, API_EXT),
  R('ControllerRevision', 'controllerrevisions', 'apps', 'v1', true),
  R('DaemonSet', 'daemonsets', 'apps', 'v1', true, ['ds'], true),
  R('Deployment', 'deployments', 'apps', 'v1', true, ['deploy'], true),
  R('ReplicaSet', 'replicasets', 'apps', 'v1', true, ['rs'], true),
  R('StatefulSet', 'statefulsets', 'apps', 'v1', true, ['sts'], true),
  // events.k8s.io serves the core Events under a second schema; `events`/`ev` resolve to the core group first
  R('Event', 'events', 'events.k8s.io', 'v1', true, ['ev']),
  R('SelfSubjectReview', 'selfsubjectreviews', 'authentication.k8s.io', 'v1', false, [], false, CREATE_ONLY),
  R('TokenReview', 'tokenreviews', 'authentication.k8s.io', 'v1', false, [], false, CREATE_ONLY),
  R('LocalSubjectAccessReview', 'localsubjectaccessreviews', 'authorization.k8s.io', 'v1', true, [], false, CREATE_ONLY),
  R('SelfSubjectAccessReview', 'selfsubjectaccessreviews', 'authorization.k8s.io', 'v1', false, [], false, CREATE_ONLY),
  R('SelfSubjectRulesReview', 'selfsubjectrulesreviews', 'authorization.k8s.io', 'v1', false, [], false, CREATE_ONLY),
  R('SubjectAccessReview', 'subjectaccessreviews', 'authorization.k8s.io', 'v1', false, [], false, CREATE_ONLY),
  R('HorizontalPodAutoscaler', 'horizontalpodautoscalers', 'autoscaling', 'v2', true, ['hpa'], true),
  R('CronJob', 'cronjobs', 'batch', 'v1', true, ['cj'], true),
  R('Job', 'jobs', 'batch', 'v1', true, [], true),
  R('CertificateSigningRequest', 'certificatesigningrequests', 'certificates.k8s.io', 'v1', false, ['csr']),
  R('IngressClass', 'ingressclasses', 'networking.k8s.io', 'v1', false),
  R('Ingress', 'ingresses', 'networking.k8s.io', 'v1', true, ['ing']),
  R('IPAddress', 'ipaddresses', 'networking.k8s.io', 'v1', false, ['ip']),
  R('NetworkPolicy', 'networkpolicies', 'networking.k8s.io', 'v1', true, ['netpol']),
  R('ServiceCIDR', 'servicecidrs', 'networking.k8s.io', 'v1', false),
  R('PodDisruptionBudget', 'poddisruptionbudgets', 'policy', 'v1', true, ['pdb']),
  R('ClusterRoleBinding', 'clusterrolebindings', 'rbac.authorization.k8s.io', 'v1', false),
  R('ClusterRole', 'clusterroles', 'rbac.authorization.k8s.io', 'v1', false),
  R('RoleBinding', 'rolebindings', 'rbac.authorization.k8s.io', 'v1', true),
  R('Role', 'roles', 'rbac.authorization.k8s.io', 'v1', true),
  R('CSIDriver', 'csidrivers', 'storage.k8s.io', 'v1', false),
  R('CSINode', 'csinodes', 'storage.k8s.io', 'v1', false),
  R('CSIStorageCapacity', 'csistoragecapacities', 'storage.k8s.io', 'v1', true),
  R('StorageClass', 'storageclasses', 'storage.k8s.io', 'v1', false, ['sc']),
  R('VolumeAttachment', 'volumeattachments', 'storage.k8s.io', 'v1', false),
  R('VolumeAttributesClass', 'volumeattributesclasses', 'storage.k8s.io', 'v1', false, ['vac']),
  R('MutatingWebhookConfiguration', 'mutatingwebhookconfigurations', 'admissionregistration.k8s.io', 'v1', false, [], false, API_EXT),
  R('ValidatingAdmissionPolicy', 'validatingadmissionpolicies', 'admissionregistration.k8s.io', 'v1', false, [], false, API_EXT),
  R('ValidatingAdmissionPolicyBinding', 'validatingadmissionpolicybindings', 'admissionregistration.k8s.io', 'v1', false, [], false, API_EXT),
  R('ValidatingWebhookConfiguration', 'validatingwebhookconfigurations', 'admissionregistration.k8s.io', 'v1', false, [], false, API_EXT),
  R('CustomResourceDefinition', 'customresourcedefinitions', 'apiextensions.k8s.io', 'v1', false, ['crd', 'crds'], false, API_EXT),
  R('PriorityClass', 'priorityclasses', 'scheduling.k8s.io', 'v1', false, ['pc']),
  R('Lease', 'leases', 'coordination.k8s.io', 'v1', true),
  R('RuntimeClass', 'runtimeclasses', 'node.k8s.io', 'v1', false),
  R('EndpointSlice', 'endpointslices', 'discovery.k8s.io', 'v1', true),
  R('FlowSchema', 'flowschemas', 'flowcontrol.apiserver.k8s.io', 'v1', false),
  R('PriorityLevelConfiguration', 'prioritylevelconfigurations', 'flowcontrol.apiserver.k8s.io', 'v1', false),
  R('DeviceClass', 'deviceclasses', 'resource.k8s.io', 'v1', false),
  R('ResourceClaim', 'resourceclaims', 'resource.k8s.io', 'v1', true),
  R('ResourceClaimTemplate', 'resourceclaimtemplates', 'resource.k8s.io', 'v1', true),
  R('ResourceSlice', 'resourceslices', 'resource.k8s.io', 'v1', false),
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

  /**
   * The resources a short name also names beyond the one it resolves to, as `resource.group`
   * (client-go restmapper shortcut.go expandResourceShortcut: the first match in discovery's
   * priority order wins, and each later one with another group or resource is "a lower priority
   * resource" kubectl warns about). `ev` is the core events and also events.events.k8s.io. A
   * `short.group` argument names its group, so nothing else matches.
   */
  shortNameAlternatives(arg: string): string[] {
    const a = arg.toLowerCase();
    if (a.includes('.')) return [];
    const matches = this.resources.filter((r) => r.shortNames.includes(a));
    const first = matches[0];
    if (!first) return [];
    const out: string[] = [];
    for (const r of matches.slice(1)) {
      if (r.group === first.group && r.resource === first.resource) continue;
      const long = r.group ? `${r.resource}.${r.group}` : r.resource;
      if (!out.includes(long)) out.push(long);
    }
    return out;
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

/** Every verb a full generic registry store serves (rest.Storage of genericregistry.Store). */
export const ALL_VERBS: readonly string[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** The verbs discovery lists for a resource (apiresources `-o wide` VERBS, the REST discovery documents). */
export function verbsOf(info: ResourceInfo): readonly string[] {
  return info.verbs ?? ALL_VERBS;
}

/** The discovery categories of a resource: a CRD's own, `all` for the built-ins in it, or those of its registry. */
export function categoriesOf(info: ResourceInfo): readonly string[] {
  return info.categories ?? (info.all ? ['all'] : []);
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
