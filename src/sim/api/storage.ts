/**
 * Storage rules the API server, the scheduler and the volume controllers share (pure functions
 * over the store):
 *
 * - StorageClass defaulting (pkg/apis/storage/v1/defaults.go: reclaimPolicy Delete,
 *   volumeBindingMode Immediate) and the DefaultStorageClass admission plugin
 *   (plugin/pkg/admission/storage/storageclass/setdefault/admission.go): a claim created without
 *   spec.storageClassName gets the default class; with several defaults the newest wins.
 * - PersistentVolumeClaim update validation (pkg/apis/core/validation/validation.go
 *   ValidatePersistentVolumeClaimUpdate) and the PersistentVolumeClaimResize admission plugin
 *   (plugin/pkg/admission/storage/persistentvolume/resize/admission.go).
 * - Volume topology for scheduling (pkg/scheduler/framework/plugins/volumebinding): a bound
 *   claim's PV nodeAffinity must match the node; a claim of a WaitForFirstConsumer class waits
 *   for the pod's node instead of blocking scheduling.
 */
import type { KObject, Node, Pod } from './types.js';
import type { Store } from './store.js';
import { type FieldError, field, forbidden } from './errors.js';
import { matchLabelSelector } from './selectors.js';

export const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';
const BETA_DEFAULT_CLASS_ANNOTATION = 'storageclass.beta.kubernetes.io/is-default-class';
/** The annotation the scheduler sets on a delayed-binding claim once the pod has a node. */
export const SELECTED_NODE_ANNOTATION = 'volume.kubernetes.io/selected-node';
export const STORAGE_PROVISIONER_ANNOTATION = 'volume.kubernetes.io/storage-provisioner';
export const BETA_STORAGE_PROVISIONER_ANNOTATION = 'volume.beta.kubernetes.io/storage-provisioner';
export const PROVISIONED_BY_ANNOTATION = 'pv.kubernetes.io/provisioned-by';

export interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface StorageClass extends KObject {
  provisioner: string;
  parameters?: Record<string, string>;
  reclaimPolicy?: string;
  volumeBindingMode?: string;
  allowVolumeExpansion?: boolean;
  mountOptions?: string[];
}

export interface PersistentVolume extends KObject {
  spec: {
    capacity?: { storage?: string };
    accessModes?: string[];
    storageClassName?: string;
    claimRef?: { kind?: string; namespace: string; name: string; uid?: string; apiVersion?: string; resourceVersion?: string };
    persistentVolumeReclaimPolicy?: string;
    volumeMode?: string;
    hostPath?: { path: string; type?: string };
    local?: { path: string };
    nfs?: { server: string; path: string; readOnly?: boolean };
    csi?: { driver: string; volumeHandle: string; fsType?: string; readOnly?: boolean; volumeAttributes?: Record<string, string> };
    nodeAffinity?: { required?: { nodeSelectorTerms?: { matchExpressions?: NodeSelectorRequirement[] }[] } };
  };
  status?: { phase?: string; message?: string; lastPhaseTransitionTime?: string };
}

