/**
 * The simulated kube-apiserver: the only way users (kubectl, the scenario engine) change the
 * cluster. It applies the registry's strategy for each kind (defaulting, validation with the real
 * wording, ClusterIP/NodePort allocation, immutable fields), namespace admission, resourceVersion
 * conflicts and graceful deletion, then lets the controllers settle.
 *
 * When the kube-apiserver static pod is not running, every call fails with kubectl's
 * "connection refused" text, as on a real node whose API server is down.
 */
import { sameCanonicalJSON } from '../util/canonical-json.js';
import { remember } from '../util/bounded-map.js';
import { sameItems } from '../util/same-items.js';
import { rfc3339 } from '../util/clock.js';
import { ApplyConflictError, applyConfig, conflictsAllowedByLastApplied, LAST_APPLIED, recordUpdate, withoutManagedFields, managedFieldsOf, syncLastApplied, type Json, type ManagedFieldsEntry } from './api/managed-fields.js';
import type { Cluster } from './cluster.js';
import {
  ApiError,
  ConnectionRefusedError,
  UnableToConnectError,
  type DialContext,
  type FieldError,
  alreadyExists,
  badRequest,
  conflict,
  field,
  forbidden,
  invalid,
  notFound,
} from './api/errors.js';
import { clone, type Store } from './api/store.js';
import { qualifiedResource, verbsOf, type Discovery, type ResourceInfo } from './api/registry.js';
import { crdVersion, defaultCrd, type CustomResourceDefinition } from './api/crd.js';
import { goQuote } from '../util/go-quote.js';
import { BUILTIN_SCALABLE, customScale, customScaleErrors, scaleOf, scalePatchError, writePath, type Scale, type ScalePaths } from './api/scale.js';
import { applySchemaDefaults, pruneNonNullableNulls, pruneUnknownFields, validateCustomResource, type JSONSchemaProps } from './api/crd-schema.js';
import type { Container, CronJob, DaemonSet, Deployment, Job, KObject, Namespace, Pod, Service, ServicePort } from './api/types.js';
import { applyDefaults } from './api/defaults.js';
import { generateJobSelector } from './api/job-selector.js';
import { decodeObject, type FieldValidation, unknownFieldWarning } from './api/decode.js';
import { daemonSetStrategyErrors, deploymentStrategyErrors } from './api/validation-rollout.js';
import { immutableSelector, inclusiveRange, nameRuleForKind, validateAnnotations, validateLabels, validateName, validatePodSpecFields, validateFinalizers, finalizerWarnings, qualifiedNameProblems } from './api/validation.js';
import { podReady, type PodDisruptionBudget } from './controllers/disruption.js';
import { validateCrd } from './api/validation-crd.js';
import { validateCronJob, validateJob } from './api/validation-batch.js';
import { validatePriorityClass, type PriorityClass } from './api/priority.js';
import { checkRequestBody, checkStoredSize, validateDataSize } from './api/size-limits.js';
import { matchLabelSelector } from './api/selectors.js';
import { nodePortRange, serviceCIDR } from './controlplane.js';
import { nodeView, virtualObjects } from './virtual-objects.js';
import { allocatorIPAddressDeleted } from './controllers/ipallocator-repair.js';
import { validateIPAddress, validateIPAddressName } from './api/validation-ipaddress.js';
import { prepareStatusUpdate, statusUpdateErrors } from './api/validation-status.js';
import { priorityClassValue } from './controllers/util.js';
import { defaultAutoscaler } from './api/autoscaling.js';
import { admitClaimResize, admitStorageCreate, validateClaimUpdate, type PersistentVolumeClaim } from './api/storage.js';
import { admitMutating, admitValidating, type AdmissionAttributes } from './api/admission/index.js';
import { defaultLimitRange, type LimitRange } from './api/admission/limitranger.js';
import { allocatorRangeContains, ipFamilyOf, rangeAddress, type IPRange } from '../util/ip.js';
import { clusterIPsOf, dropTypeDependentFields, initIPFamilyFields, normalizeClusterIPs, patchAllocatedClusterIPs, serviceRanges, validateClusterIPsRelated, validateFamilyUpdate } from './api/service-families.js';
import { decideByRules, forbiddenText, isPrivileged, requestNamespace, rulesFor, type BoundRules, type Decision, type RbacPolicy, type RequestAttributes, type UserInfo } from './api/rbac.js';
import { authenticateRemembered, impersonatedUser, type Credentials } from './authn.js';
import { deleteForeground } from './controllers/garbage-collector.js';
import { markCrdDeleted } from './controllers/crd-finalizer.js';
import { dial, parseServer, resolvedAddress, type ClientEndpoint, type DialFailure } from './dial.js';
import { FOREGROUND_FINALIZER, hasFinalizers, newFinalizersError, STANDARD_FINALIZERS } from './api/deletion.js';

/**
 * Who a client is (kubectl passes its kubeconfig's credentials and `--as`/`--as-group`). An
 * ApiServer without one serves the control plane's own clients (controllers, fixtures, the
 * grader), which are always allowed.
 */
export interface ClientContext {
  credentials: Credentials;
  impersonate?: { user: string; groups: string[] };
  /** How updates are authorized: kubectl apply/patch/edit/label… send PATCH, replace sends PUT. */
  updateVerb?: 'update' | 'patch';
  /** The field manager of this client's writes when a request names none (kubectl's `--field-manager` default). */
  fieldManager?: string;
  /** Where the client connects from (host name) and to (its kubeconfig's cluster entry); absent: the cluster's own endpoint, trusted. */
  endpoint?: ClientEndpoint & { from: string; discoveryCached: boolean };
}

export interface WriteOptions {
  dryRun?: boolean;
  /**
   * How unknown fields are treated (the `fieldValidation` query parameter kubectl sets from
   * `--validate`): Strict rejects the write, Warn drops them with a warning each, Ignore drops
   * them silently. Callers inside the simulator (fixtures, scenario setup) default to Strict so a
   * mistyped field is caught where it is written.
   */
  fieldValidation?: FieldValidation;
  /** Receives the server's warnings (`unknown field "spec.foo"`), as kubectl prints them. */
  warnings?: string[];
  /**
   * The `fieldManager` query parameter: who owns what this write sets (metadata.managedFields,
   * ./api/managed-fields.ts). Absent: the client's default (ClientContext.fieldManager); the
   * control plane's own writers keep no ownership records.
   */
  fieldManager?: string;
  /** The subresource the write came through (`scale`), recorded in the manager's entry. */
  subresource?: string;
  /** Server-side apply's own result: the entries apply() computed, stored as they are. */
  managed?: ManagedFieldsEntry[];
}

export interface ApplyOptions extends WriteOptions {
  /** `force=true` (kubectl apply --force-conflicts): take fields from their other managers. */
  force?: boolean;
}

export interface DeleteOptions extends WriteOptions {
  gracePeriodSeconds?: number;
  /** Foreground/Background/Orphan; default Background. */
  propagation?: 'Background' | 'Foreground' | 'Orphan';
}

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];

/**
 * Kinds whose status is a subresource: a create starts from an empty status and an update of the
 * main resource keeps the stored one (each registry strategy's PrepareForCreate/PrepareForUpdate).
 * So a pod re-created from `kubectl get pod -o yaml` starts Pending like any new pod.
 */
const STATUS_SUBRESOURCE = new Set(['Namespace', 'Pod', 'Service', 'Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job', 'CronJob', 'Node', 'PersistentVolumeClaim', 'PersistentVolume', 'Ingress', 'GatewayClass', 'Gateway', 'HTTPRoute', 'CustomResourceDefinition']);

/**
 * ValidateStatefulSetUpdate (apps validation.go): only some spec fields may change; a changed
 * selector, serviceName or volumeClaimTemplates is refused as one Forbidden on spec.
 */
