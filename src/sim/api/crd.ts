/**
 * CustomResourceDefinitions as apiextensions-apiserver serves them
 * (k8s.io/apiextensions-apiserver pkg/apiserver, pkg/controller/status/naming_controller.go,
 * pkg/controller/establish/establishing_controller.go, pkg/apiserver/customresource_discovery_controller.go):
 * which names a CRD may take, when it is Established, and the discovery entries of the
 * resources Established CRDs serve.
 */
import { BUILTIN, Discovery, type ResourceInfo } from './registry.js';
import type { KObject } from './types.js';
import { sameItems } from '../../util/same-items.js';

export interface CrdNames {
  kind: string;
  listKind?: string;
  plural: string;
  singular?: string;
  shortNames?: string[];
  categories?: string[];
}

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  schema?: { openAPIV3Schema?: Record<string, unknown> };
  additionalPrinterColumns?: { name: string; type: string; jsonPath: string; description?: string; format?: string; priority?: number }[];
  subresources?: { status?: Record<string, never>; scale?: Record<string, string> };
  deprecated?: boolean;
  deprecationWarning?: string;
}

export interface CrdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface CustomResourceDefinition extends KObject {
  spec: {
    group: string;
    names: CrdNames;
    scope: 'Namespaced' | 'Cluster';
    versions: CrdVersion[];
    conversion?: { strategy: string };
    preserveUnknownFields?: boolean;
  };
  status?: {
    acceptedNames?: CrdNames;
    conditions?: CrdCondition[];
    storedVersions?: string[];
  };
}

/** A condition of a CRD's status, or undefined. */
export function crdCondition(crd: CustomResourceDefinition, type: string): CrdCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

/** apiextensions helpers.IsCRDConditionTrue(crd, Established). */
export function isEstablished(crd: CustomResourceDefinition): boolean {
  return crdCondition(crd, 'Established')?.status === 'True';
}

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * k8s.io/apimachinery pkg/version/helpers.go CompareKubeAwareVersionStrings: GA before beta before
 * alpha, higher numbers first; versions that are not Kubernetes-like come last, alphabetically.
 * Negative when `a` has the higher priority.
 */