export interface PvcCondition {
  type: string;
  status: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface PersistentVolumeClaim extends KObject {
  spec: {
    accessModes?: string[];
    selector?: { matchLabels?: Record<string, string>; matchExpressions?: NodeSelectorRequirement[] };
    resources?: { requests?: { storage?: string }; limits?: Record<string, string> };
    volumeName?: string;
    storageClassName?: string;
    volumeMode?: string;
    dataSource?: unknown;
    dataSourceRef?: unknown;
    volumeAttributesClassName?: string;
  };
  status?: {
    phase?: string;
    accessModes?: string[];
    capacity?: { storage?: string };
    conditions?: PvcCondition[];
    allocatedResources?: { storage?: string };
    /** RecoverVolumeExpansionFailure (GA in v1.34): where a resize of each resource stands. */
    allocatedResourceStatuses?: Record<string, string>;
  };
}

const UNITS: Record<string, number> = { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, Pi: 1024 ** 5 };

/** A resource.Quantity in bytes (the subset storage sizes use: 1Gi, 500Mi, 2G, 1000). */
export function quantityBytes(q: string | undefined): number {
  const m = /^(\d+(?:\.\d+)?)([KMGTP]i?|k)?$/.exec((q ?? '').trim());
  if (!m) return Number.NaN;
  return Number(m[1]) * (UNITS[m[2] ?? ''] ?? Number.NaN);
}

function isDefaultClass(sc: KObject): boolean {
  const a = sc.metadata.annotations ?? {};
  return a[DEFAULT_CLASS_ANNOTATION] === 'true' || a[BETA_DEFAULT_CLASS_ANNOTATION] === 'true';
}

/** storageutil.IsDefaultAnnotationText: `Yes` / `No` (describe storageclass). */
export function isDefaultAnnotationText(sc: KObject): string {
  return isDefaultClass(sc) ? 'Yes' : 'No';
}

/**
 * GetDefaultClass (pkg/volume/util/storageclass.go): among the classes marked default, the newest
 * (by creationTimestamp, then name) wins.
 */
export function defaultStorageClass(store: Store): StorageClass | undefined {
  const defaults = store.list<StorageClass>('StorageClass').filter(isDefaultClass);
  defaults.sort((a, b) => {
    const ta = a.metadata.creationTimestamp ?? '';
    const tb = b.metadata.creationTimestamp ?? '';
    return ta !== tb ? (ta > tb ? -1 : 1) : a.metadata.name < b.metadata.name ? -1 : 1;
  });
  return defaults[0];
}

function addFinalizer(obj: KObject, f: string): void {
  const list = (obj.metadata.finalizers ??= []);
  if (!list.includes(f)) list.push(f);
}

/** Admission and defaulting on create: StorageClass defaults, DefaultStorageClass for claims. */
export function admitStorageCreate(store: Store, obj: KObject): void {
  if (obj.kind === 'StorageClass') {
    const sc = obj as StorageClass;
    sc.reclaimPolicy ??= 'Delete';
    sc.volumeBindingMode ??= 'Immediate';
  } else if (obj.kind === 'PersistentVolume') {
    // StorageObjectInUseProtection admission (plugin/pkg/admission/storage/storageobjectinuseprotection)
    addFinalizer(obj, 'kubernetes.io/pv-protection');
  } else if (obj.kind === 'PersistentVolumeClaim') {
    const pvc = obj as PersistentVolumeClaim;
    addFinalizer(obj, 'kubernetes.io/pvc-protection');
    // the plugin leaves a claim alone when storageClassName is set (also to ""), or the beta annotation is
    if (pvc.spec.storageClassName !== undefined || pvc.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] !== undefined) return;
    const def = defaultStorageClass(store);
    if (def) pvc.spec.storageClassName = def.metadata.name;
  }
}

/** The StorageClass of a claim when it names one that exists. */
export function classOfClaim(store: Store, pvc: PersistentVolumeClaim): StorageClass | undefined {
  const name = pvc.spec.storageClassName;
  return name ? store.get<StorageClass>('StorageClass', undefined, name) : undefined;
}

/** Whether the claim's class delays binding until a pod uses it (volumeBindingMode WaitForFirstConsumer). */
export function isDelayedBinding(store: Store, pvc: PersistentVolumeClaim): boolean {
  return classOfClaim(store, pvc)?.volumeBindingMode === 'WaitForFirstConsumer';
}

function matchRequirement(req: NodeSelectorRequirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, req.key);
  const v = labels[req.key];
  switch (req.operator) {
    case 'In':
      return has && (req.values ?? []).includes(v!);
    case 'NotIn':
      return !has || !(req.values ?? []).includes(v!);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      const n = Number(v);
      const w = Number(req.values?.[0]);
      return has && Number.isFinite(n) && Number.isFinite(w) && (req.operator === 'Gt' ? n > w : n < w);
    }
    default:
      return false;
  }
}

/** CheckNodeAffinity (component-helpers/storage/volume): terms are ORed, expressions within a term ANDed. */
export function pvNodeAffinityMatches(pv: PersistentVolume, node: Node): boolean {
  const terms = pv.spec.nodeAffinity?.required?.nodeSelectorTerms;
  if (!terms) return true;
  const labels = node.metadata.labels ?? {};
  return terms.some((t) => (t.matchExpressions ?? []).length > 0 && (t.matchExpressions ?? []).every((r) => matchRequirement(r, labels)));
}

/**
 * The VolumeBinding plugin's Filter for one node: every bound claim's PV must allow the node
 * (`node(s) had volume node affinity conflict` otherwise). Unbound claims of a delayed-binding
 * class are provisioned on the node the pod gets, so they never exclude a node here.
 */
/**
 * Whether a claim could bind a volume (pkg/controller/volume/persistentvolume/index.go
 * findMatchingVolume and util.CheckVolumeModeMismatches): the volume is free or pre-bound to this
 * claim and not Released/Failed, of the claim's class, with its access modes, enough capacity, the
 * selector's labels and volume mode, and, when a node is given, node affinity that admits it.
 */