function statefulSetSpecUpdate(obj: Deployment, old: Deployment): FieldError[] {
  const mutable = ['replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];
  const rest = (spec: Record<string, unknown>): string => JSON.stringify(Object.fromEntries(Object.entries(spec ?? {}).filter(([k]) => !mutable.includes(k)).sort(([a], [b]) => (a < b ? -1 : 1))));
  if (rest(obj.spec as unknown as Record<string, unknown>) === rest(old.spec as unknown as Record<string, unknown>)) return [];
  return [
    field.forbidden(
      'spec',
      "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ),
  ];
}

/** userKey's memo: by the (frozen) user object. */
const USER_KEYS = new WeakMap<UserInfo, string>();

/**
 * The part of boundRules' key that names the user: its name and groups as JSON, all that
 * rulesFor reads of it. A frozen user (authenticateRemembered hands the same one to every request
 * of its credentials) is encoded once; another is encoded afresh.
 */
function userKey(user: UserInfo): string {
  const had = USER_KEYS.get(user);
  if (had !== undefined) return had;
  const key = `${JSON.stringify([user.username, user.groups])}|`;
  if (Object.isFrozen(user) && Object.isFrozen(user.groups)) USER_KEYS.set(user, key);
  return key;
}

/** ApiServer.boundRules' memo, by store (see there). */
const BOUND_RULES = new WeakMap<Store, { key: string; rules: Map<string, BoundRules> }>();
const BOUND_RULES_MAX = 256;
/**
 * boundRules' second level, across stores: per user and namespace, the last policy rulesFor read
 * (its four lists, copied: a store replaces an item of a list it handed out in place) and its
 * answer. Every copy of a state (each validate run, each `check`) is a new store whose first
 * request missed the first level, though its RBAC objects are the very frozen objects the state
 * shares. Bounded like the first level; never saved.
 */
const RULES_BY_POLICY = new Map<string, { policy: RbacPolicy; rules: BoundRules }>();

export class ApiServer {
  constructor(
    private readonly c: Cluster,
    private readonly client?: ClientContext,
  ) {}

  /** Who this server's requests come from (undefined: the control plane's own clients). */
  clientContext(): ClientContext | undefined {
    return this.client;
  }

  /** The same API server, serving requests from `client` (authenticated and authorized). */
  forClient(client: ClientContext): ApiServer {
    return new ApiServer(this.c, client);
  }

  /**
   * The user requests run as (after impersonation), or undefined for the control plane's own
   * clients. Throws Unauthorized when the credentials do not verify, Forbidden when the user may
   * not impersonate.
   */
  user(): UserInfo | undefined {
    if (!this.client) return undefined;
    this.ensureUp();
    const real = this.authenticated(this.client.credentials);
    if (!real) throw new ApiError('Unauthorized', 'Unauthorized', 401);
    const imp = this.client.impersonate;
    if (!imp) return real;
    const check = (resource: string, name: string, namespace?: string): void => {
      const attrs: RequestAttributes = { verb: 'impersonate', group: '', resource, name, ...(namespace ? { namespace } : {}) };
      const d = this.decide(real, attrs);
      if (!d.allowed) throw forbidden(forbiddenText(real, attrs, d.reason));
    };
    const sa = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(imp.user);
    if (sa) check('serviceaccounts', sa[2]!, sa[1]);
    else check('users', imp.user);
    for (const g of imp.groups) check('groups', g);
    return impersonatedUser(imp.user, imp.groups);
  }

  private authn?: { at: readonly number[]; user: UserInfo | undefined };

  /**
   * authenticate() for this client, remembered while nothing it reads can have changed: the
   * control plane's files (client CA, flags), the clock (certificate validity) and the service
   * accounts, secrets and pods tokens are checked against. One command's thousands of requests
   * (apply of 20,000 documents) ask once per instant; across commands authenticateRemembered
   * (sim/authn.ts) keeps the answer while the clock stays inside the credentials' validity.
   */
  private authenticated(creds: Credentials): UserInfo | undefined {
    const ch = this.c.store.changes;
    // (the numbers themselves, not a string of them to build and compare at every request)
    const at = [this.c.hostGeneration, this.c.now(), ch.get('ServiceAccount') ?? 0, ch.get('Secret') ?? 0, ch.get('Node') ?? 0, ch.get('Pod') ?? 0];
    if (!this.authn || !sameItems(this.authn.at, at)) this.authn = { at, user: authenticateRemembered(this.c, creds) };
    return this.authn.user;
  }

  private policy(): RbacPolicy {
    const s = this.c.store;
    return {
      roles: s.list('Role') as RbacPolicy['roles'],
      clusterRoles: s.list('ClusterRole') as RbacPolicy['clusterRoles'],
      roleBindings: s.list('RoleBinding') as RbacPolicy['roleBindings'],
      clusterRoleBindings: s.list('ClusterRoleBinding') as RbacPolicy['clusterRoleBindings'],
    };
  }

  private decide(user: UserInfo, attrs: RequestAttributes): Decision {
    return isPrivileged(user) ? { allowed: true, reason: '' } : decideByRules(this.boundRules(user, requestNamespace(attrs)), attrs);
  }

  /**
   * rulesFor(policy, user, namespace), remembered while the store's Role, ClusterRole,
   * RoleBinding and ClusterRoleBinding change counters stand: it reads those objects (frozen)
   * and the user's name and groups alone. Every request of a command is authorized (an applied
   * file of 1,000 objects: 2,000 walks of every binding and aggregated ClusterRole). Kept by
   * store, never saved; at most BOUND_RULES_MAX users and namespaces between RBAC changes.
   */
  private boundRules(user: UserInfo, namespace: string | undefined): BoundRules {
    const ch = this.c.store.changes;
    const key = `${ch.get('Role') ?? 0}/${ch.get('ClusterRole') ?? 0}/${ch.get('RoleBinding') ?? 0}/${ch.get('ClusterRoleBinding') ?? 0}`;
    let memo = BOUND_RULES.get(this.c.store);
    if (!memo || memo.key !== key || memo.rules.size >= BOUND_RULES_MAX) BOUND_RULES.set(this.c.store, (memo = { key, rules: new Map() }));
    const who = `${userKey(user)}${JSON.stringify(namespace ?? null)}`;
    let bound = memo.rules.get(who);
    if (!bound) memo.rules.set(who, (bound = this.rulesByPolicy(who, user, namespace)));
    return bound;
  }

  /**
   * rulesFor over this store's policy, or the answer it gave for the same user and namespace over
   * the same policy in another store: exact, as rulesFor reads nothing but the four lists (their
   * frozen objects, compared by identity and order) and the user's name and groups (in `who`).
   */
  private rulesByPolicy(who: string, user: UserInfo, namespace: string | undefined): BoundRules {
    const policy = this.policy();
    const had = RULES_BY_POLICY.get(who);
    if (
      had &&
      sameItems(had.policy.roles, policy.roles) &&
      sameItems(had.policy.clusterRoles, policy.clusterRoles) &&
      sameItems(had.policy.roleBindings, policy.roleBindings) &&
      sameItems(had.policy.clusterRoleBindings, policy.clusterRoleBindings)
    )
      return had.rules;
    const rules = rulesFor(policy, user, namespace);
    const kept: RbacPolicy = { roles: policy.roles.slice(), clusterRoles: policy.clusterRoles.slice(), roleBindings: policy.roleBindings.slice(), clusterRoleBindings: policy.clusterRoleBindings.slice() };
    return remember(RULES_BY_POLICY, who, { policy: kept, rules }, BOUND_RULES_MAX).rules;
  }

  /** Authorize one request of this client (sim/api/rbac.ts); throws the Forbidden status. */
  authorize(attrs: RequestAttributes): void {
    const user = this.user();
    if (!user) return;
    const d = this.decide(user, attrs);
    if (!d.allowed) throw forbidden(forbiddenText(user, attrs, d.reason));
  }

  /**
   * The decision for a request from someone other than this client (an anonymous or token request
   * that arrives over plain HTTPS, shell/commands/pod/component-http.ts).
   */
  decideFor(user: UserInfo, attrs: RequestAttributes): Decision {
    return this.decide(user, attrs);
  }

  /** A SelfSubjectAccessReview (`kubectl auth can-i`): the decision, never an error. */
  review(attrs: RequestAttributes): Decision {
    const user = this.user();
    return user ? this.decide(user, attrs) : { allowed: true, reason: '' };
  }

  /** A SelfSubjectRulesReview (`kubectl auth can-i --list`): the rules that apply in a namespace. */
  rulesReview(namespace: string): ReturnType<typeof rulesFor> {
    const user = this.user();
    if (!user || isPrivileged(user)) return { rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] }], errors: [] };
    return rulesFor(this.policy(), user, namespace);
  }

  /** The CSR strategy's PrepareForCreate: the requesting user is recorded in the spec. */
  private stampRequestor(obj: KObject): void {
    const u = this.user() ?? { username: 'system:kube-controller-manager', groups: ['system:authenticated'] };
    const spec = (obj['spec'] ??= {}) as Record<string, unknown>;
    spec['username'] = u.username;
    spec['groups'] = u.groups;
    if (u.uid) spec['uid'] = u.uid;
    if (u.extra && Object.keys(u.extra).length) spec['extra'] = u.extra;
    else delete spec['extra'];
    obj['status'] = {};
  }

  private check(verb: string, kind: string, namespace: string | undefined, name?: string): void {
    if (!this.client) return;
    const info = this.c.discovery().infoForKind(kind);
    this.authorize({ verb, group: info.group, resource: info.resource, ...(name ? { name } : {}), ...(info.namespaced && namespace ? { namespace } : {}) });
  }

  /** What the server serves: built-in resources and those of Established CRDs. */
  discovery(): Discovery {
    return this.c.discovery();
  }

  /** dial()'s verdict for this client, made once per client (one kubectl run); null: connected. */
  private dialed?: DialFailure | null;

  /**
   * Throws when the client cannot reach a serving API server: its kubeconfig's server does not
   * lead to it or its certificate does not verify (sim/dial.ts), or the API server is down (its
   * static pod broken or stopped): the port then refuses.
   */
  ensureUp(): void {
    const ep = this.client?.endpoint;
    const server = ep ? parseServer(ep.server) : undefined;
    const dialContext = (detail: string): DialContext => ({ apiUrl: `${server!.base}/api?timeout=32s`, detail, at: this.c.now(), cached: ep!.discoveryCached });
    if (ep && server) {
      if (this.dialed === undefined) this.dialed = dial(this.c, this.c.host(ep.from), ep) ?? null;
      const f = this.dialed;
      if (f?.kind === 'refused') throw new ConnectionRefusedError(f.hostPort, dialContext(f.detail));
      if (f) throw new UnableToConnectError(dialContext(f.detail));
    }
    const st = this.c.state['apiserver'] as { up: boolean } | undefined;
    if (st && !st.up) {
      const cp = this.c.host(this.c.meta.controlPlane);
      if (!ep || !server) throw new ConnectionRefusedError(`${cp?.ip ?? '127.0.0.1'}:6443`);
      throw new ConnectionRefusedError(server.hostPort, dialContext(`dial tcp ${resolvedAddress(this.c, ep.from, server)}: connect: connection refused`));
    }
  }

  /** A stored object, or one the control plane derives continuously (sim/virtual-objects.ts). */
  private stored<T extends KObject>(kind: string, namespace: string | undefined, name: string): T | undefined {
    return (this.c.store.get<T>(kind, namespace, name) ?? virtualObjects(this.c, kind, namespace).find((o) => o.metadata.name === name)) as T | undefined;
  }

  /**
   * A request for a kind the server does not serve (kubectl mapped it before its CRD was deleted)
   * reaches no handler: the mux's 404 (apiserver pkg/server/mux NotFoundHandler).
   */
  private served(kind: string): void {
    if (!this.c.discovery().hasKind(kind)) throw new ApiError('NotFound', 'the server could not find the requested resource', 404);
  }

  /**
   * A verb the resource's registry does not implement (a create-only review, ComponentStatus's
   * writes) has no route: go-restful answers 405 after authorization
   * (apiserver endpoints/installer.go registers only the verbs the storage implements).
   */
  private allows(kind: string, verb: string): void {
    if (!verbsOf(this.c.discovery().infoForKind(kind)).includes(verb)) {
      throw new ApiError('MethodNotAllowed', 'the server does not allow this method on the requested resource', 405);
    }
  }

  get<T extends KObject = KObject>(kind: string, namespace: string | undefined, name: string): T {
    // a copy: what a client changes reaches the store only through update()
    return nodeView(this.c, clone(this.getStored<T>(kind, namespace, name)));
  }

  /**
   * get() for a caller that only reads what it gets (a printer, a pod lookup, a status poll): the
   * stored object itself, frozen (sim/api/store.ts), not a copy; the same requests and errors.
   * A Node is still a copy: the node view writes the kubelet's last status post into it.
   */
  read<T extends KObject = KObject>(kind: string, namespace: string | undefined, name: string): T {
    return kind === 'Node' ? this.get<T>(kind, namespace, name) : this.getStored<T>(kind, namespace, name);
  }

  /** The stored (or derived) object a GET answers, checked as get() checks it; not copied. */
  private getStored<T extends KObject>(kind: string, namespace: string | undefined, name: string): T {
    this.ensureUp();
    this.served(kind);
    this.check('get', kind, namespace, name);
    this.allows(kind, 'get');
    const info = this.c.discovery().infoForKind(kind);
    const obj = this.stored<T>(kind, info.namespaced ? namespace : undefined, name);
    if (!obj) throw notFound(info, name);
    return obj;
  }

  tryGet<T extends KObject = KObject>(kind: string, namespace: string | undefined, name: string): T | undefined {
    this.ensureUp();
    this.served(kind);
    this.check('get', kind, namespace, name);
    this.allows(kind, 'get');
    const info = this.c.discovery().infoForKind(kind);
    const obj = this.stored<T>(kind, info.namespaced ? namespace : undefined, name);
    return obj ? nodeView(this.c, clone(obj)) : undefined;
  }

  list<T extends KObject = KObject>(kind: string, namespace?: string): T[] {
    const objs = this.listed<T>(kind, namespace);
    return kind === 'Node' ? clone(objs).map((o) => nodeView(this.c, o)) : clone(objs);
  }

  /**
   * list() for a caller that only reads the objects (list() explains what it may do with the
   * array): a new array of the stored objects themselves, frozen, not copies. Nodes are still
   * copies (read()).
   */
  readList<T extends KObject = KObject>(kind: string, namespace?: string): T[] {
    return kind === 'Node' ? this.list<T>(kind, namespace) : this.listed<T>(kind, namespace);
  }

  /** The objects a LIST answers (stored, then derived ones not stored), checked as list() checks; a new array, objects not copied. */
  private listed<T extends KObject>(kind: string, namespace?: string): T[] {
    this.ensureUp();
    this.served(kind);
    this.check('list', kind, namespace);
    this.allows(kind, 'list');
    const info = this.c.discovery().infoForKind(kind);
    const objs = this.c.store.list<T>(kind, info.namespaced ? namespace : undefined);
    const derived = virtualObjects(this.c, kind, info.namespaced ? namespace : undefined) as T[];
    if (derived.length === 0) return objs.slice();
    const names = new Set(objs.map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`));
    const all = [...objs, ...derived.filter((o) => !names.has(`${o.metadata.namespace ?? ''}/${o.metadata.name}`))];
    const key = (o: KObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
    return all.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }

  /**
   * The body as the server decodes it (./api/decode.ts): typed, nulls and unknown fields dropped,
   * quantities canonical; unknown fields become warnings unless the directive rejected them.
   */
  private decode<T extends KObject>(input: T, opts: WriteOptions): T {
    const info = this.c.discovery().infoForKind(input.kind);
    const custom = this.customSchema(input);
    const coerce = custom
      ? (o: Record<string, unknown>): string[] => {
          // customresource_handler.go unstructuredSchemaCoercer.apply: prune, then drop nulls
          const unknown = custom.preserveUnknownFields ? [] : pruneUnknownFields(o, custom.schema);
          pruneNonNullableNulls(o, custom.schema);
          return unknown;
        }
      : undefined;
    const { obj, unknownFields } = decodeObject(input, info.kind, custom?.version ?? info.version, opts.fieldValidation ?? 'Strict', coerce);
    if (opts.fieldValidation === 'Warn') opts.warnings?.push(...unknownFields.map(unknownFieldWarning));
    // the versioning codec defaults what it decoded (unstructuredDefaulter, defaulting/algorithm.go)
    if (custom) applySchemaDefaults(obj, custom.schema);
    return obj as T;
  }

  /**
   * For a custom resource: the schema of the CRD version its apiVersion names (the preferred
   * version when it names none that is served), and whether the CRD keeps unknown fields.
   */
  private customSchema(obj: KObject): { version: string; schema: JSONSchemaProps | undefined; preserveUnknownFields: boolean; scale: ScalePaths | undefined } | undefined {
    const d = this.c.discovery();
    if (!d.hasKind(obj.kind)) return undefined;
    const info = d.infoForKind(obj.kind);
    if (!info.crd) return undefined;
    const crd = this.c.store.get<CustomResourceDefinition>('CustomResourceDefinition', undefined, info.crd);
    if (!crd) return undefined;
    const asked = typeof obj.apiVersion === 'string' && obj.apiVersion.includes('/') ? obj.apiVersion.slice(obj.apiVersion.indexOf('/') + 1) : '';
    const version = (info.servedVersions ?? [info.version]).includes(asked) ? asked : info.version;
    const v = crdVersion(crd, version);
    const schema = v?.schema?.openAPIV3Schema as JSONSchemaProps | undefined;
    return { version, schema, preserveUnknownFields: crd.spec.preserveUnknownFields === true, scale: v?.subresources?.scale as ScalePaths | undefined };
  }

  create<T extends KObject>(input: T, opts: WriteOptions = {}): T {
    this.ensureUp();
    checkRequestBody(input);
    const obj = this.decode(input, opts);
    const info = this.c.discovery().infoForKind(obj.kind);
    obj.apiVersion ||= info.group ? `${info.group}/${info.version}` : info.version;
    obj.metadata ??= { name: '' };
    const m = obj.metadata;
    if (info.namespaced) m.namespace ??= 'default';
    else delete m.namespace;
    this.check('create', obj.kind, m.namespace, undefined);
    if (obj.kind === 'CertificateSigningRequest') this.stampRequestor(obj);
    // what admission names the object by: the name, else generateName (rest.BeforeCreate, which
    // generates the name, runs after the mutating plugins such as NamespaceLifecycle)
    const admittedName = m.name || m.generateName || 'Unknown';
    if (!m.name && m.generateName) m.name = this.c.generateName(obj.kind, m.namespace, m.generateName);
    if (!m.name)
      throw invalid(info, '', [field.required('metadata.name', 'name or generateName is required')]);
    delete m.resourceVersion;
    delete m.uid;
    delete m.creationTimestamp;
    delete m.deletionTimestamp;
    delete m.deletionGracePeriodSeconds;
    if (info.namespaced) this.admitNamespace(m.namespace!, info, admittedName);
    if (info.crd && this.c.store.get('CustomResourceDefinition', undefined, info.crd)?.metadata.deletionTimestamp)
      throw new ApiError('MethodNotAllowed', 'create not allowed while custom resource definition is terminating', 405);
    if (this.hasStatusSubresource(obj.kind)) delete obj['status'];
    if (obj.kind === 'CustomResourceDefinition') defaultCrd(obj as CustomResourceDefinition);
    // namespaceStrategy.PrepareForCreate adds the `kubernetes` finalizer after the field manager ran
    const askedFinalizers = obj.kind === 'Namespace' ? (obj as Namespace).spec?.finalizers : undefined;
    applyDefaults(obj, priorityClassValue(this.c));
    if (obj.kind === 'Job') {
      // rest.BeforeCreate assigns the uid before the strategy generates the selector from it
      m.uid = this.c.store.nextUid(this.c.random.nextU32());
      generateJobSelector(obj as Job);
    }
    defaultAutoscaler(obj);
    admitStorageCreate(this.c.store, obj);
    if (obj.kind === 'LimitRange') defaultLimitRange(obj as LimitRange);
    this.trackCreate(obj, opts, askedFinalizers);
    const attrs: AdmissionAttributes = { operation: 'CREATE', obj, ...(m.namespace ? { namespace: m.namespace } : {}), store: this.c.store, warnings: opts.warnings ?? [], now: this.c.now() };
    admitMutating(attrs);
    if (obj.kind === 'Service') this.beginServiceCreate(obj as Service, info, opts.dryRun === true);
    const errs = [
      // an IPAddress is named by its address (networking validation ValidateIPAddressName)
      ...(obj.kind === 'IPAddress' ? validateIPAddressName(m.name) : validateName(m.name, nameRuleForKind(obj.kind))),
      ...validateLabels(m.labels, 'metadata.labels'),
      ...validateAnnotations(m.annotations),
      ...validateFinalizers(m.finalizers, !info.crd, STANDARD_FINALIZERS),
      ...this.validate(obj, undefined),
      ...validateDataSize(obj),
    ];
    if (errs.length > 0) throw invalid(info, m.name, errs);
    if (info.crd) attrs.warnings.push(...finalizerWarnings(m.finalizers, STANDARD_FINALIZERS));
    admitValidating(attrs);
    // the storage's create finds the name taken only now, after the Service allocator's BeginCreate,
    // the strategy's validation and validating admission (apiserver registry/generic/registry/store.go
    // Create; a dry run's storage checks too, dryrun.go): an invalid object that exists is Invalid. A
    // derived object exists too: an IPAddress the allocator holds for a ClusterIP, the default ServiceCIDR
    const existing = this.stored(obj.kind, info.namespaced ? m.namespace : undefined, m.name);
    if (existing) throw alreadyExists(info, m.name, !!existing.metadata.deletionTimestamp);
    this.prepareCreate(obj);
    if (opts.dryRun) return obj;
    checkStoredSize(obj);
    const stored = this.c.insert(obj);
    this.c.settle();
    return clone(this.c.store.get<T>(stored.kind, stored.metadata.namespace, stored.metadata.name) ?? stored);
  }

  /** A write's body decoded, with its kind's resource and the namespace it names (`default` when it names none). */
  private decodeNamed<T extends KObject>(input: T, opts: WriteOptions): { obj: T; info: ReturnType<Discovery['infoForKind']>; ns: string | undefined } {
    checkRequestBody(input);
    const obj = this.decode(input, opts);
    const info = this.c.discovery().infoForKind(obj.kind);
    obj.metadata ??= { name: '' };
    return { obj, info, ns: info.namespaced ? (obj.metadata.namespace ?? 'default') : undefined };
  }

  /** Replace an object (PUT). A resourceVersion in the input must match the stored one. */
  update<T extends KObject>(input: T, opts: WriteOptions = {}): T {
    this.ensureUp();
    const { obj, info, ns } = this.decodeNamed(input, opts);
    // as on create: a body without apiVersion takes the group and version of the endpoint it was
    // sent to (apimachinery json.Serializer.Decode fills a missing GVK from the request's defaults),
    // so no stored object lacks one (printers and controllers read it)
    obj.apiVersion ||= info.group ? `${info.group}/${info.version}` : info.version;
    this.check(this.client?.updateVerb ?? 'update', obj.kind, ns, obj.metadata.name);
    const old = this.c.store.get(obj.kind, ns, obj.metadata.name);
    if (!old) throw notFound(info, obj.metadata.name);
    if (obj.metadata.resourceVersion && obj.metadata.resourceVersion !== old.metadata.resourceVersion)
      throw conflict(info, obj.metadata.name, 'the object has been modified; please apply your changes to the latest version and try again');
    // Server-owned metadata is kept from the stored object.
    obj.metadata.uid = old.metadata.uid!;
    obj.metadata.creationTimestamp = old.metadata.creationTimestamp!;
    if (ns) obj.metadata.namespace = ns;
    if (old.metadata.generation !== undefined) {
      const specChanged = JSON.stringify(obj['spec']) !== JSON.stringify(old['spec']);
      obj.metadata.generation = old.metadata.generation + (specChanged ? 1 : 0);
    }
    // rest.BeforeUpdate: an update can never remove or change a deletion timestamp or grace period
    if (old.metadata.deletionTimestamp) obj.metadata.deletionTimestamp = old.metadata.deletionTimestamp;
    else delete obj.metadata.deletionTimestamp;
    if (old.metadata.deletionGracePeriodSeconds !== undefined) obj.metadata.deletionGracePeriodSeconds ??= old.metadata.deletionGracePeriodSeconds;
    if (this.hasStatusSubresource(obj.kind)) {
      if (old['status'] !== undefined) obj['status'] = clone(old['status']);
      else delete obj['status'];
    } else if (obj['status'] === undefined && old['status'] !== undefined && !info.crd) obj['status'] = clone(old['status']);
    // customresource strategy.go PrepareForUpdate: any change outside metadata (status too, when
    // it is no subresource) moves a custom resource's generation
    if (info.crd && old.metadata.generation !== undefined) {
      const { metadata: _m, ...rest } = obj;
      const { metadata: _o, ...oldRest } = old;
      obj.metadata.generation = old.metadata.generation + (sameCanonicalJSON(rest, oldRest) ? 0 : 1);
    }
    if (obj.kind === 'CustomResourceDefinition') defaultCrd(obj as CustomResourceDefinition);
    applyDefaults(obj);
    defaultAutoscaler(obj);
    if (obj.kind === 'LimitRange') defaultLimitRange(obj as LimitRange);
    this.trackUpdate(obj, old, opts);
    if (obj.kind === 'Service') this.prepareServiceUpdate(obj as Service, old as Service, info, opts.dryRun === true);
    const attrs: AdmissionAttributes = { operation: 'UPDATE', obj, old, ...(ns ? { namespace: ns } : {}), store: this.c.store, warnings: opts.warnings ?? [], now: this.c.now() };
    admitMutating(attrs);
    const noNewFinalizers = newFinalizersError(old, obj);
    const errs = [
      ...validateLabels(obj.metadata.labels, 'metadata.labels'),
      ...validateAnnotations(obj.metadata.annotations),
      ...validateFinalizers(obj.metadata.finalizers, !info.crd, STANDARD_FINALIZERS),
      ...(noNewFinalizers ? [field.forbidden('metadata.finalizers', noNewFinalizers)] : []),
      ...this.validate(obj, old),
      ...validateDataSize(obj),
    ];
    if (errs.length > 0) throw invalid(info, obj.metadata.name, errs);
    if (info.crd) attrs.warnings.push(...finalizerWarnings(obj.metadata.finalizers, STANDARD_FINALIZERS));
    admitValidating(attrs);
    if (obj.kind === 'PersistentVolumeClaim') admitClaimResize(this.c.store, obj as PersistentVolumeClaim, old as PersistentVolumeClaim);
    this.prepareUpdate(obj, old);
    if (opts.dryRun) return obj;
    // GuaranteedUpdate (apiserver pkg/storage/etcd3/store.go): an object that encodes to the bytes
    // already stored is not written, keeps its resourceVersion, and wakes no watcher, so `kubectl
    // patch` of a value already there says `patched (no change)`
    if (sameStored(obj, old)) return clone(old) as T;
    checkStoredSize(obj);
    this.c.write(obj);
    this.c.settle();
    return clone(this.c.store.get<T>(obj.kind, ns, obj.metadata.name) ?? obj);
  }

  /**
   * GET …/NAME/status: the whole object, served only for a kind with a status subresource (the
   * status REST storage's Get returns the parent object; a kind without one has no such route).
   */
  getStatus<T extends KObject = KObject>(kind: string, namespace: string | undefined, name: string): T {
    this.ensureUp();
    this.served(kind);
    const info = this.c.discovery().infoForKind(kind);
    if (!this.hasStatusSubresource(kind)) throw new ApiError('NotFound', 'the server could not find the requested resource', 404);
    if (this.client) this.authorize({ verb: 'get', group: info.group, resource: info.resource, subresource: 'status', name, ...(info.namespaced && namespace ? { namespace } : {}) });
    const obj = this.stored<T>(kind, info.namespaced ? namespace : undefined, name);
    if (!obj) throw notFound(info, name);
    return nodeView(this.c, clone(obj));
  }

  /**
   * PUT …/NAME/status: only the status of the body is kept, everything else is the stored
   * object's (apiextensions-apiserver pkg/registry/customresource/status_strategy.go
   * PrepareForUpdate copies the old object and sets the new status; the built-ins' status
   * strategies keep spec and reset metadata likewise, rest.ResetObjectMetaForStatus). Pods,
   * deployments, replica sets and nodes are validated by their status strategies' rules
   * (api/validation-status.ts: ValidatePodStatusUpdate …); the others as a whole (a custom
   * resource's status_strategy.go ValidateUpdate: the schema, status included). Generation does
   * not move. A kind without the subresource answers 404.
   */
  updateStatus<T extends KObject>(input: T, opts: WriteOptions = {}): T {
    this.ensureUp();
    const { obj, info, ns } = this.decodeNamed(input, opts);
    if (!this.hasStatusSubresource(obj.kind)) throw new ApiError('NotFound', 'the server could not find the requested resource', 404);
    const name = obj.metadata.name;
    if (this.client) this.authorize({ verb: this.client.updateVerb ?? 'update', group: info.group, resource: info.resource, subresource: 'status', name, ...(ns ? { namespace: ns } : {}) });
    const old = this.c.store.get(obj.kind, ns, name);
    if (!old) throw notFound(info, name);
    if (obj.metadata.resourceVersion && obj.metadata.resourceVersion !== old.metadata.resourceVersion)
      throw conflict(info, name, 'the object has been modified; please apply your changes to the latest version and try again');
    const next = clone(old);
    delete next.metadata.managedFields;
    if (obj['status'] !== undefined) next['status'] = clone(obj['status']);
    else delete next['status'];
    prepareStatusUpdate(next, old);
    this.trackUpdate(next, old, { ...opts, subresource: 'status' });
    // the status strategies validate the status (api/validation-status.ts); the others, the whole object
    const errs = statusUpdateErrors(next, old) ?? this.validate(next, old, true);
    if (errs.length > 0) throw invalid(info, name, errs);
    if (opts.dryRun) return next as T;
    if (sameStored(next, old)) return clone(old) as T;
    checkStoredSize(next);
    this.c.write(next);
    this.c.settle();
    return clone(this.c.store.get<T>(next.kind, ns, name) ?? (next as T));
  }

  /**
   * Delete an object. Pods are deleted gracefully (deletionTimestamp, then the kubelet removes
   * them); other kinds go at once and their dependents follow through the garbage collector.
   * Finalizers keep any object, marked Terminating, until they are all removed (Cluster.deleteObject);
   * deleting it again changes nothing and answers the same.
   */
  delete(kind: string, namespace: string | undefined, name: string, opts: DeleteOptions = {}): KObject {
    this.ensureUp();
    this.served(kind);
    const info = this.c.discovery().infoForKind(kind);
    const ns = info.namespaced ? (namespace ?? 'default') : undefined;
    this.check('delete', kind, ns, name);
    const old = this.c.store.get(kind, ns, name);
    if (!old && kind === 'IPAddress') return this.deleteAllocatorIPAddress(name, opts);
    if (!old) throw notFound(info, name);
    if (opts.dryRun) return old;
    if (kind === 'Pod') {
      const pod = clone(old) as Pod;
      const grace = opts.gracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30;
      if (grace <= 0 || !pod.spec.nodeName || pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') {
        this.c.deleteObject(kind, ns, name);
      } else if (!pod.metadata.deletionTimestamp) {
        pod.metadata.deletionTimestamp = this.c.timestamp();
        pod.metadata.deletionGracePeriodSeconds = grace;
        this.c.write(pod);
      }
    } else if (kind === 'Namespace') {
      if (['default', 'kube-system', 'kube-public', 'kube-node-lease'].includes(name))
        throw forbidden(`namespaces "${name}" is forbidden: this namespace may not be deleted`);
      const nsObj = clone(old);
      nsObj.metadata.deletionTimestamp = this.c.timestamp();
      nsObj['status'] = { phase: 'Terminating' };
      this.c.write(nsObj);
    } else {
      // the CRD registry (apiextensions-apiserver pkg/registry/customresourcedefinition/etcd.go
      // Delete): the first DELETE adds the cleanup finalizer and Terminating=True; the CRD
      // finalizer controller deletes the custom resources and then lets the CRD go
      if (kind === 'CustomResourceDefinition' && !old.metadata.deletionTimestamp) {
        this.c.write(markCrdDeleted(old as CustomResourceDefinition, this.c.timestamp()));
        this.c.settle();
        return old;
      }
      // the garbage collector's orphan finalizer, done at once: the dependents lose this owner
      if (opts.propagation === 'Orphan') this.orphanDependents(old);
      // finalizers keep the object, Terminating, until they are removed (api/deletion.ts); a
      // foreground deletion waits for the garbage collector to delete the blocking dependents
      const foreground = opts.propagation === 'Foreground';
      if (!this.c.deleteObject(kind, ns, name, foreground ? [FOREGROUND_FINALIZER] : []) && foreground) {
        const marked = this.c.store.get(kind, ns, name);
        if (marked) deleteForeground(this.c, marked);
      }
    }
    this.c.settle();
    return old;
  }

  /**
   * DELETE of an IPAddress the ClusterIP allocator made (sim/virtual-objects.ts): it goes as any
   * object without finalizers does, and the repair loop makes it again later
   * (controllers/ipallocator-repair.ts).
   */
  private deleteAllocatorIPAddress(name: string, opts: DeleteOptions): KObject {
    const info = this.c.discovery().infoForKind('IPAddress');
    const obj = this.stored('IPAddress', undefined, name);
    const ref = (obj?.['spec'] as { parentRef?: { namespace?: string; name?: string } } | undefined)?.parentRef;
    const svc = ref ? this.c.store.get<Service>('Service', ref.namespace, ref.name ?? '') : undefined;
    if (!obj || !svc) throw notFound(info, name);
    if (opts.dryRun) return obj;
    allocatorIPAddressDeleted(this.c, name, svc);
    this.c.settle();
    return obj;
  }

  /**
   * PUT namespaces/NAME/finalize (pkg/registry/core/namespace/storage FinalizeREST): only
   * spec.finalizers changes (ValidateNamespaceFinalizeUpdate: each a standard or domain-qualified
   * name). A namespace being deleted that is left without them goes at once
   * (ShouldDeleteNamespaceDuringUpdate) whatever it still holds: its objects stay in storage,
   * orphaned. Returns the namespace as written.
   */
  finalizeNamespace(name: string, finalizers: string[]): Namespace {
    this.ensureUp();
    this.served('Namespace');
    if (this.client) this.authorize({ verb: 'update', group: '', resource: 'namespaces', subresource: 'finalize', name });
    const info = this.c.discovery().infoForKind('Namespace');
    const ns = this.c.store.get<Namespace>('Namespace', undefined, name);
    if (!ns) throw notFound(info, name);
    const errs = finalizers.flatMap((f, i) => [
      ...qualifiedNameProblems(f).map((m) => field.invalid(`spec.finalizers[${i}]`, f, m)),
      ...(!f.includes('/') && !STANDARD_FINALIZERS.has(f) ? [field.invalid(`spec.finalizers[${i}]`, f, 'name is neither a standard finalizer name nor is it fully qualified')] : []),
    ]);
    if (errs.length) throw invalid(info, name, errs);
    const upd = clone(ns);
    upd.spec = { ...(upd.spec ?? {}), finalizers };
    if (finalizers.length === 0) delete upd.spec.finalizers;
    if (upd.metadata.deletionTimestamp && finalizers.length === 0 && !hasFinalizers(upd)) this.c.store.remove('Namespace', undefined, name);
    else this.c.write(upd);
    this.c.settle();
    return upd;
  }

  /**
   * POST pods/NAME/eviction (pkg/registry/core/pod/storage/eviction.go): a pod that is done,
   * pending or already being deleted goes at once; otherwise the one PodDisruptionBudget that
   * selects it must allow a disruption (its status from the disruption controller): then the
   * budget's disruptionsAllowed drops by one, the pod is recorded in disruptedPods and deleted.
   * A budget at zero answers 429 with upstream's message; more than one budget is a 500.
   * An unready pod may go while the budget is healthy (unhealthyPodEvictionPolicy IfHealthyBudget,
   * the default) or always (AlwaysAllow).
   */
  evict(namespace: string, name: string, opts: { dryRun?: boolean; gracePeriodSeconds?: number } = {}): void {
    this.ensureUp();
    this.served('Pod');
    if (this.client) this.authorize({ verb: 'create', group: '', resource: 'pods', subresource: 'eviction', name, namespace });
    const pod = this.c.store.get<Pod>('Pod', namespace, name);
    if (!pod) throw notFound(this.c.discovery().infoForKind('Pod'), name);
    const del = (): void => {
      if (!opts.dryRun) this.delete('Pod', namespace, name, opts.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: opts.gracePeriodSeconds } : {});
    };
    const phase = pod.status?.phase;
    if (pod.metadata.deletionTimestamp || phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending') return del();
    const pdbs = this.c.store.list<PodDisruptionBudget>('PodDisruptionBudget', namespace).filter((b) => matchLabelSelector(b.spec.selector, pod.metadata.labels));
    if (pdbs.length === 0) return del();
    if (pdbs.length > 1) throw new ApiError('InternalError', 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', 500);
    const pdb = pdbs[0]!;
    const st = pdb.status;
    if (!podReady(pod)) {
      if (pdb.spec.unhealthyPodEvictionPolicy === 'AlwaysAllow') return del();
      if (st && st.currentHealthy >= st.desiredHealthy && st.desiredHealthy > 0) return del();
    }
    if (!st || (pdb.metadata.generation ?? 0) > (st.observedGeneration ?? 0)) throw new ApiError('TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget.", 429);
    if (st.disruptionsAllowed <= 0) throw new ApiError('TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget.", 429);
    if (opts.dryRun) return;
    const upd = clone(pdb);
    upd.status = { ...st, disruptionsAllowed: st.disruptionsAllowed - 1, disruptedPods: { ...(st.disruptedPods ?? {}), [name]: this.c.timestamp() } };
    this.c.write(upd);
    del();
  }

  /**
   * Which scale subresource a kind has (./api/scale.ts): the built-ins', a custom resource's
   * paths, or none. A request for a missing one is a 404: a built-in resource's path matches no
   * route (kubectl prints `the server could not find the requested resource`), a custom
   * resource's is the CRD handler's NotFound for the object (crdHandler.ServeHTTP).
   */
  private scalePaths(kind: string, name: string): ScalePaths | undefined {
    if (BUILTIN_SCALABLE.has(kind)) return undefined;
    const info = this.c.discovery().infoForKind(kind);
    const crd = info.crd ? this.c.store.get<CustomResourceDefinition>('CustomResourceDefinition', undefined, info.crd) : undefined;
    const paths = crd ? (crdVersion(crd, info.version)?.subresources?.scale as ScalePaths | undefined) : undefined;
    if (paths) return paths;
    if (info.crd) throw notFound(info, name);
    throw new ApiError('NotFound', 'the server could not find the requested resource', 404);
  }

  /**
   * GET …/NAME/scale. A custom resource without its spec replicas is ScaleREST.Get's
   * `NewInternalError(fmt.Errorf("the spec replicas field %q does not exist", specReplicasPath))`
   * (apiextensions-apiserver pkg/registry/customresource/etcd.go); a PATCH sets them (its merge
   * patch replaces the placeholder count UpdatedObject puts there).
   */
  getScale(kind: string, namespace: string | undefined, name: string): Scale {
    const { obj, paths } = this.scaleTarget('get', kind, namespace, name);
    if (!paths) return scaleOf(obj, undefined);
    const { scale, found } = customScale(obj, paths);
    if (!found) throw new ApiError('InternalError', `Internal error occurred: the spec replicas field ${goQuote(paths.specReplicasPath)} does not exist`, 500);
    return scale;
  }

  /** A request to …/NAME/scale: served, authorized on the subresource, the CRD's paths, the parent object. */
  private scaleTarget(verb: 'get' | 'patch' | 'update', kind: string, namespace: string | undefined, name: string): { obj: KObject; paths: ScalePaths | undefined } {
    this.ensureUp();
    this.served(kind);
    const info = this.c.discovery().infoForKind(kind);
    const ns = info.namespaced ? (namespace ?? 'default') : undefined;
    if (this.client) this.authorize({ verb, group: info.group, resource: info.resource, subresource: 'scale', name, ...(ns ? { namespace: ns } : {}) });
    const paths = this.scalePaths(kind, name);
    const obj = this.c.store.get(kind, ns, name);
    if (!obj) throw notFound(info, name);
    return { obj, paths };
  }

  /**
   * PATCH …/NAME/scale with kubectl scale's merge patch `{"spec":{"replicas":N}}`: the count goes
   * to spec.replicas (or the CRD's specReplicasPath) and the object is updated as any write is
   * (validation, admission). Returns the object as written.
   */
  patchScale(kind: string, namespace: string | undefined, name: string, replicas: number, opts: WriteOptions = {}): KObject {
    const { obj, paths } = this.scaleTarget('patch', kind, namespace, name);
    const err = scalePatchError(scaleOf(obj, paths), replicas);
    if (err) throw err;
    const upd = clone(obj);
    writePath(upd as unknown as Record<string, unknown>, paths?.specReplicasPath ?? '.spec.replicas', replicas);
    // the scale storage writes the parent object itself: the subresource's authorization stands for it
    const fieldManager = opts.fieldManager ?? this.client?.fieldManager;
    return new ApiServer(this.c).update(upd, { ...opts, ...(fieldManager ? { fieldManager } : {}), subresource: 'scale' });
  }

  /**
   * PATCH or PUT …/NAME/scale with a whole Scale (kubectl patch|replace --subresource=scale): the
   * ScaleREST Update of pkg/registry/apps/deployment/storage/storage.go and its twins
   * (scaleUpdatedObjectInfo.UpdatedObject): the Scale is validated (autoscaling validation
   * ValidateScale: spec.replicas non-negative, as `Scale.autoscaling "NAME" is invalid`; a custom
   * resource's Scale is not validated, its object is, after the count was written to it), a
   * resourceVersion it carries is the parent's precondition (a stale one is the parent's
   * Conflict), only spec.replicas reaches the parent, and the answer is the Scale of the parent
   * as written.
   */
  updateScale(kind: string, namespace: string | undefined, name: string, scale: Scale, verb: 'patch' | 'update', opts: WriteOptions = {}): Scale {
    const { obj, paths } = this.scaleTarget(verb, kind, namespace, name);
    const info = this.c.discovery().infoForKind(kind);
    const replicas = scale.spec?.replicas ?? 0;
    const tooBig = scalePatchError(scaleOf(obj, paths), replicas);
    if (tooBig) throw tooBig;
    // a custom resource's ScaleREST validates no Scale: the count reaches the object, whose
    // strategy refuses it (customResourceValidator.ValidateScaleSpec, ./api/scale.ts customScaleErrors)
    if (replicas < 0 && !paths) throw invalid({ ...info, kind: 'Scale', group: 'autoscaling' }, name, [field.invalid('spec.replicas', replicas, 'must be greater than or equal to 0')]);
    const rv = scale.metadata?.resourceVersion;
    if (rv && rv !== obj.metadata.resourceVersion) throw conflict(info, name, 'the object has been modified; please apply your changes to the latest version and try again');
    const upd = clone(obj);
    writePath(upd as unknown as Record<string, unknown>, paths?.specReplicasPath ?? '.spec.replicas', replicas);
    const fieldManager = opts.fieldManager ?? this.client?.fieldManager;
    const written = new ApiServer(this.c).update(upd, { ...opts, ...(fieldManager ? { fieldManager } : {}), subresource: 'scale' });
    return scaleOf(written, paths);
  }

  /**
   * PUT …/NAME/scale with the object itself (kubectl replace -f FILE --subresource=scale sends the
   * file's object; a Scale in the file has no REST mapping on the client). After authorization
   * the update handler decodes the body into the subresource's autoscaling Scale
   * (apiserver pkg/endpoints/handlers/update.go): the versioning codec finds no conversion from
   * the object's type (conversion/converter.go `converting (%s) to (%s): unknown conversion`) and
   * transformDecodeError answers 400 `KIND in version "VERSION" cannot be handled as a Scale: …`.
   */
  replaceScale(body: KObject): never {
    const name = body.metadata.name;
    this.scaleTarget('update', body.kind, body.metadata.namespace, name);
    const version = body.apiVersion.split('/').pop() ?? '';
    throw badRequest(`${body.kind} in version "${version}" cannot be handled as a Scale: converting (${version}.${body.kind}) to (autoscaling.Scale): unknown conversion`);
  }

  /**
   * The pods/ephemeralcontainers subresource (pkg/registry/core/pod/storage EphemeralContainersREST):
   * the pod's ephemeral containers replaced by `list`, which may only add to them
   * (validation.go validateEphemeralContainers, ValidatePodEphemeralContainersUpdate).
   */
  updateEphemeralContainers(namespace: string, name: string, list: Container[]): Pod {
    this.ensureUp();
    this.served('Pod');
    if (this.client) this.authorize({ verb: 'patch', group: '', resource: 'pods', subresource: 'ephemeralcontainers', name, namespace });
    const info = this.c.discovery().infoForKind('Pod');
    const pod = this.c.store.get<Pod>('Pod', namespace, name);
    if (!pod) throw notFound(info, name);
    const errs: FieldError[] = [];
    const old = pod.spec.ephemeralContainers ?? [];
    const changed = old.filter((o) => JSON.stringify(list.find((e) => e.name === o.name)) !== JSON.stringify(o)).map((o) => o.name);
    if (changed.length) errs.push(field.forbidden('spec.ephemeralContainers', `existing ephemeral containers ${changed.map((n) => JSON.stringify(n)).join(', ')} may not be removed or changed`));
    const names = new Set([...pod.spec.containers, ...(pod.spec.initContainers ?? [])].map((ct) => ct.name));
    const targets = new Set(names);
    list.forEach((ct, i) => {
      const at = `spec.ephemeralContainers[${i}]`;
      if (!ct.name) errs.push(field.required(`${at}.name`));
      else if (names.has(ct.name)) errs.push(field.duplicate(`${at}.name`, ct.name));
      else names.add(ct.name);
      if (!ct.image) errs.push(field.required(`${at}.image`));
      const target = ct['targetContainerName'] as string | undefined;
      if (target && !targets.has(target)) errs.push(field.notFound(`${at}.targetContainerName`, target));
    });
    if (errs.length) throw invalid(info, name, errs);
    const upd = clone(pod);
    upd.spec.ephemeralContainers = list.map((ct) => ({ terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: ct.image.includes(':') && !ct.image.endsWith(':latest') ? 'IfNotPresent' : 'Always', ...ct }));
    this.c.write(upd);
    this.c.settle();
    return clone(this.c.store.get<Pod>('Pod', namespace, name) ?? upd);
  }

  /** Who owns what a write sets: the request's field manager, else the client's default. */
  private writeContext(obj: KObject, opts: WriteOptions): { manager: string; apiVersion: string; now: string; subresource?: string; statusIsSubresource: boolean } | undefined {
    const manager = opts.fieldManager ?? this.client?.fieldManager;
    if (!manager) return undefined;
    return { manager, apiVersion: obj.apiVersion, now: rfc3339(this.c.now()), ...(opts.subresource ? { subresource: opts.subresource } : {}), statusIsSubresource: this.hasStatusSubresource(obj.kind) };
  }

  /**
   * A create records its manager's Update entry over the defaulted object, before admission
   * (apiserver handlers/create.go calls the field manager before admit); entries the request
   * itself carries are kept (fieldmanager.go decodeLiveOrNew).
   */
  private trackCreate(obj: KObject, opts: WriteOptions, askedFinalizers: string[] | undefined): void {
    if (opts.managed) return void (obj.metadata.managedFields = opts.managed);
    const w = this.writeContext(obj, opts);
    const given = managedFieldsOf(obj);
    if (!w) return;
    const seen = withoutManagedFields(obj);
    if (obj.kind === 'Namespace') seen['spec'] = askedFinalizers ? { finalizers: askedFinalizers } : {};
    const entries = recordUpdate(given, undefined, seen as unknown as Json, w);
    if (entries.length > 0) obj.metadata.managedFields = entries;
    else delete obj.metadata.managedFields;
  }

  /**
   * An update keeps the stored entries unless the request brings its own (`[{}]` clears them),
   * and records its manager's change (handlers/update.go, fieldmanager.go decodeLiveOrNew).
   */
  private trackUpdate(obj: KObject, old: KObject, opts: WriteOptions): void {
    if (opts.managed) return void (obj.metadata.managedFields = opts.managed);
    const given = managedFieldsOf(obj);
    const reset = given?.length === 1 && Object.keys(given[0]!).length === 0;
    const prior = reset ? [] : given && given.length > 0 ? given : managedFieldsOf(old);
    const w = this.writeContext(obj, opts);
    const entries = w ? recordUpdate(prior, withoutManagedFields(old) as unknown as Json, withoutManagedFields(obj) as unknown as Json, w) : (prior ?? []);
    if (entries.length > 0) obj.metadata.managedFields = entries;
    else delete obj.metadata.managedFields;
  }

  /**
   * Server-side apply (PATCH with application/apply-patch+yaml, handlers/patch.go applyPatcher):
   * the configuration is merged into the live object by field ownership (./api/managed-fields.ts
   * applyConfig), or creates the object when there is none; the result is written as any create
   * or update is (defaulting, validation, admission). A change to a field another manager owns
   * is a 409 Conflict unless forced.
   */
  apply<T extends KObject>(input: T, opts: ApplyOptions = {}): T {
    this.ensureUp();
    const { obj: config, ns } = this.decodeNamed(input, opts);
    this.check('patch', config.kind, ns, config.metadata.name);
    const live = this.c.store.get(config.kind, ns, config.metadata.name);
    const w = this.writeContext(config, opts);
    if (!w) throw new ApiError('BadRequest', 'PATCH request with apply patch requires fieldManager', 400);
    const body = withoutManagedFields(config) as unknown as Json;
    let result: ReturnType<typeof applyConfig>;
    const run = (force: boolean): ReturnType<typeof applyConfig> => applyConfig(live ? managedFieldsOf(live) : [], live ? (withoutManagedFields(live) as unknown as Json) : undefined, body, force, w);
    try {
      result = run(opts.force === true);
    } catch (e) {
      if (!(e instanceof ApplyConflictError)) throw e;
      // lastappliedmanager.go: kubectl taking over what its client-side apply set is no conflict
      if (w.manager !== 'kubectl' || !conflictsAllowedByLastApplied(e.conflicts, live?.metadata.annotations?.[LAST_APPLIED], w.statusIsSubresource))
        throw new ApiError('Conflict', e.message, 409);
      result = run(true);
    }
    const next = result.obj as unknown as T;
    // fieldmanager lastappliedupdater.go: kubectl's own applies keep a client-side apply annotation current
    if (live && w.manager === 'kubectl') syncLastApplied(next, body);
    const write: WriteOptions = { ...opts, managed: result.managedFields };
    if (!live) return this.create(next, write);
    next.metadata.resourceVersion = live.metadata.resourceVersion!;
    return this.update(next, write);
  }

  /**
   * Whether writes to the main resource leave status alone: the built-ins with a status
   * subresource, and custom resources whose CRD version declares `subresources.status`.
   */
  private hasStatusSubresource(kind: string): boolean {
    if (STATUS_SUBRESOURCE.has(kind)) return true;
    const info = this.c.discovery().infoForKind(kind);
    if (!info.crd) return false;
    const crd = this.c.store.get<CustomResourceDefinition>('CustomResourceDefinition', undefined, info.crd);
    return crd ? crdVersion(crd, info.version)?.subresources?.status !== undefined : false;
  }

  private orphanDependents(owner: KObject): void {
    for (const kind of this.c.store.kinds()) {
      for (const o of this.c.store.list(kind, owner.metadata.namespace)) {
        if (!o.metadata.ownerReferences?.some((r) => r.uid === owner.metadata.uid)) continue;
        const upd = clone(o);
        upd.metadata.ownerReferences = upd.metadata.ownerReferences!.filter((r) => r.uid !== owner.metadata.uid);
        if (upd.metadata.ownerReferences.length === 0) delete upd.metadata.ownerReferences;
        this.c.write(upd);
      }
    }
  }

  /**
   * NamespaceLifecycle (plugin/pkg/admission/namespace/lifecycle/admission.go): no create in a
   * namespace being terminated, refused through admission.NewForbidden, so the message names the
   * resource and the object (apimachinery errors.go NewForbidden: `pods "x" is forbidden: …`;
   * admission/errors.go extractResourceName: the name, else generateName, else "Unknown").
   */
  private admitNamespace(ns: string, info: ResourceInfo, name: string): void {
    const nsObj = this.c.store.get('Namespace', undefined, ns);
    if (!nsObj) throw new ApiError('NotFound', `namespaces "${ns}" not found`, 404);
    if (nsObj.metadata.deletionTimestamp)
      throw forbidden(`${qualifiedResource(info)} "${name}" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`);
  }


  // -------------------------------------------------------------------------------------------
  // Strategies per kind

  private validate(obj: KObject, old: KObject | undefined, statusOnly = false): FieldError[] {
    switch (obj.kind) {
      case 'Service':
        return this.validateService(obj as Service, old as Service | undefined);
      case 'Deployment':
      case 'ReplicaSet':
      case 'DaemonSet':
      case 'StatefulSet':
        return this.validateWorkload(obj as Deployment, old as Deployment | undefined);
      case 'Pod':
        return this.validatePod(obj as Pod, old as Pod | undefined);
      case 'Job':
        return validateJob(obj as Job, old as Job | undefined);
      case 'CronJob':
        return validateCronJob(obj as CronJob, old as CronJob | undefined);
      case 'PersistentVolumeClaim':
        return old ? validateClaimUpdate(obj as PersistentVolumeClaim, old as PersistentVolumeClaim) : [];
      case 'CustomResourceDefinition':
        return validateCrd(obj as CustomResourceDefinition);
      case 'PriorityClass':
        return validatePriorityClass(obj as PriorityClass, old as PriorityClass | undefined);
      case 'IPAddress':
        return validateIPAddress(obj, old);
      default: {
        // customResourceStrategy.Validate (validator.go Validate/ValidateUpdate): the object
        // against its version's openAPIV3Schema, then its scale fields (./api/scale.ts
        // customScaleErrors); the status strategy's ValidateStatusUpdate checks only the status ones
        const custom = this.customSchema(obj);
        if (!custom) return [];
        return [...validateCustomResource(obj, custom.schema), ...(custom.scale ? customScaleErrors(obj, custom.scale, statusOnly ? 'status' : 'spec+status') : [])];
      }
    }
  }

  private validatePod(pod: Pod, old: Pod | undefined): FieldError[] {
    const errs: FieldError[] = validatePodSpecFields(pod.spec, 'spec');
    const policies = ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'];
    if (pod.spec.dnsPolicy && !policies.includes(pod.spec.dnsPolicy))
      errs.push(field.notSupported('spec.dnsPolicy', pod.spec.dnsPolicy, policies));
    if (pod.spec.dnsPolicy === 'None' && !(pod.spec.dnsConfig?.nameservers?.length))
      errs.push(field.required('spec.dnsConfig.nameservers', "must provide at least one DNS nameserver when `dnsPolicy` is None"));
    if (old) {
      // ValidatePodUpdate (pkg/apis/core/validation/validation.go) compares the specs only:
      // metadata (labels, annotations) of any pod may change. The stored pod was defaulted when
      // it was created; an older stored object is defaulted here so that fields the API server
      // adds (service account, tolerations, requests from limits) never count as a change.
      const before = clone(old);
      applyDefaults(before);
      const strip = (p: Pod): string =>
        JSON.stringify({ ...p.spec, containers: (p.spec.containers ?? []).map((c) => ({ ...c, image: '' })), tolerations: [], terminationGracePeriodSeconds: 0, activeDeadlineSeconds: 0, nodeName: '' });
      if (strip(pod) !== strip(before))
        errs.push(
          field.forbidden(
            'spec',
            'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
          ),
        );
    }
    return errs;
  }

  private validateWorkload(obj: Deployment, old: Deployment | undefined): FieldError[] {
    const errs: FieldError[] = [];
    const sel = obj.spec?.selector;
    if (!sel || (!sel.matchLabels && !sel.matchExpressions)) errs.push(field.required('spec.selector'));
    else if (!matchLabelSelector(sel, obj.spec.template?.metadata?.labels))
      errs.push(field.invalid('spec.template.metadata.labels', obj.spec.template?.metadata?.labels ?? {}, '`selector` does not match template `labels`'));
    if (old && (obj.kind as string) === 'StatefulSet') errs.push(...statefulSetSpecUpdate(obj, old));
    else if (old) errs.push(...immutableSelector('spec.selector', obj.spec.selector, old.spec.selector));
    if ((obj.kind as string) !== 'DaemonSet' && obj.spec.replicas !== undefined && obj.spec.replicas < 0)
      errs.push(field.invalid('spec.replicas', obj.spec.replicas, 'must be greater than or equal to 0'));
    // ValidatePodTemplateSpec: the template's metadata as an object's, then its pod spec
    errs.push(...validateLabels(obj.spec.template?.metadata?.labels, 'spec.template.metadata.labels'));
    errs.push(...validateAnnotations(obj.spec.template?.metadata?.annotations, 'spec.template.metadata.annotations'));
    errs.push(...validatePodSpecFields(obj.spec.template?.spec, 'spec.template.spec'));
    // apps validation ValidatePodTemplateSpecForReplicaSet: workload pods always restart
    const rp = obj.spec.template?.spec?.restartPolicy;
    if (rp !== undefined && rp !== 'Always') errs.push(field.notSupported('spec.template.spec.restartPolicy', rp, ['Always']));
    if ((obj.kind as string) === 'Deployment') errs.push(...deploymentStrategyErrors(obj.spec.strategy));
    if ((obj.kind as string) === 'DaemonSet') errs.push(...daemonSetStrategyErrors((obj as unknown as DaemonSet).spec.updateStrategy));
    return errs;
  }

  private validateService(svc: Service, old: Service | undefined): FieldError[] {
    const errs: FieldError[] = [];
    const spec = svc.spec;
    const type = spec.type ?? 'ClusterIP';
    if (!SERVICE_TYPES.includes(type)) errs.push(field.notSupported('spec.type', type, SERVICE_TYPES));
    const ports = spec.ports ?? [];
    if (type !== 'ExternalName' && ports.length === 0 && spec.clusterIP !== 'None') errs.push(field.required('spec.ports'));
    const names = new Set<string>();
    ports.forEach((p, i) => {
      const e = inclusiveRange(`spec.ports[${i}].port`, p.port, 1, 65535);
      if (e) errs.push(e);
      if (ports.length > 1 && !p.name) errs.push(field.required(`spec.ports[${i}].name`));
      if (p.name) {
        if (names.has(p.name)) errs.push(field.duplicate(`spec.ports[${i}].name`, p.name));
        names.add(p.name);
      }
      if (p.protocol && !['TCP', 'UDP', 'SCTP'].includes(p.protocol))
        errs.push(field.notSupported(`spec.ports[${i}].protocol`, p.protocol, ['SCTP', 'TCP', 'UDP']));
      if (p.nodePort && type === 'ClusterIP')
        errs.push(field.forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
      if (typeof p.targetPort === 'number') {
        const te = inclusiveRange(`spec.ports[${i}].targetPort`, p.targetPort, 1, 65535);
        if (te) errs.push(te);
      }
    });
    if (type === 'ExternalName') {
      // ValidateService: the CNAME may carry one trailing dot; the rest is a DNS-1123 subdomain
      const cname = (spec.externalName ?? '').replace(/\.$/, '');
      if (cname.length > 0) errs.push(...validateName(cname, 'subdomain', 'spec.externalName'));
      else errs.push(field.required('spec.externalName'));
    }
    // ValidateService: the fields an ExternalName Service may not carry, and no headless NodePort
    if (type === 'ExternalName') {
      if (spec.clusterIP || (spec.clusterIPs ?? []).length > 0) errs.push(field.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
      if ((spec.ipFamilies ?? []).length > 0) errs.push(field.forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
      if (spec.ipFamilyPolicy !== undefined) errs.push(field.forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    } else if ((type === 'NodePort' || type === 'LoadBalancer') && spec.clusterIPs?.[0] === 'None') {
      errs.push(field.invalid('spec.clusterIPs[0]', 'None', `may not be set to 'None' for ${type} services`));
    }
    errs.push(...validateClusterIPsRelated(svc));
    if (old) errs.push(...validateFamilyUpdate(svc, old));
    if (type === 'NodePort' || type === 'LoadBalancer') {
      const [lo, hi] = nodePortRange(this.c);
      const used = this.allocatedNodePorts(svc);
      ports.forEach((p, i) => {
        if (!p.nodePort) return;
        const oldPort = old?.spec.ports?.find((op) => op.nodePort === p.nodePort);
        if (oldPort) return;
        if (p.nodePort < lo || p.nodePort > hi)
          errs.push(field.invalid(`spec.ports[${i}].nodePort`, p.nodePort, `provided port is not in the valid range. The range of valid ports is ${lo}-${hi}`));
        else if (used.has(p.nodePort)) errs.push(field.invalid(`spec.ports[${i}].nodePort`, p.nodePort, 'provided port is already allocated'));
      });
    }
    return errs;
  }

  /** The ClusterIPs in use, and the addresses IPAddress objects created by hand reserve (ipallocator.go: an IPAddress that exists is allocated). */
  private allocatedIPs(): Set<string> {
    const s = new Set<string>();
    for (const svc of this.c.store.list<Service>('Service')) for (const ip of clusterIPsOf(svc)) s.add(ip);
    for (const a of this.c.store.list('IPAddress')) s.add(a.metadata.name);
    return s;
  }

  private allocatedNodePorts(except?: Service): Set<number> {
    const s = new Set<number>();
    for (const svc of this.c.store.list<Service>('Service')) {
      if (except && svc.metadata.namespace === except.metadata.namespace && svc.metadata.name === except.metadata.name) continue;
      for (const p of svc.spec.ports ?? []) if (p.nodePort) s.add(p.nodePort);
    }
    return s;
  }

  /**
   * ClusterIP allocation as the bitmap allocator with a static sub-range does it
   * (pkg/registry/core/service/ipallocator): dynamic allocations come from the upper band first,
   * at a random offset (the seeded source), so the low band stays free for pinned IPs like .10.
   */
  private allocateClusterIP(range: IPRange): string {
    const used = this.allocatedIPs();
    // the network address is never handed out, nor IPv4's broadcast address; a range larger than
    // the allocator's bitmap is used up to its size (2^32 here)
    const size = Math.min(Number(range.size) - (range.family === 'IPv4' ? 2 : 1), 2 ** 32);
    const staticBand = Math.min(Math.max(16, Math.floor(size / 16)), 256);
    const dynamic = size - staticBand;
    for (let tries = 0; tries < 64; tries++) {
      const off = 1 + staticBand + this.c.random.int(Math.max(1, dynamic));
      const ip = rangeAddress(range, BigInt(off));
      if (!used.has(ip)) return ip;
    }
    for (let off = 1; off <= Math.min(size, 2 ** 20); off++) {
      const ip = rangeAddress(range, BigInt(off));
      if (!used.has(ip)) return ip;
    }
    throw new ApiError('Invalid', 'Internal error occurred: failed to allocate a serviceIP: range is full', 500);
  }

  /** The cluster's Service CIDRs (--service-cluster-ip-range), the default family first. */
  private serviceRanges(): IPRange[] {
    return serviceRanges(serviceCIDR(this.c));
  }

  /**
   * The service registry's BeginCreate (pkg/registry/core/service/storage/storage.go beginCreate):
   * ClusterIP fields normalised, IP families settled (alloc.go initIPFamilyFields) and the
   * ClusterIPs the user asked for checked against the allocators, all before the strategy
   * validates the object, so these errors come alone. Dynamic ClusterIPs are drawn later
   * (prepareCreate), after validation, which is invisible to the user and keeps the random
   * source's draws for valid objects only.
   */
  private beginServiceCreate(svc: Service, info: ResourceInfo, dryRun: boolean): void {
    normalizeClusterIPs(svc, undefined);
    const ranges = this.serviceRanges();
    const errs = initIPFamilyFields(svc, undefined, ranges);
    if (errs.length === 0) errs.push(...this.requestedClusterIPErrors(svc, undefined, ranges, dryRun));
    if (errs.length > 0) throw invalid(info, svc.metadata.name, errs);
  }

  /**
   * The registry's update path for Services: storage.go beginUpdate (patchAllocatedValues,
   * normalizeClusterIPs, alloc.go allocateUpdate's family fields and the ClusterIPs it names),
   * then the strategy's PrepareForUpdate (dropTypeDependentFields) before validation.
   */
  private prepareServiceUpdate(svc: Service, old: Service, info: ResourceInfo, dryRun: boolean): void {
    patchAllocatedClusterIPs(svc, old);
    normalizeClusterIPs(svc, old);
    const ranges = this.serviceRanges();
    const errs = initIPFamilyFields(svc, old, ranges);
    if (errs.length === 0) errs.push(...this.requestedClusterIPErrors(svc, old, ranges, dryRun));
    if (errs.length > 0) throw invalid(info, svc.metadata.name, errs);
    dropTypeDependentFields(svc, old);
  }

  /**
   * alloc.go allocIPs for the ClusterIPs a request names (new ones only on update), each failure
   * `field.Invalid(spec.clusterIPs, service.Spec.ClusterIPs, "failed to allocate IP %v: %v")` in
   * NewInvalid(Service). The MultiCIDRServiceAllocator (GA in 1.33, ipallocator/cidrallocator.go)
   * finds the ServiceCIDR holding the address with servicecidr.PrefixContainsIP (never its network
   * address, nor IPv4's broadcast address): none is ErrMismatchedNetwork; the IPAddress-based
   * allocator (ipallocator/ipallocator.go createIPAddress) answers an existing IPAddress — a live
   * Service's, one a Service being deleted still holds, or one created by hand — with ErrAllocated.
   * A dry run goes to MetaAllocator.DryRun, one range's dryRunAllocator, whose allocateService
   * checks only that range's first..last address (ErrNotInRange: `the provided IP (%v) is not in
   * the valid range. The range of valid IPs is %s`) and never whether the address is taken, so
   * `--dry-run=server` accepts an address a real create refuses.
   */
  private requestedClusterIPErrors(svc: Service, old: Service | undefined, ranges: readonly IPRange[], dryRun = false): FieldError[] {
    if ((svc.spec.type ?? 'ClusterIP') === 'ExternalName') return [];
    const ips = svc.spec.clusterIPs ?? [];
    if (ips[0] === 'None') return [];
    // updateClusterIPs: an update allocates only when it turns an ExternalName into a Service with
    // ClusterIPs (all of them) or upgrades to dual-stack (the secondary one)
    let asked = ips.map((ip, i) => ({ ip, i }));
    if (old && (old.spec.type ?? 'ClusterIP') !== 'ExternalName')
      asked = (old.spec.ipFamilies ?? []).length === 1 && (svc.spec.ipFamilies ?? []).length === 2 ? asked.filter((a) => a.i === 1) : [];
    // every Service's addresses, gathered only when an address is asked for (most updates ask none)
    let used: Set<string> | undefined;
    for (const { ip } of asked) {
      if (!ip) continue;
      const fail = (why: string): FieldError[] => [field.invalid('spec.clusterIPs', ips, `failed to allocate IP ${ip}: ${why}`)];
      if (dryRun) {
        const range = ranges.find((r) => r.family === ipFamilyOf(ip));
        if (range && !allocatorRangeContains(range, ip)) return fail(`the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${range.text}`);
        continue;
      }
      if (!ranges.some((r) => allocatorRangeContains(r, ip))) return fail('the provided network does not match the current range');
      if ((used ??= this.allocatedIPs()).has(ip)) return fail('provided IP is already allocated');
    }
    return [];
  }

  private allocateNodePort(used: Set<number>): number {
    const [lo, hi] = nodePortRange(this.c);
    const size = hi - lo + 1;
    const staticBand = Math.min(Math.max(16, Math.floor(size / 32)), 128);
    for (let tries = 0; tries < 64; tries++) {
      const p = lo + staticBand + this.c.random.int(Math.max(1, size - staticBand));
      if (!used.has(p)) return p;
    }
    for (let p = lo; p <= hi; p++) if (!used.has(p)) return p;
    throw new ApiError('Invalid', 'Internal error occurred: failed to allocate a nodePort: range is full', 500);
  }

  private prepareCreate(obj: KObject): void {
    if (obj.kind === 'Service') {
      const svc = obj as Service;
      const type = svc.spec.type ?? 'ClusterIP';
      if (type !== 'ExternalName') this.allocateClusterIPs(svc);
      this.assignNodePorts(svc);
    }
  }

  /**
   * alloc.go allocClusterIPs: one ClusterIP per requested family, drawn from that family's
   * range where the request named none; clusterIP mirrors the first. Headless Services get none.
   */
  private allocateClusterIPs(svc: Service): void {
    const spec = svc.spec;
    if (spec.clusterIPs?.[0] === 'None' || spec.clusterIP === 'None') {
      spec.clusterIP = 'None';
      spec.clusterIPs = ['None'];
      return;
    }
    const ranges = this.serviceRanges();
    const ips = [...(spec.clusterIPs ?? [])];
    (spec.ipFamilies ?? []).forEach((fam, i) => {
      if (ips[i]) return;
      const range = ranges.find((r) => r.family === fam);
      if (range) ips[i] = this.allocateClusterIP(range);
    });
    spec.clusterIPs = ips;
    if (ips[0]) spec.clusterIP = ips[0];
  }

  private prepareUpdate(obj: KObject, old: KObject): void {
    if (obj.kind === 'Namespace') {
      // namespaceStrategy.PrepareForUpdate: spec.finalizers changes only through finalize
      const spec = (old as Namespace).spec;
      (obj as Namespace).spec = spec?.finalizers ? { finalizers: [...spec.finalizers] } : {};
    }
    if (obj.kind === 'Service') {
      const svc = obj as Service;
      const o = old as Service;
      const type = svc.spec.type ?? 'ClusterIP';
      if (type === 'ExternalName') {
        delete svc.spec.clusterIP;
        delete svc.spec.clusterIPs;
      } else {
        // alloc.go updateClusterIPs: ExternalName → ClusterIP allocates afresh, an upgrade to
        // dual-stack adds the secondary family's ClusterIP, a downgrade keeps the primary
        svc.spec.clusterIPs = (svc.spec.clusterIPs ?? []).slice(0, Math.max(1, (svc.spec.ipFamilies ?? []).length));
        this.allocateClusterIPs(svc);
      }
      if (type === 'ClusterIP' || type === 'ExternalName') for (const p of svc.spec.ports ?? []) delete p.nodePort;
      else {
        // keep nodePorts the user did not specify (as the registry does on update)
        for (const p of svc.spec.ports ?? []) {
          if (p.nodePort) continue;
          const prev = o.spec.ports?.find((op) => op.port === p.port && (op.protocol ?? 'TCP') === (p.protocol ?? 'TCP'));
          if (prev?.nodePort) p.nodePort = prev.nodePort;
        }
      }
      if (type !== 'NodePort' && type !== 'LoadBalancer') delete svc.spec.externalTrafficPolicy;
      else svc.spec.externalTrafficPolicy ??= 'Cluster';
      this.assignNodePorts(svc);
    }
  }

  private assignNodePorts(svc: Service): void {
    const type = svc.spec.type ?? 'ClusterIP';
    if (type !== 'NodePort' && type !== 'LoadBalancer') return;
    // a LoadBalancer may opt out of NodePorts; ports the user set explicitly are kept
    if (type === 'LoadBalancer' && svc.spec.allocateLoadBalancerNodePorts === false) return;
    const used = this.allocatedNodePorts(svc);
    for (const p of svc.spec.ports ?? []) if (p.nodePort) used.add(p.nodePort);
    const byPort = new Map<number, number>();
    for (const p of svc.spec.ports ?? ([] as ServicePort[])) {
      if (p.nodePort) continue;
      // the same port number over TCP and UDP shares one nodePort, as the registry does
      const shared = byPort.get(p.port);
      p.nodePort = shared ?? this.allocateNodePort(used);
      used.add(p.nodePort);
      byPort.set(p.port, p.nodePort);
    }
  }
}

/**
 * Whether an update's object is the stored one (resourceVersion aside), key order aside: their
 * canonical texts compared without building them (sameCanonicalJSON, exact), stopping at the
 * first difference and at the stored parts the update still shares.
 */
function sameStored(obj: KObject, old: KObject): boolean {
  const strip = (o: KObject): unknown => ({ ...o, metadata: { ...o.metadata, resourceVersion: undefined } });
  return sameCanonicalJSON(strip(obj), strip(old));
}
