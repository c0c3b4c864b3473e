/**
 * Field ownership as kube-apiserver keeps it in `metadata.managedFields` (k8s.io/apiserver
 * pkg/endpoints/handlers/fieldmanager, k8s.io/apimachinery pkg/util/managedfields, and
 * sigs.k8s.io/structured-merge-diff: fieldpath/, typed/, merge/update.go). Pure functions over
 * plain JSON objects; the API server (../apiserver.ts) calls them on every write that names a
 * field manager, and for `kubectl apply --server-side` (PATCH with application/apply-patch+yaml).
 *
 * A field set is a set of paths; a path is a list of structured-merge-diff path elements in their
 * FieldsV1 spelling: `f:name` (a struct field or map key), `k:{"name":"nginx"}` (an item of a list
 * keyed by fields), `v:"x"` (an item of a set), `i:0` (an index). The simulator has no
 * x-kubernetes-list-type data in its OpenAPI documents, so the list kinds a CKA candidate meets
 * are declared below from the `+listType`/`+listMapKey` markers of k8s.io/api; any other list is
 * atomic, as structured-merge-diff treats a list without a list type.
 */
import type { KObject, ManagedFieldsEntry } from './types.js';
import { marshalCompact, sortKeys } from '../../util/go-json.js';
import { coreEventZeroFields } from './events-core.js';

export type { ManagedFieldsEntry } from './types.js';
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

export type Path = readonly string[];
/** A set of paths, by their joined spelling. */
export type FieldSet = Map<string, Path>;

const SEP = '\u0001';
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const keyOf = (p: Path): string => p.join(SEP);

export function setOf(paths: Iterable<Path>): FieldSet {
  const s: FieldSet = new Map();
  for (const p of paths) s.set(keyOf(p), p);
  return s;
}
export const union = (a: FieldSet, b: FieldSet): FieldSet => new Map([...a, ...b]);
export const difference = (a: FieldSet, b: FieldSet): FieldSet => new Map([...a].filter(([k]) => !b.has(k)));
export const intersection = (a: FieldSet, b: FieldSet): FieldSet => new Map([...a].filter(([k]) => b.has(k)));

/**
 * How a list is merged and owned (k8s.io/api types.go markers): by key fields (`+listType=map`),
 * as a set of scalars (`+listType=set`), or atomic (no marker). `ports` is keyed by
 * containerPort/protocol in a container and by port/protocol in a Service; `protocol` defaults to
 * TCP in the key as the schema's default does (structured-merge-diff typed/helpers.go keyFieldsDefaults).
 */
function listKind(field: string, items: readonly Json[]): { keys: string[]; defaults?: Obj } | 'set' | 'atomic' {
  switch (field) {
    case 'containers':
    case 'initContainers':
    case 'ephemeralContainers':
    case 'env':
    case 'volumes':
    case 'imagePullSecrets':
    case 'resourceClaims':
      return { keys: ['name'] };
    case 'volumeMounts':
      return { keys: ['mountPath'] };
    case 'volumeDevices':
      return { keys: ['devicePath'] };
    case 'hostAliases':
      return { keys: ['ip'] };
    case 'ownerReferences':
      return { keys: ['uid'] };
    case 'conditions':
      return { keys: ['type'] };
    case 'topologySpreadConstraints':
      return { keys: ['topologyKey', 'whenUnsatisfiable'] };
    case 'ports':
      return items.some((i) => isObj(i) && 'containerPort' in i)
        ? { keys: ['containerPort', 'protocol'], defaults: { protocol: 'TCP' } }
        : { keys: ['port', 'protocol'], defaults: { protocol: 'TCP' } };
    case 'finalizers':
      return 'set';
    default:
      return 'atomic';
  }
}

/** LabelSelector is `+structType=atomic`, a Service's selector `+mapType=atomic`: owned whole. */
const ATOMIC_MAPS = new Set(['selector', 'podSelector', 'namespaceSelector', 'labelSelector']);

