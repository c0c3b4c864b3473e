/**
 * kube-apiserver's API Priority and Fairness bootstrap ensurer, the post-start hook
 * `priority-and-fairness-config-producer` (k8s.io/kubernetes pkg/registry/flowcontrol/rest/
 * storage_flowcontrol.go ensureAPFBootstrapConfiguration): when the API server starts, and then
 * every minute (wait.PollImmediateUntil(time.Minute)), it ensures the suggested priority levels,
 * the suggested flow schemas, the mandatory priority levels and the mandatory flow schemas, in that
 * order, then deletes the unwanted ones (pkg/registry/flowcontrol/ensurer/strategy.go):
 *
 * - a missing bootstrap object is always created again (EnsureConfiguration), suggested or not;
 * - a mandatory object (`exempt`, `catch-all`) always gets the bootstrap spec back and the
 *   `apf.kubernetes.io/autoupdate-spec` annotation set to "true" (ReviseIfNeeded with
 *   alwaysAutoUpdateSpec);
 * - a suggested object is kept up to date while that annotation parses (strconv.ParseBool) as
 *   true, or, when it is missing or malformed, while the object's generation is 1
 *   (shouldUpdateSpec); the annotation is then rewritten as "true"/"false" if it did not already
 *   say so (shouldUpdateAnnotation). So `autoupdate-spec: "false"` keeps an operator's edits;
 * - an object whose name is not a bootstrap one and whose annotation parses as true is deleted
 *   (RemoveUnwantedObjects).
 *
 * Specs are compared as SpecEqualish does (flowschema.go, prioritylevelconfiguration.go): the
 * exempt level's nominalConcurrencyShares and lendablePercent are the operator's to tune.
 * An update with a changed spec moves the generation (the registry strategies' PrepareForUpdate).
 */
import type { Cluster, Controller } from '../cluster.js';
import type { KObject } from '../api/types.js';
import { clone } from '../api/store.js';
import { BOOTSTRAP_FLOW_SCHEMAS, BOOTSTRAP_PRIORITY_LEVELS, MANDATORY_APF_NAMES } from '../api/flowcontrol-bootstrap.js';
import { staticPods } from '../node/runtime.js';
import { sameItems } from '../../util/same-items.js';

const ANNOTATION = 'apf.kubernetes.io/autoupdate-spec';
const PERIOD_MS = 60_000;

type Kind = 'FlowSchema' | 'PriorityLevelConfiguration';
type Spec = Record<string, unknown>;

/** strconv.ParseBool: the value, or undefined when it is no Go boolean. */
export function parseGoBool(v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  return undefined;
}

/**
 * equality.Semantic.DeepEqual over the decoded specs: a nil and an empty slice are equal, and an
 * omitted bool or string is its zero value; numbers are compared as given (the int32 pointers of
 * a priority level tell nil from 0).
 */