export function pvMatchesClaim(pvc: PersistentVolumeClaim, pv: PersistentVolume, node?: Node): boolean {
  if (pvc.spec.volumeName) return pv.metadata.name === pvc.spec.volumeName;
  const ref = pv.spec.claimRef;
  const free = !ref || (ref.namespace === pvc.metadata.namespace && ref.name === pvc.metadata.name && (!ref.uid || ref.uid === pvc.metadata.uid));
  const phase = pv.status?.phase;
  if (!free || phase === 'Released' || phase === 'Failed') return false;
  if ((pv.spec.storageClassName ?? '') !== (pvc.spec.storageClassName ?? '')) return false;
  if (!(pvc.spec.accessModes ?? []).every((m) => pv.spec.accessModes?.includes(m))) return false;
  if (!(quantityBytes(pv.spec.capacity?.storage) >= quantityBytes(pvc.spec.resources?.requests?.storage))) return false;
  if (pvc.spec.selector && !matchLabelSelector(pvc.spec.selector as never, pv.metadata.labels)) return false;
  if ((pv.spec.volumeMode ?? 'Filesystem') !== (pvc.spec.volumeMode ?? 'Filesystem')) return false;
  return node === undefined || pvNodeAffinityMatches(pv, node);
}

/** A class whose volumes are only ever created by hand (volume/util NotSupportedProvisioner). */
const NO_PROVISIONER = 'kubernetes.io/no-provisioner';

/**
 * Why a node cannot host the pod's claims, in the VolumeBinding plugin's words
 * (pkg/scheduler/framework/plugins/volumebinding/binder.go FindPodVolumes): a bound volume whose
 * node affinity excludes the node (ErrReasonNodeConflict), or a WaitForFirstConsumer claim of a
 * class that cannot provision, with no free volume that could bind on this node
 * (ErrReasonBindConflict). Undefined when the node fits.
 */
export function volumeBindingConflict(pod: Pod, node: Node, store: Store): string | undefined {
  for (const v of pod.spec.volumes ?? []) {
    const name = v.persistentVolumeClaim?.claimName;
    if (!name) continue;
    const pvc = store.get<PersistentVolumeClaim>('PersistentVolumeClaim', pod.metadata.namespace, name);
    if (!pvc) continue;
    if (pvc.spec.volumeName) {
      const pv = store.get<PersistentVolume>('PersistentVolume', undefined, pvc.spec.volumeName);
      if (pv && !pvNodeAffinityMatches(pv, node)) return 'node(s) had volume node affinity conflict';
      continue;
    }
    if (!isDelayedBinding(store, pvc) || classOfClaim(store, pvc)?.provisioner !== NO_PROVISIONER) continue;
    if (!store.list<PersistentVolume>('PersistentVolume').some((pv) => pvMatchesClaim(pvc, pv, node))) return "node(s) didn't find available persistent volumes to bind";
  }
  return undefined;
}

/** A claim that blocks scheduling (`pod has unbound immediate PersistentVolumeClaims`): unbound and not delayed. */
export function unboundImmediateClaim(store: Store, claim: PersistentVolumeClaim): boolean {
  return claim.status?.phase !== 'Bound' && !isDelayedBinding(store, claim);
}

// -----------------------------------------------------------------------------------------------
// Claim updates

/** PersistentVolumeClaimSpec's fields in the internal type's order (what go-cmp walks). */
const SPEC_FIELDS: readonly [string, string][] = [
  ['accessModes', 'AccessModes'],
  ['selector', 'Selector'],
  ['resources', 'Resources'],
  ['volumeName', 'VolumeName'],
  ['storageClassName', 'StorageClassName'],
  ['volumeMode', 'VolumeMode'],
  ['dataSource', 'DataSource'],
  ['dataSourceRef', 'DataSourceRef'],
  ['volumeAttributesClassName', 'VolumeAttributesClassName'],
];

const POINTER_FIELDS = new Set(['storageClassName', 'volumeMode', 'volumeAttributesClassName']);

function goValue(key: string, v: unknown): string {
  if (v === undefined || v === null) return key === 'volumeName' ? '""' : 'nil';
  if (typeof v === 'string') return POINTER_FIELDS.has(key) ? `&${JSON.stringify(v)}` : JSON.stringify(v);
  if (Array.isArray(v)) return `{${v.map((x) => (typeof x === 'string' ? JSON.stringify(x) : '{...}')).join(', ')}}`;
  if (key === 'resources') {
    const req = (v as { requests?: Record<string, string> }).requests ?? {};
    const fmt = Object.keys(req)
      .sort()
      .map((k) => `s${JSON.stringify(k)}: {i: {...}, s: ${JSON.stringify(req[k])}, Format: "${/i$/.test(req[k] ?? '') ? 'BinarySI' : 'DecimalSI'}"}`);
    return `{Requests: {${fmt.join(', ')}}}`;
  }
  return '&{...}';
}