export function compareKubeAwareVersions(a: string, b: string): number {
  const ma = KUBE_VERSION.exec(a);
  const mb = KUBE_VERSION.exec(b);
  if (!ma || !mb) {
    if (ma) return -1;
    if (mb) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const rank = (m: RegExpExecArray): number => (m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0);
  if (rank(ma) !== rank(mb)) return rank(mb) - rank(ma);
  if (Number(ma[1]) !== Number(mb[1])) return Number(mb[1]) - Number(ma[1]);
  return Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
}

/** The served versions of a CRD, highest priority first (the preferred version is the first). */
export function servedVersions(crd: CustomResourceDefinition): string[] {
  return (crd.spec.versions ?? []).filter((v) => v.served).map((v) => v.name).sort(compareKubeAwareVersions);
}

/** The spec.versions entry of a version name. */
export function crdVersion(crd: CustomResourceDefinition, name: string): CrdVersion | undefined {
  return (crd.spec.versions ?? []).find((v) => v.name === name);
}

/**
 * The discovery entry of an Established CRD, from its accepted names (the discovery controller
 * serves status.acceptedNames, not spec.names); undefined when it serves no version.
 */
export function crdResourceInfo(crd: CustomResourceDefinition): ResourceInfo | undefined {
  const names = crd.status?.acceptedNames ?? crd.spec.names;
  const versions = servedVersions(crd);
  if (versions.length === 0 || !names?.plural || !names.kind) return undefined;
  return {
    kind: names.kind,
    resource: names.plural,
    singular: names.singular || names.kind.toLowerCase(),
    group: crd.spec.group,
    version: versions[0]!,
    namespaced: crd.spec.scope === 'Namespaced',
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    all: (names.categories ?? []).includes('all'),
    crd: crd.metadata.name,
    servedVersions: versions,
  };
}

/**
 * Discovery with the custom resources of the given CRDs after the built-ins. CRD groups get
 * groupPriorityMinimum 1000 (crdregistration_controller.go), below every built-in group, and tie
 * among themselves, so they follow in group-name order; resources within a group by name.
 */
export function discoveryWithCrds(crds: readonly CustomResourceDefinition[]): Discovery {
  const custom = crds
    .filter(isEstablished)
    .map(crdResourceInfo)
    .filter((r): r is ResourceInfo => r !== undefined)
    .sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
  return custom.length === 0 ? BUILTIN : new Discovery([...BUILTIN.resources, ...custom]);
}

/** What discoveryOf reads: the CRDs of a store and a counter that moves when they change. */
export interface CrdSource {
  list<T extends KObject>(kind: string): T[];
  readonly changes: ReadonlyMap<string, number>;
}

const cache = new WeakMap<CrdSource, { at: number; d: Discovery }>();

/**
 * The discovery a store's CRDs give, rebuilt only when a CRD changed (the store's per-kind change
 * counter), so the ~100 lookups of a command stay cheap.
 */
export function discoveryOf(store: CrdSource): Discovery {
  const at = store.changes.get('CustomResourceDefinition') ?? 0;
  const hit = cache.get(store);
  if (hit && hit.at === at) return hit.d;
  const d = discoveryOfCrds(store.list<CustomResourceDefinition>('CustomResourceDefinition'));
  cache.set(store, { at, d });
  return d;
}

const MAX_CRD_SETS = 16;
/** Recent CRD lists (their frozen objects, in the store's order) and the discovery each gives. */
const byCrds: { crds: readonly CustomResourceDefinition[]; d: Discovery }[] = [];

/**
 * discoveryWithCrds of a store's CRD list, shared by every store that holds the very same CRD
 * objects: each run's session restores a saved store that shares the fixture's frozen CRDs, and
 * rebuilding its discovery was ~0.4 s of a library validation. Exact because discoveryWithCrds
 * reads nothing but those objects, and a stored object is deep-frozen (store.ts put): the same
 * objects in the same order give the same entries. A list holding an object that is not frozen
 * is not memoised.
 */
function discoveryOfCrds(crds: readonly CustomResourceDefinition[]): Discovery {
  if (crds.length === 0) return BUILTIN;
  for (const e of byCrds) if (sameItems(e.crds, crds)) return e.d;
  const d = discoveryWithCrds(crds);
  if (crds.every((c) => Object.isFrozen(c))) {
    if (byCrds.length >= MAX_CRD_SETS) byCrds.pop();
    byCrds.unshift({ crds: crds.slice(), d });
  }
  return d;
}

/**
 * naming_controller.go calculateNamesAndConditions: the names a CRD may take, given the names
 * the other CRDs of its group have accepted. A name in use makes NamesAccepted False with the
 * controller's reason and the CRD keeps its previously accepted names (none for a new one).
 */
export function calculateNames(crd: CustomResourceDefinition, others: readonly CustomResourceDefinition[]): { accepted: CrdNames | undefined; condition: Omit<CrdCondition, 'lastTransitionTime'> } {
  const req = crd.spec.names;
  const used = { plural: new Set<string>(), singular: new Set<string>(), shortNames: new Set<string>(), kind: new Set<string>(), listKind: new Set<string>() };
  for (const o of others) {
    if (o.metadata.name === crd.metadata.name || o.spec.group !== crd.spec.group) continue;
    const n = o.status?.acceptedNames;
    if (!n) continue;
    used.plural.add(n.plural);
    if (n.singular) used.singular.add(n.singular);
    for (const s of n.shortNames ?? []) used.shortNames.add(s);
    used.kind.add(n.kind);
    if (n.listKind) used.listKind.add(n.listKind);
  }
  const inUse = (reason: string, name: string): { accepted: CrdNames | undefined; condition: Omit<CrdCondition, 'lastTransitionTime'> } => ({
    accepted: crd.status?.acceptedNames,
    condition: { type: 'NamesAccepted', status: 'False', reason, message: `"${name}" is already in use` },
  });
  // the controller checks plural and singular (and each short name) against every accepted
  // resource name of the group, kind and listKind against every accepted kind
  const resourceNames = new Set([...used.plural, ...used.singular, ...used.shortNames]);
  if (resourceNames.has(req.plural)) return inUse('PluralConflict', req.plural);
  if (req.singular && resourceNames.has(req.singular)) return inUse('SingularConflict', req.singular);
  for (const s of req.shortNames ?? []) if (resourceNames.has(s)) return inUse('ShortNamesConflict', s);
  const kinds = new Set([...used.kind, ...used.listKind]);
  if (kinds.has(req.kind)) return inUse('KindConflict', req.kind);
  if (req.listKind && kinds.has(req.listKind)) return inUse('ListKindConflict', req.listKind);
  return { accepted: structuredClone(req), condition: { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' } };
}

/**
 * apiextensions v1 defaults.go SetDefaults_CustomResourceDefinition(Spec): conversion strategy
 * None, singular = lower-case kind, listKind = kind + "List" (in spec.names).
 */
export function defaultCrd(crd: CustomResourceDefinition): void {
  const spec = crd.spec as Partial<CustomResourceDefinition['spec']> | undefined;
  if (!spec || typeof spec !== 'object') return;
  spec.conversion ??= { strategy: 'None' };
  const n = spec.names;
  if (n && typeof n === 'object' && typeof n.kind === 'string') {
    if (!n.singular) n.singular = n.kind.toLowerCase();
    if (!n.listKind) n.listKind = `${n.kind}List`;
  }
}