function semanticEqual(a: unknown, b: unknown): boolean {
  const zero = (v: unknown): boolean => v === undefined || v === null || v === false || v === '' || (Array.isArray(v) && v.length === 0);
  if (zero(a) && zero(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    return [...new Set([...Object.keys(ra), ...Object.keys(rb)])].every((k) => semanticEqual(ra[k], rb[k]));
  }
  return a === b;
}

/**
 * specEqualish's verdicts per bootstrap object, by the stored spec: stored objects are frozen and
 * shared by every copy of the state, so the ensurer's minutely run over an unchanged object (in
 * this copy or another) reuses the comparison instead of walking both specs again.
 */
const EQUALISH = new WeakMap<KObject, WeakMap<Spec, boolean>>();

/** flowSchemaSpecEqual / plcSpecEqualish: the bootstrap spec (already defaulted) against the stored one. */
function specEqualish(kind: Kind, boot: KObject, cur: KObject): boolean {
  const spec = (cur as unknown as { spec?: Spec }).spec;
  if (spec === undefined || !Object.isFrozen(spec)) return compareSpecs(kind, boot, spec ?? {});
  let seen = EQUALISH.get(boot);
  if (!seen) EQUALISH.set(boot, (seen = new WeakMap()));
  let same = seen.get(spec);
  if (same === undefined) seen.set(spec, (same = compareSpecs(kind, boot, spec)));
  return same;
}

function compareSpecs(kind: Kind, boot: KObject, actual: Spec): boolean {
  const expected = (boot as unknown as { spec: Spec }).spec;
  if (kind !== 'PriorityLevelConfiguration' || boot.metadata.name !== 'exempt') return semanticEqual(expected, actual);
  const have = actual.exempt as Spec | undefined;
  if (!have) return false;
  // the operator's two fields count as the bootstrap's: compared on a copy of the one level that holds them
  const want: Spec = { ...(expected.exempt as Spec) };
  for (const k of ['nominalConcurrencyShares', 'lendablePercent']) {
    if (have[k] === undefined) delete want[k];
    else want[k] = have[k];
  }
  return semanticEqual({ ...expected, exempt: want }, actual);
}

/** EnsureConfiguration with the mandatory or suggested strategy. */
function ensureOne(c: Cluster, kind: Kind, boot: KObject, mandatory: boolean): void {
  const cur = c.store.get(kind, undefined, boot.metadata.name);
  if (!cur) {
    const fresh = clone(boot);
    c.insert(fresh);
    return;
  }
  const value = cur.metadata.annotations?.[ANNOTATION];
  // shouldUpdateSpec: the annotation if it parses, else "the operator has not changed the spec"
  const autoUpdate = mandatory || (parseGoBool(value) ?? cur.metadata.generation === 1);
  const updateAnnotation = parseGoBool(value) !== autoUpdate;
  const specChanged = autoUpdate && !specEqualish(kind, boot, cur);
  if (!updateAnnotation && !specChanged) return;
  const next = clone(cur) as KObject & { spec?: Spec };
  if (specChanged) {
    next.spec = clone((boot as unknown as { spec: Spec }).spec);
    if (next.metadata.generation !== undefined) next.metadata.generation += 1;
  }
  if (updateAnnotation) next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [ANNOTATION]: String(autoUpdate) };
  c.write(next);
}

/** RemoveUnwantedObjects: objects of no bootstrap name that say autoupdate-spec true. */
function removeUnwanted(c: Cluster, kind: Kind, boots: readonly KObject[]): void {
  const wanted = new Set(boots.map((b) => b.metadata.name));
  for (const o of c.store.list(kind)) {
    if (wanted.has(o.metadata.name)) continue;
    if (parseGoBool(o.metadata.annotations?.[ANNOTATION]) !== true) continue;
    c.deleteObject(kind, undefined, o.metadata.name);
  }
}

/**
 * The FlowSchema and PriorityLevelConfiguration counters at the end of the last ensure that
 * wrote nothing, per cluster and store. An ensure reads those two kinds alone (and the fixed
 * bootstrap lists), so on the same objects it writes nothing again: the minute's run is skipped
 * instead of comparing every bootstrap spec once a simulated minute (a fixture's 124 hours of age
 * were 7,448 runs).
 */
const UNCHANGED = new WeakMap<Cluster, { store: Cluster['store']; counters: string }>();

function apfCounters(c: Cluster): string {
  return `${c.store.changes.get('FlowSchema') ?? 0}/${c.store.changes.get('PriorityLevelConfiguration') ?? 0}`;
}

/**
 * The stored FlowSchemas and PriorityLevelConfigurations (each kind's list, in store order) that
 * the last ensure that wrote nothing read, in any cluster. Stored objects are frozen, and the
 * copies of a state (validate's, the grader's) share them: an ensure over the very same objects
 * reads what that one read and writes nothing again, so a copy's first run after the minute is
 * skipped too. One entry; lists copied (the store may replace an item of a list it handed out).
 */
let quietObjects: { flowSchemas: readonly KObject[]; levels: readonly KObject[] } | undefined;