/**
 * The go-cmp report ValidatePersistentVolumeClaimUpdate appends to its Forbidden message: the
 * changed fields as -/+ lines with up to two unchanged neighbours, the rest elided.
 */
export function specDiff(oldSpec: Record<string, unknown>, newSpec: Record<string, unknown>): string {
  const width = Math.max(...SPEC_FIELDS.map(([, g]) => g.length)) + 1;
  const changed = SPEC_FIELDS.map(([k]) => JSON.stringify(oldSpec[k] ?? null) !== JSON.stringify(newSpec[k] ?? null));
  const show = changed.map((_, i) => changed.slice(Math.max(0, i - 2), i + 3).some(Boolean));
  const lines = ['  core.PersistentVolumeClaimSpec{'];
  let skipped = 0;
  const flush = (): void => {
    if (skipped > 0) lines.push(`  \t... // ${skipped} identical field${skipped === 1 ? '' : 's'}`);
    skipped = 0;
  };
  SPEC_FIELDS.forEach(([k, g], i) => {
    if (!show[i]) {
      skipped++;
      return;
    }
    flush();
    const name = `${g}:`.padEnd(width + 1);
    if (changed[i]) {
      lines.push(`- \t${name}${goValue(k, oldSpec[k])},`);
      lines.push(`+ \t${name}${goValue(k, newSpec[k])},`);
    } else lines.push(`  \t${name}${goValue(k, oldSpec[k])},`);
  });
  flush();
  lines.push('  }');
  return lines.join('\n');
}

/**
 * ValidatePersistentVolumeClaimUpdate: the spec may change only in resources.requests (bound
 * claims) and volumeAttributesClassName; a request may not shrink below the recorded capacity.
 */
export function validateClaimUpdate(pvc: PersistentVolumeClaim, old: PersistentVolumeClaim): FieldError[] {
  const errs: FieldError[] = [];
  const a = JSON.parse(JSON.stringify(old.spec ?? {})) as Record<string, unknown> & PersistentVolumeClaim['spec'];
  const b = JSON.parse(JSON.stringify(pvc.spec ?? {})) as Record<string, unknown> & PersistentVolumeClaim['spec'];
  // an unset storageClassName may be set once (the beta annotation's successor), as upstream allows
  if (a.storageClassName === undefined && b.storageClassName !== undefined) a.storageClassName = b.storageClassName;
  const bound = old.status?.phase === 'Bound';
  const cmpB: Record<string, unknown> = { ...b, volumeAttributesClassName: a.volumeAttributesClassName };
  if (bound) cmpB['resources'] = { ...(b.resources ?? {}), requests: { ...(b.resources?.requests ?? {}), storage: a.resources?.requests?.storage } };
  const norm = (s: Record<string, unknown>): string => JSON.stringify(SPEC_FIELDS.map(([k]) => s[k] ?? null));
  if (norm(a) !== norm(cmpB))
    errs.push(field.forbidden('spec', `spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n${specDiff(a, cmpB)}`));
  const newSize = quantityBytes(b.resources?.requests?.storage);
  const oldSize = quantityBytes(a.resources?.requests?.storage);
  const statusSize = quantityBytes(old.status?.capacity?.storage);
  // RecoverVolumeExpansionFailure (GA in 1.34): shrinking is allowed down to, not to or below, the capacity
  if (newSize < oldSize && !(newSize > statusSize))
    errs.push(field.forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'));
  return errs;
}

/**
 * PersistentVolumeClaimResize admission: growing a claim's request needs a bound, dynamically
 * provisioned claim whose class allows expansion.
 */
export function admitClaimResize(store: Store, pvc: PersistentVolumeClaim, old: PersistentVolumeClaim): void {
  const newSize = quantityBytes(pvc.spec.resources?.requests?.storage);
  const oldSize = quantityBytes(old.spec.resources?.requests?.storage);
  if (!(newSize > oldSize) || old.status?.phase !== 'Bound') return;
  const sc = classOfClaim(store, old);
  if (!sc || sc.allowVolumeExpansion !== true)
    throw forbidden(
      `persistentvolumeclaims "${pvc.metadata.name}" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize`,
    );
}