/** Go's encoding/json of a key value, as fieldpath/serialize-pe.go writes `k:` and `v:` elements. */
function jsonOf(v: Json): string {
  if (isObj(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${jsonOf(v[k]!)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map(jsonOf).join(',')}]`;
  return JSON.stringify(v);
}

/** The path element of a list item, or undefined when the list is atomic. */
function itemElement(field: string, items: readonly Json[], item: Json): string | undefined {
  const kind = listKind(field, items);
  if (kind === 'atomic') return undefined;
  if (kind === 'set') return `v:${jsonOf(item)}`;
  const key: Obj = {};
  for (const k of kind.keys) {
    const v = isObj(item) ? (item[k] ?? kind.defaults?.[k]) : undefined;
    if (v !== undefined) key[k] = v;
  }
  return `k:${jsonOf(key)}`;
}

function isAtomicList(field: string, items: readonly Json[]): boolean {
  return listKind(field, items) === 'atomic';
}

/**
 * typed/tofieldset.go: the fields an applied configuration sets. Scalars, atomic lists and maps,
 * empty maps and nulls are members, and so is every item of a keyed list or set; a non-empty map
 * is not. (tofieldset.go also makes a free-form map's key a member when it holds a non-empty map;
 * without schemas the simulator cannot tell such maps from structs, and the built-in kinds' free-form
 * maps — labels, annotations, data, nodeSelector, resource lists — hold scalars.)
 */
export function toFieldSet(obj: Json): FieldSet {
  const out: FieldSet = new Map();
  const add = (p: Path): void => void out.set(keyOf(p), p);
  const walk = (v: Json, path: string[], field: string): void => {
    if (Array.isArray(v)) {
      if (isAtomicList(field, v)) return add(path);
      for (const item of v) {
        const pe = itemElement(field, v, item)!;
        walk(item, [...path, pe], '');
        add([...path, pe]);
      }
      return;
    }
    if (isObj(v)) {
      if (ATOMIC_MAPS.has(field)) return add(path);
      for (const [k, c] of Object.entries(v)) {
        const p = [...path, `f:${k}`];
        walk(c, p, k);
        if (c === null || (isObj(c) && Object.keys(c).length === 0)) add(p);
      }
      return;
    }
    add(path);
  };
  walk(obj, [], '');
  return out;
}

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

// (two strings are equal as their JSON is: most leaves, without encoding either)
const equal = (a: Json | undefined, b: Json | undefined): boolean =>
  typeof a === 'string' && typeof b === 'string' ? a === b : jsonOf(a ?? null) === jsonOf(b ?? null) && (a === undefined) === (b === undefined);
const empty = (v: Json | undefined): boolean => v === undefined || v === null || (Array.isArray(v) ? v.length === 0 : isObj(v) && Object.keys(v).length === 0);

/**
 * typed/compare.go: what changed from `lhs` to `rhs`. A leaf (scalar, atomic list or map, or a
 * map or list empty on both sides) is added, removed or modified as a whole; a map or keyed list
 * that appears or disappears counts itself as added or removed besides its children.
 * `skipTop`: top-level fields left out, for a caller that drops every path under them (each is
 * a path's first element: leaving one out changes nothing else).
 */
export function compare(lhs: Json | undefined, rhs: Json | undefined, skipTop?: (field: string) => boolean): Comparison {
  const c: Comparison = { added: new Map(), modified: new Map(), removed: new Map() };
  const put = (s: FieldSet, p: Path): void => void s.set(keyOf(p), p);
  const leaf = (l: Json | undefined, r: Json | undefined, path: string[]): void => {
    if (l === undefined) put(c.added, path);
    else if (r === undefined) put(c.removed, path);
    else if (!equal(l, r)) put(c.modified, path);
  };
  const walk = (l: Json | undefined, r: Json | undefined, path: string[], field: string): void => {
    const sample = r ?? l;
    if (Array.isArray(sample) || Array.isArray(l)) {
      const la = Array.isArray(l) ? l : undefined;
      const ra = Array.isArray(r) ? r : undefined;
      const all = [...(la ?? []), ...(ra ?? [])];
      if (isAtomicList(field, all) || (empty(la) && empty(ra))) return leaf(l, r, path);
      const byPe = (arr: Json[] | undefined): Map<string, Json> => new Map((arr ?? []).map((i) => [itemElement(field, all, i)!, i]));
      const lm = byPe(la);
      const rm = byPe(ra);
      for (const pe of new Set([...lm.keys(), ...rm.keys()])) walk(lm.get(pe), rm.get(pe), [...path, pe], '');
    } else if (isObj(sample)) {
      const lo = isObj(l) ? l : undefined;
      const ro = isObj(r) ? r : undefined;
      if (ATOMIC_MAPS.has(field) || (empty(lo) && empty(ro))) return leaf(l, r, path);
      for (const k of new Set([...Object.keys(lo ?? {}), ...Object.keys(ro ?? {})])) if (path.length > 0 || skipTop?.(k) !== true) walk(lo?.[k], ro?.[k], [...path, `f:${k}`], k);
    } else return leaf(l, r, path);
    if (path.length > 0 && l === undefined) put(c.added, path);
    else if (path.length > 0 && r === undefined) put(c.removed, path);
  };
  walk(lhs, rhs, [], '');
  return c;
}

/** value/value.go Compare: numbers, then strings, booleans, lists, maps; each in its own order. */
function compareValues(a: Json, b: Json): number {
  const rank = (v: Json): number => (typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : typeof v === 'boolean' ? 2 : Array.isArray(v) ? 3 : isObj(v) ? 4 : 5);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === 'number' || typeof a === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'string') return a < (b as string) ? -1 : a > (b as string) ? 1 : 0;
  if (Array.isArray(a)) {
    const bl = b as Json[];
    for (let i = 0; i < Math.min(a.length, bl.length); i++) {
      const c = compareValues(a[i]!, bl[i]!);
      if (c !== 0) return c;
    }
    return a.length - bl.length;
  }
  if (isObj(a)) return compareKeys(a, b as Obj);
  return 0;
}

/** value/fields.go FieldList.Compare: field by field in name order, names before values. */
function compareKeys(a: Obj, b: Obj): number {
  const ak = Object.keys(a).sort();
  const bk = Object.keys(b).sort();
  for (let i = 0; i < Math.min(ak.length, bk.length); i++) {
    if (ak[i] !== bk[i]) return ak[i]! < bk[i]! ? -1 : 1;
    const c = compareValues(a[ak[i]!]!, b[bk[i]!]!);
    if (c !== 0) return c;
  }
  return ak.length - bk.length;
}

/** Order of path elements (fieldpath/element.go Compare): field names, then keys, values, indexes. */
function comparePe(a: string, b: string): number {
  const rank = (s: string): number => ['f', 'k', 'v', 'i'].indexOf(s[0]!);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  const ra = a.slice(2);
  const rb = b.slice(2);
  if (a[0] === 'i') return Number(ra) - Number(rb);
  if (a[0] === 'k') return compareKeys(JSON.parse(ra) as Obj, JSON.parse(rb) as Obj);
  if (a[0] === 'v') return compareValues(JSON.parse(ra) as Json, JSON.parse(rb) as Json);
  return ra < rb ? -1 : ra > rb ? 1 : 0;
}

function comparePaths(a: Path, b: Path): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = comparePe(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/**
 * fieldpath/serialize.go: the FieldsV1 object, children in path-element order; a member that
 * also has children is spelled `.: {}` inside its own object.
 */
export function encodeFieldsV1(set: FieldSet): Obj {
  type Node = { member: boolean; children: Map<string, Node> };
  const root: Node = { member: false, children: new Map() };
  for (const p of set.values()) {
    let n = root;
    for (const pe of p) {
      let c = n.children.get(pe);
      if (!c) n.children.set(pe, (c = { member: false, children: new Map() }));
      n = c;
    }
    n.member = true;
  }
  const emit = (n: Node, self: boolean): Obj => {
    const out: Obj = {};
    if (self && n.member && n.children.size > 0) out['.'] = {};
    for (const pe of [...n.children.keys()].sort(comparePe)) out[pe] = emit(n.children.get(pe)!, true);
    return out;
  };
  return emit(root, false);
}

/** fieldpath/serialize.go FromJSON: the paths of a FieldsV1 object. */
export function decodeFieldsV1(f: Json | undefined): FieldSet {
  const out: FieldSet = new Map();
  const walk = (o: Json | undefined, path: string[]): void => {
    if (!isObj(o)) return;
    const keys = Object.keys(o);
    if (path.length > 0 && (keys.length === 0 || keys.includes('.'))) out.set(keyOf(path), path);
    for (const k of keys) if (k !== '.') walk(o[k], [...path, k]);
  };
  walk(f, []);
  return out;
}

/** fieldpath/element.go PathElement.String and path.go Path.String: `.spec.containers[name="nginx"].image`. */
export function pathString(p: Path): string {
  const goValue = (v: Json): string => (typeof v === 'string' ? JSON.stringify(v) : v === null ? 'null' : String(v));
  return p
    .map((pe) => {
      const rest = pe.slice(2);
      if (pe.startsWith('f:')) return `.${rest}`;
      if (pe.startsWith('i:')) return `[${rest}]`;
      if (pe.startsWith('v:')) return `[=${goValue(JSON.parse(rest) as Json)}]`;
      const key = JSON.parse(rest) as Obj;
      return `[${Object.keys(key).sort().map((k) => `${k}=${goValue(key[k]!)}`).join(',')}]`;
    })
    .join('');
}

/** The paths of `set` in fieldpath's iteration order. */
export const sortedPaths = (set: FieldSet): Path[] => [...set.values()].sort(comparePaths);

/**
 * Fields no manager owns (managedfields/internal/stripmeta.go) and, for a kind whose status is a
 * subresource, the status that the main resource's strategy resets (GetResetFields).
 */
export function ignoredPath(p: Path, statusIsSubresource: boolean): boolean {
  const [a, b] = p;
  if (a === 'f:apiVersion' || a === 'f:kind') return true;
  if (a === 'f:status' && statusIsSubresource) return true;
  if (a !== 'f:metadata') return false;
  if (b === undefined) return false;
  return ['f:name', 'f:namespace', 'f:uid', 'f:resourceVersion', 'f:creationTimestamp', 'f:selfLink', 'f:clusterName', 'f:generation', 'f:managedFields'].includes(b);
}

function filterIgnored(s: FieldSet, statusIsSubresource: boolean): FieldSet {
  return new Map([...s].filter(([, p]) => !ignoredPath(p, statusIsSubresource) && !(p.length === 1 && p[0] === 'f:metadata')));
}

const POD_TEMPLATE: Obj = { metadata: {}, spec: { containers: null } };

/**
 * What a create is compared against: the Go zero value of the kind's type as the field manager
 * converts it (fieldmanager.go Update with objectCreater.New). Struct fields that are not pointers
 * (spec, a pod template and its metadata and spec, a Deployment's strategy) already exist in it,
 * so a create does not count them as added and they carry no `.` member; maps, slices and pointer
 * fields are absent (null), so they do.
 */
export function zeroObject(kind: string, apiVersion = ''): Obj {
  const t = (): Obj => structuredClone(POD_TEMPLATE);
  switch (kind) {
    case 'Deployment':
      return { metadata: {}, spec: { selector: null, template: t(), strategy: {} }, status: {} };
    case 'ReplicaSet':
      return { metadata: {}, spec: { selector: null, template: t() }, status: {} };
    case 'DaemonSet':
      return { metadata: {}, spec: { selector: null, template: t(), updateStrategy: {} }, status: {} };
    case 'StatefulSet':
      return { metadata: {}, spec: { selector: null, template: t(), updateStrategy: {} }, status: {} };
    case 'Job':
      return { metadata: {}, spec: { template: t() }, status: {} };
    case 'CronJob':
      return { metadata: {}, spec: { jobTemplate: { metadata: {}, spec: { template: t() } } }, status: {} };
    case 'Pod':
      return { metadata: {}, spec: { containers: null }, status: {} };
    case 'Service':
      return { metadata: {}, spec: {}, status: { loadBalancer: {} } };
    case 'Namespace':
    case 'Node':
    case 'PersistentVolume':
    case 'PersistentVolumeClaim':
      return { metadata: {}, spec: {}, status: {} };
    case 'Ingress':
      return { metadata: {}, spec: {}, status: { loadBalancer: {} } };
    case 'NetworkPolicy':
    case 'PodDisruptionBudget':
      return { metadata: {}, spec: {} };
    case 'Event':
      // core/v1's (events.k8s.io/v1 stores the same kind under other names)
      return apiVersion === 'v1' ? { metadata: {}, ...(coreEventZeroFields() as Obj) } : { metadata: {} };
    default:
      return { metadata: {} };
  }
}

/** One manager's fields as the server tracks them between requests. */
interface Managed {
  entry: Omit<ManagedFieldsEntry, 'fieldsV1'>;
  set: FieldSet;
}

/** managedfields/internal/managedfields.go BuildManagerIdentifier: an applier's identity has no apiVersion. */
function identity(e: Omit<ManagedFieldsEntry, 'fieldsV1'>): string {
  const id: Record<string, string> = { manager: e.manager, operation: e.operation };
  if (e.operation === 'Update') id['apiVersion'] = e.apiVersion;
  if (e.subresource) id['subresource'] = e.subresource;
  return JSON.stringify(id);
}

const decodeEntries = (entries: readonly ManagedFieldsEntry[] | undefined): Managed[] => (entries ?? []).map((e) => ({ entry: { ...e, fieldsV1: undefined } as unknown as Managed['entry'], set: decodeFieldsV1(e.fieldsV1 as Json) }));

/**
 * managedfields/internal/fieldmanager.go encodeManagedFields and sortEncodedManagedFields: empty
 * sets dropped; Apply before Update, then by time, manager, apiVersion and subresource.
 */
function encodeEntries(ms: Managed[]): ManagedFieldsEntry[] {
  const out = ms
    .filter((m) => m.set.size > 0)
    .map((m) => {
      const { manager, operation, apiVersion, time, subresource } = m.entry;
      return { manager, operation, apiVersion, ...(time ? { time } : {}), fieldsType: 'FieldsV1' as const, fieldsV1: encodeFieldsV1(m.set), ...(subresource ? { subresource } : {}) };
    });
  const cmp = (a: string | undefined, b: string | undefined): number => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0);
  return out.sort((p, q) => cmp(p.operation, q.operation) || cmp(p.time, q.time) || cmp(p.manager, q.manager) || cmp(p.apiVersion, q.apiVersion) || cmp(p.subresource, q.subresource));
}

export interface WriteContext {
  manager: string;
  apiVersion: string;
  /** RFC 3339 time of the write, from the simulated clock. */
  now: string;
  subresource?: string;
  statusIsSubresource: boolean;
}

/**
 * merge/update.go Updater.update with force: every other manager gives up what this change added,
 * modified or removed.
 */
function takeOver(ms: Managed[], self: string, cmp: Comparison): void {
  const changed = union(union(cmp.added, cmp.modified), cmp.removed);
  for (const m of ms) if (identity(m.entry) !== self) m.set = difference(m.set, changed);
}

/**
 * An ordinary write (create, update, patch, a subresource): the manager owns what it added or
 * changed, merged into what it owned before, with the time of this write
 * (managedfields/internal/managedfieldsupdater.go Update); a write that changes nothing keeps
 * the entries as they were.
 */
export function recordUpdate(entries: readonly ManagedFieldsEntry[] | undefined, oldObj: Json | undefined, newObj: Json, w: WriteContext): ManagedFieldsEntry[] {
  const ms = decodeEntries(entries);
  const kind = isObj(newObj) && typeof newObj['kind'] === 'string' ? newObj['kind'] : '';
  const apiVersion = isObj(newObj) && typeof newObj['apiVersion'] === 'string' ? newObj['apiVersion'] : '';
  // a write to …/status owns status alone: its strategy resets everything else (GetResetFields)
  // (and what `keep` drops whole is not compared at all: a pod's or deployment's status, as big
  // as its spec, on every write of the main resource)
  const skipTop = w.subresource === 'status' ? (k: string): boolean => k !== 'status' : (k: string): boolean => k === 'apiVersion' || k === 'kind' || (k === 'status' && w.statusIsSubresource);
  const raw = compare(oldObj ?? zeroObject(kind, apiVersion), newObj, skipTop);
  const keep = (f: FieldSet): FieldSet => (w.subresource === 'status' ? new Map([...f].filter(([, p]) => p[0] === 'f:status')) : filterIgnored(f, w.statusIsSubresource));
  const cmp: Comparison = { added: keep(raw.added), modified: keep(raw.modified), removed: keep(raw.removed) };
  const entry = { manager: w.manager, operation: 'Update' as const, apiVersion: w.apiVersion, fieldsType: 'FieldsV1' as const, ...(w.subresource ? { subresource: w.subresource } : {}) };
  const self = identity(entry);
  takeOver(ms, self, cmp);
  const owned = union(cmp.added, cmp.modified);
  if (owned.size > 0) {
    const prev = ms.find((m) => identity(m.entry) === self);
    if (prev) {
      prev.set = union(prev.set, owned);
      prev.entry = { ...prev.entry, time: w.now };
    } else ms.push({ entry: { ...entry, time: w.now }, set: owned });
  }
  return encodeEntries(ms);
}

export interface Conflict {
  /** The other manager's identity, as printManager reads it. */
  entry: Omit<ManagedFieldsEntry, 'fieldsV1'>;
  path: Path;
}

export class ApplyConflictError extends Error {
  constructor(readonly conflicts: Conflict[]) {
    super(conflictMessage(conflicts));
  }
}

/** fieldmanager internal/conflict.go printManager: the time is never part of a manager's identity. */
function printManager(e: Omit<ManagedFieldsEntry, 'fieldsV1'>): string {
  let s = JSON.stringify(e.manager);
  if (e.subresource) s = `${s} with subresource ${JSON.stringify(e.subresource)}`;
  return e.operation === 'Update' ? `${s} using ${e.apiVersion}` : s;
}

/** internal/conflict.go getConflictMessage: one conflict on a line; several grouped by sorted manager identity. */
export function conflictMessage(conflicts: readonly Conflict[]): string {
  if (conflicts.length === 1) return `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0]!.entry)}: ${pathString(conflicts[0]!.path)}`;
  const byManager = new Map<string, Conflict[]>();
  for (const c of conflicts) byManager.set(identity(c.entry), [...(byManager.get(identity(c.entry)) ?? []), c]);
  const lines: string[] = [];
  for (const id of [...byManager.keys()].sort()) {
    const cs = byManager.get(id)!;
    lines.push(`conflicts with ${printManager(cs[0]!.entry)}:`);
    for (const c of cs) lines.push(`- ${pathString(c.path)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/**
 * Remove the value at `path` from `obj` (a field, or the item of a keyed list or set). A map or
 * list left empty goes too: the built-in types drop empty maps and slices (`omitempty`) when
 * the result is stored.
 */
function removePath(obj: Json, path: Path, parentField = ''): void {
  const [pe, ...rest] = path;
  if (pe === undefined) return;
  const gone = (v: Json | undefined): boolean => v !== undefined && (Array.isArray(v) ? v.length === 0 : isObj(v) && Object.keys(v).length === 0);
  if (Array.isArray(obj)) {
    const i = obj.findIndex((item) => itemElement(parentField, obj, item) === pe);
    if (i < 0) return;
    if (rest.length > 0) removePath(obj[i]!, rest);
    if (rest.length === 0 || gone(obj[i])) obj.splice(i, 1);
    return;
  }
  if (!pe.startsWith('f:') || !isObj(obj)) return;
  const k = pe.slice(2);
  if (!(k in obj)) return;
  if (rest.length > 0) removePath(obj[k]!, rest, k);
  if (rest.length === 0 || gone(obj[k])) delete obj[k];
}

/**
 * typed/merge.go Merge: the applied configuration over the live object; maps merge by key, keyed
 * lists and sets by item (live items first, new ones appended), atomic values are replaced.
 */
export function mergeApplied(live: Json | undefined, config: Json, field = ''): Json {
  if (Array.isArray(config)) {
    if (!Array.isArray(live) || isAtomicList(field, [...live, ...config])) return structuredClone(config);
    const all = [...live, ...config];
    const out = live.map((i) => structuredClone(i));
    for (const item of config) {
      const pe = itemElement(field, all, item);
      const at = out.findIndex((i) => itemElement(field, all, i) === pe);
      if (at < 0) out.push(structuredClone(item));
      else out[at] = mergeApplied(out[at], item, '');
    }
    return out;
  }
  if (isObj(config)) {
    if (!isObj(live) || ATOMIC_MAPS.has(field)) return structuredClone(config);
    const out: Obj = { ...live };
    for (const [k, v] of Object.entries(config)) out[k] = mergeApplied(live[k], v, k);
    return out;
  }
  return config;
}

export interface ApplyResult {
  obj: Json;
  managedFields: ManagedFieldsEntry[];
}

/**
 * merge/update.go Updater.Apply: merge the configuration into the live object; changing a field
 * another manager owns is a conflict unless forced, when that manager loses it; the applier then
 * owns exactly the fields of its configuration, and a field it applied before but no longer does is
 * removed from the object when no other manager owns it (Updater.prune).
 */
export function applyConfig(entries: readonly ManagedFieldsEntry[] | undefined, live: Json | undefined, config: Json, force: boolean, w: WriteContext): ApplyResult {
  const ms = decodeEntries(entries);
  const entry = { manager: w.manager, operation: 'Apply' as const, apiVersion: w.apiVersion, fieldsType: 'FieldsV1' as const, ...(w.subresource ? { subresource: w.subresource } : {}) };
  const self = identity(entry);
  // a copy: the live object's parts may be the store's frozen ones
  const merged = mergeApplied(structuredClone(live ?? {}), config);
  const raw = compare(live ?? {}, merged);
  const changed = filterIgnored(union(raw.added, raw.modified), w.statusIsSubresource);
  const conflicts: Conflict[] = [];
  for (const m of ms) {
    if (identity(m.entry) === self) continue;
    for (const p of sortedPaths(intersection(m.set, changed))) conflicts.push({ entry: m.entry, path: p });
  }
  if (conflicts.length > 0 && !force) throw new ApplyConflictError(conflicts);
  takeOver(ms, self, { added: changed, modified: new Map(), removed: new Map() });
  const set = filterIgnored(toFieldSet(config), w.statusIsSubresource);
  const prev = ms.find((m) => identity(m.entry) === self);
  const lastSet = prev?.set ?? new Map();
  // prune what this manager applied before and no longer applies, unless someone else owns it
  const others = ms.filter((m) => identity(m.entry) !== self);
  const ownedElsewhere = (p: Path): boolean => {
    const k = keyOf(p);
    return set.has(k) || others.some((m) => [...m.set.keys()].some((o) => o === k || o.startsWith(k + SEP)));
  };
  for (const p of sortedPaths(difference(lastSet, set)).reverse()) if (!ownedElsewhere(p)) removePath(merged, p);
  const before = jsonOf(live ?? null);
  const changedObj = jsonOf(merged) !== before;
  // managedfieldsupdater.go Apply stamps the time only when the object changed (Updater.Apply
  // returns no object for a no-op)
  const stamp = changedObj ? { time: w.now } : {};
  if (prev) {
    prev.set = set;
    prev.entry = { ...prev.entry, apiVersion: w.apiVersion, ...stamp };
  } else ms.push({ entry: { ...entry, ...stamp }, set });
  return { obj: merged, managedFields: encodeEntries(ms) };
}

/** The object's entries, if it has any. */
export const managedFieldsOf = (obj: KObject): ManagedFieldsEntry[] | undefined => obj.metadata?.managedFields;

/** A copy of the object without metadata.managedFields: what ownership is computed over. */
export function withoutManagedFields(obj: KObject): KObject {
  const { managedFields: _m, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * managedfields/internal/lastappliedupdater.go: when kubectl (the manager `kubectl`) applies
 * server-side to an object that carries client-side apply's annotation, the server rewrites the
 * annotation to the applied configuration (buildLastApplied: the configuration without that
 * annotation, as encoding/json writes an unstructured object, with json.Encoder's newline).
 */
export function syncLastApplied(obj: KObject, config: Json): void {
  if (obj.metadata.annotations?.[LAST_APPLIED] === undefined) return;
  const copy = structuredClone(config) as Obj;
  const meta = copy['metadata'];
  if (isObj(meta) && isObj(meta['annotations'])) delete meta['annotations'][LAST_APPLIED];
  obj.metadata.annotations[LAST_APPLIED] = `${marshalCompact(sortKeys(copy))}\n`;
}

/** Whether an entry owns a path (csaupgrade.FindFieldsOwners with a one-path set). */
export function entryOwns(e: ManagedFieldsEntry, path: Path): boolean {
  return decodeFieldsV1(e.fieldsV1 as Json).has(keyOf(path));
}

/** The union of two entries' FieldsV1. */
export function unionFieldsV1(a: ManagedFieldsEntry['fieldsV1'], b: ManagedFieldsEntry['fieldsV1']): Obj {
  return encodeFieldsV1(union(decodeFieldsV1(a as Json), decodeFieldsV1(b as Json)));
}

/**
 * managedfields/internal/lastappliedmanager.go: kubectl's own apply (the manager `kubectl`) may
 * take fields from their other managers without --force-conflicts when every conflicting field is
 * one that the client-side apply annotation names, i.e. the object was managed by `kubectl apply`
 * before; the annotation's own field set (ToFieldSet) decides.
 */
export function conflictsAllowedByLastApplied(conflicts: readonly Conflict[], lastApplied: string | undefined, statusIsSubresource: boolean): boolean {
  if (lastApplied === undefined) return false;
  let parsed: Json;
  try {
    parsed = JSON.parse(lastApplied) as Json;
  } catch {
    return false;
  }
  const allowed = filterIgnored(toFieldSet(parsed), statusIsSubresource);
  return conflicts.every((c) => allowed.has(keyOf(c.path)));
}