/** Ensures that ran (ensureAll), for tests. */
export const apfEnsures = { count: 0 };

/** One run of storage_flowcontrol.go ensure(). */
export function ensureApfBootstrap(c: Cluster): void {
  const before = apfCounters(c);
  const had = UNCHANGED.get(c);
  if (had && had.store === c.store && had.counters === before) return;
  const flowSchemas = c.store.list('FlowSchema');
  const levels = c.store.list('PriorityLevelConfiguration');
  if (quietObjects && sameItems(quietObjects.flowSchemas, flowSchemas) && sameItems(quietObjects.levels, levels)) {
    UNCHANGED.set(c, { store: c.store, counters: before });
    return;
  }
  apfEnsures.count++;
  ensureAll(c);
  if (apfCounters(c) === before) {
    UNCHANGED.set(c, { store: c.store, counters: before });
    quietObjects = { flowSchemas: [...flowSchemas], levels: [...levels] };
  } else UNCHANGED.delete(c);
}

function ensureAll(c: Cluster): void {
  const suggested = (list: readonly KObject[]): KObject[] => list.filter((o) => !MANDATORY_APF_NAMES.has(o.metadata.name));
  const mandatory = (list: readonly KObject[]): KObject[] => list.filter((o) => MANDATORY_APF_NAMES.has(o.metadata.name));
  for (const o of suggested(BOOTSTRAP_PRIORITY_LEVELS)) ensureOne(c, 'PriorityLevelConfiguration', o, false);
  for (const o of suggested(BOOTSTRAP_FLOW_SCHEMAS)) ensureOne(c, 'FlowSchema', o, false);
  for (const o of mandatory(BOOTSTRAP_PRIORITY_LEVELS)) ensureOne(c, 'PriorityLevelConfiguration', o, true);
  for (const o of mandatory(BOOTSTRAP_FLOW_SCHEMAS)) ensureOne(c, 'FlowSchema', o, true);
  removeUnwanted(c, 'FlowSchema', BOOTSTRAP_FLOW_SCHEMAS);
  removeUnwanted(c, 'PriorityLevelConfiguration', BOOTSTRAP_PRIORITY_LEVELS);
}

/** The running kube-apiservers: node and the start of their container (the post-start hook's time). */
function apiservers(c: Cluster): { node: string; since: number }[] {
  const out: { node: string; since: number }[] = [];
  for (const [node, rt] of Object.entries(staticPods(c))) {
    for (const r of Object.values(rt)) if (r.name === 'kube-apiserver' && r.running) out.push({ node, since: r.since });
  }
  return out;
}

export const apfBootstrapController: Controller = {
  name: 'apf-bootstrap',
  watches: ['time'],
  // a restarted API server publishes its mirror pod again: its hook runs at once
  dynamicWatches: (c) => apiservers(c).map((a) => `Pod@kube-system/kube-apiserver-${a.node}`),
  // the running API servers are static-pods' run records: its runs change them, and a reboot
  // (node/runtime.ts staticPodsLostOnReboot, with the node's units: 'hosts')
  dynamicInputs: ['hosts', 'run:static-pods'],
  reconcile(c: Cluster): void {
    if (c.state.apiserver?.up === false) return;
    const now = c.now();
    const servers = apiservers(c).filter((a) => a.since <= now);
    if (servers.length === 0) return;
    // the latest run due (start + k minutes) and the next one, over every API server
    const due = Math.max(...servers.map((a) => a.since + Math.floor((now - a.since) / PERIOD_MS) * PERIOD_MS));
    const next = Math.min(...servers.map((a) => a.since + (Math.floor((now - a.since) / PERIOD_MS) + 1) * PERIOD_MS));
    const st = c.state.apfBootstrap;
    // a cluster first seen here has had its ensurer running all along: its next run is the next minute
    if (st !== undefined && st.ranAt < due) ensureApfBootstrap(c);
    c.state.apfBootstrap = { ranAt: due };
    c.wakeAt(next);
  },
};
