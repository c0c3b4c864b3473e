/**
 * What `kubectl rollout` does per kind (k8s.io/kubectl pkg/polymorphichelpers): status viewers
 * (rollout_status.go), history viewers (history.go), rollbackers (rollback.go), and the restart /
 * pause / resume patches (objectrestarter.go, objectpauser.go, objectresumer.go). Deployments keep
 * their history in ReplicaSets (`deployment.kubernetes.io/revision`); DaemonSets and StatefulSets
 * in ControllerRevisions whose data is a patch restoring the pod template.
 */
import type { DaemonSet, Deployment, KObject, PodTemplateSpec, ReplicaSet, StatefulSet } from '../../../sim/api/types.js';
import { infoForKind } from '../../../sim/api/registry.js';
import { canonicalJSON } from '../../../util/canonical-json.js';
import { revisionData, type ControllerRevision } from '../../../sim/api/revisions.js';
import { renderRows } from '../../printers/tabwriter.js';
import { describePodTemplate } from '../../printers/describe/containers.js';
import { tabbedString } from '../../printers/describe/writer.js';
import type { KubectlEnv } from '../context.js';
import { KubectlError } from '../errors.js';
import { DEPLOYMENT_ANNOTATIONS_TO_SKIP } from '../../../sim/api/deployment-annotations.js';

const REVISION = 'deployment.kubernetes.io/revision';
const CHANGE_CAUSE = 'kubernetes.io/change-cause';

/** schema.GroupKind.String(): `Kind.group`, or `Kind` for the core group. */
export function groupKind(kind: string): string {
  const info = infoForKind(kind);
  return info.group ? `${info.kind}.${info.group}` : info.kind;
}

/**
 * HistoryViewerFor / RollbackerFor: the kinds GroupKindElement.Accept visits (pkg/apps/kind_visitor.go)
 * get "no … has been implemented"; any other kind fails in Accept, which prints the GroupKind
 * struct with %v (`{ ConfigMap}`), wrapped as `error retrieving <what> for "<Kind.group>", …`.
 */
const VISITED_KINDS = new Set(['DaemonSet', 'Deployment', 'Job', 'Pod', 'ReplicaSet', 'ReplicationController', 'StatefulSet', 'CronJob']);

function unsupported(kind: string, retrieving: string, implemented: string): KubectlError {
  const gk = groupKind(kind);
  if (VISITED_KINDS.has(kind)) return new KubectlError(`no ${implemented} has been implemented for "${gk}"`);
  return new KubectlError(`error retrieving ${retrieving} for "${gk}", no visitor method exists for {${infoForKind(kind).group} ${kind}}`);
}

// ---------------------------------------------------------------------------------------------
// status (rollout_status.go)

export interface RolloutStatus {
  msg: string;
  done: boolean;
}

function deploymentStatus(d: Deployment, revision: number): RolloutStatus {
  const name = d.metadata.name;
  const st = d.status ?? {};
  if (revision > 0) {
    const rev = Number(d.metadata.annotations?.[REVISION] ?? 0);
    if (rev !== revision) throw new KubectlError(`desired revision (${revision}) is different from the running revision (${rev})`);
  }
  if ((d.metadata.generation ?? 0) > (st.observedGeneration ?? 0)) return { msg: 'Waiting for deployment spec update to be observed...\n', done: false };
  const progressing = st.conditions?.find((c) => c.type === 'Progressing');
  if (progressing?.reason === 'ProgressDeadlineExceeded') throw new KubectlError(`deployment "${name}" exceeded its progress deadline`);
  const want = d.spec.replicas ?? 1;
  const updated = st.updatedReplicas ?? 0;
  if (updated < want) return { msg: `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${want} new replicas have been updated...\n`, done: false };
  if ((st.replicas ?? 0) > updated) return { msg: `Waiting for deployment "${name}" rollout to finish: ${(st.replicas ?? 0) - updated} old replicas are pending termination...\n`, done: false };
  if ((st.availableReplicas ?? 0) < updated) return { msg: `Waiting for deployment "${name}" rollout to finish: ${st.availableReplicas ?? 0} of ${updated} updated replicas are available...\n`, done: false };
  return { msg: `deployment "${name}" successfully rolled out\n`, done: true };
}

function strategyType(obj: DaemonSet | StatefulSet): string {
  return ((obj.spec.updateStrategy as { type?: string } | undefined)?.type ?? 'RollingUpdate') as string;
}

function daemonSetStatus(ds: DaemonSet): RolloutStatus {
  const name = ds.metadata.name;
  if (strategyType(ds) !== 'RollingUpdate') throw new KubectlError('rollout status is only available for RollingUpdate strategy type');
  const st = ds.status;
  if ((ds.metadata.generation ?? 0) > (st?.observedGeneration ?? 0)) return { msg: 'Waiting for daemon set spec update to be observed...\n', done: false };
  const desired = st?.desiredNumberScheduled ?? 0;
  const updated = st?.updatedNumberScheduled ?? 0;
  if (updated < desired) return { msg: `Waiting for daemon set "${name}" rollout to finish: ${updated} out of ${desired} new pods have been updated...\n`, done: false };
  const available = st?.numberAvailable ?? 0;
  if (available < desired) return { msg: `Waiting for daemon set "${name}" rollout to finish: ${available} of ${desired} updated pods are available...\n`, done: false };
  return { msg: `daemon set "${name}" successfully rolled out\n`, done: true };
}

function statefulSetStatus(sts: StatefulSet): RolloutStatus {
  if (strategyType(sts) !== 'RollingUpdate') throw new KubectlError('rollout status is only available for RollingUpdate strategy type');
  const st = (sts.status ?? {}) as NonNullable<StatefulSet['status']> & { currentRevision?: string; updateRevision?: string };
  if (!st.observedGeneration || (sts.metadata.generation ?? 0) > st.observedGeneration) return { msg: 'Waiting for statefulset spec update to be observed...\n', done: false };
  const replicas = sts.spec.replicas;
  const ready = st.readyReplicas ?? 0;
  if (replicas !== undefined && ready < replicas) return { msg: `Waiting for ${replicas - ready} pods to be ready...\n`, done: false };
  const rolling = (sts.spec.updateStrategy as { rollingUpdate?: { partition?: number } } | undefined)?.rollingUpdate;
  const updated = st.updatedReplicas ?? 0;
  if (rolling) {
    if (replicas !== undefined && rolling.partition !== undefined && updated < replicas - rolling.partition)
      return { msg: `Waiting for partitioned roll out to finish: ${updated} out of ${replicas - rolling.partition} new pods have been updated...\n`, done: false };
    return { msg: `partitioned roll out complete: ${updated} new pods have been updated...\n`, done: true };
  }
  if (st.updateRevision !== st.currentRevision)
    return { msg: `waiting for statefulset rolling update to complete ${updated} pods at revision ${st.updateRevision ?? ''}...\n`, done: false };
  return { msg: `statefulset rolling update complete ${st.currentReplicas ?? 0} pods at revision ${st.currentRevision ?? ''}...\n`, done: true };
}

/** StatusViewerFor(kind).Status(obj, revision). */
export function rolloutStatus(obj: KObject, revision: number): RolloutStatus {
  switch (obj.kind) {
    case 'Deployment':
      return deploymentStatus(obj as Deployment, revision);
    case 'DaemonSet':
      return daemonSetStatus(obj as DaemonSet);
    case 'StatefulSet':
      return statefulSetStatus(obj as StatefulSet);
    default:
      throw new KubectlError(`no status viewer has been implemented for ${groupKind(obj.kind)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// history (history.go)

function ownedBy(obj: KObject, owner: KObject): boolean {
  return (obj.metadata.ownerReferences ?? []).some((o) => o.controller === true && o.uid === owner.metadata.uid);
}

/** The Deployment's ReplicaSets that carry a revision, oldest revision first. */
export function deploymentRevisions(env: KubectlEnv, d: Deployment): ReplicaSet[] {
  return env.api
    .list<ReplicaSet>('ReplicaSet', d.metadata.namespace)
    .filter((rs) => ownedBy(rs, d) && rs.metadata.annotations?.[REVISION] !== undefined)
    .sort((a, b) => Number(a.metadata.annotations?.[REVISION]) - Number(b.metadata.annotations?.[REVISION]));
}

/** The ControllerRevisions a DaemonSet or StatefulSet controls, oldest first. */
export function controllerRevisions(env: KubectlEnv, owner: DaemonSet | StatefulSet): ControllerRevision[] {
  return (env.api.list('ControllerRevision', owner.metadata.namespace) as unknown as ControllerRevision[])
    .filter((r) => ownedBy(r as unknown as KObject, owner))
    .sort((a, b) => a.revision - b.revision);
}

/** applyDaemonSetHistory / applyStatefulSetHistory: the template a revision restores. */
function templateOf(r: ControllerRevision): PodTemplateSpec {
  const t = structuredClone((r.data as { spec: { template: PodTemplateSpec & { $patch?: string } } }).spec.template);
  delete t.$patch;
  return t;
}

/** printTemplate: DescribePodTemplate through a prefix writer. */
function printTemplate(t: PodTemplateSpec): string {
  return tabbedString((w) => describePodTemplate(t, w));
}

/** tabbedString over `REVISION\tCHANGE-CAUSE` rows (tabwriter 0, 8, 2, ' ', 0). */
function revisionTable(rows: string[][]): string {
  return renderRows(rows, { minwidth: 0, tabwidth: 8, padding: 2, padchar: ' ' });
}

const NO_HISTORY = 'No rollout history found.';

/** HistoryViewerFor(kind).ViewHistory(namespace, name, revision). */
export function viewHistory(env: KubectlEnv, obj: KObject, revision: number): string {
  if (obj.kind === 'Deployment') {
    const rss = deploymentRevisions(env, obj as Deployment);
    if (rss.length === 0) return NO_HISTORY;
    const templates = new Map<number, PodTemplateSpec>();
    for (const rs of rss) {
      const t = structuredClone(rs.spec.template);
      const cause = rs.metadata.annotations?.[CHANGE_CAUSE];
      t.metadata = { ...(t.metadata ?? {}), annotations: { ...(t.metadata?.annotations ?? {}), ...(cause ? { [CHANGE_CAUSE]: cause } : {}) } };
      templates.set(Number(rs.metadata.annotations?.[REVISION]), t);
    }
    if (revision > 0) {
      const t = templates.get(revision);
      if (!t) throw new KubectlError('unable to find the specified revision');
      return printTemplate(t);
    }
    const rows = [...templates.entries()].sort((a, b) => a[0] - b[0]).map(([r, t]) => [String(r), t.metadata?.annotations?.[CHANGE_CAUSE] || '<none>']);
    return revisionTable([['REVISION', 'CHANGE-CAUSE'], ...rows]);
  }
  if (obj.kind === 'DaemonSet' || obj.kind === 'StatefulSet') {
    const revs = controllerRevisions(env, obj as DaemonSet);
    if (revs.length === 0) return NO_HISTORY;
    if (revision > 0) {
      const r = revs.find((x) => x.revision === revision);
      if (!r) throw new KubectlError('unable to find the specified revision');
      return printTemplate(templateOf(r));
    }
    if (obj.kind === 'StatefulSet') return revisionTable([['REVISION'], ...revs.map((r) => [String(r.revision)])]);
    return revisionTable([['REVISION', 'CHANGE-CAUSE'], ...revs.map((r) => [String(r.revision), r.metadata.annotations?.[CHANGE_CAUSE] || '<none>'])]);
  }
  throw unsupported(obj.kind, 'history', 'history viewer');
}

// ---------------------------------------------------------------------------------------------
// undo (rollback.go)

const ANNOTATIONS_TO_SKIP = DEPLOYMENT_ANNOTATIONS_TO_SKIP;

function revisionNotFound(r: number): KubectlError {
  return new KubectlError(`unable to find specified revision ${r} in history`);
}

function withoutHash(t: PodTemplateSpec): PodTemplateSpec {
  const c = structuredClone(t);
  if (c.metadata?.labels) {
    delete c.metadata.labels['pod-template-hash'];
  }
  return c;
}

/** deploymentRevision: the ReplicaSet of toRevision, or the second newest for 0. */
function deploymentTarget(env: KubectlEnv, d: Deployment, toRevision: number): ReplicaSet {
  const rss = deploymentRevisions(env, d);
  if (toRevision > 0) {
    const rs = rss.find((r) => Number(r.metadata.annotations?.[REVISION]) === toRevision);
    if (!rs) throw revisionNotFound(toRevision);
    return rs;
  }
  const previous = rss[rss.length - 2];
  if (!previous) throw new KubectlError(`no rollout history found for deployment "${d.metadata.name}"`);
  return previous;
}

/**
 * Rollbacker.Rollback: the operation text kubectl prints after the object's name ("rolled back",
 * "skipped rollback (…)"), having written the restored object through `update`.
 */
export function rollback(env: KubectlEnv, obj: KObject, toRevision: number, update: (o: KObject) => void): string {
  if (toRevision < 0) throw revisionNotFound(toRevision);
  const skipped = `skipped rollback (current template already matches revision ${toRevision})`;
  if (obj.kind === 'Deployment') {
    const d = obj as Deployment;
    const rs = deploymentTarget(env, d, toRevision);
    if (d.spec.paused) throw new KubectlError(`you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume deployment/${d.metadata.name}' and try again`);
    if (canonicalJSON(withoutHash(rs.spec.template)) === canonicalJSON(withoutHash(d.spec.template))) return skipped;
    const annotations: Record<string, string> = {};
    for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) if (ANNOTATIONS_TO_SKIP.has(k)) annotations[k] = v;
    for (const [k, v] of Object.entries(rs.metadata.annotations ?? {})) if (!ANNOTATIONS_TO_SKIP.has(k)) annotations[k] = v;
    const next = structuredClone(d);
    next.spec.template = withoutHash(rs.spec.template);
    next.metadata.annotations = annotations;
    update(next);
    return 'rolled back';
  }
  if (obj.kind === 'DaemonSet' || obj.kind === 'StatefulSet') {
    const owner = obj as DaemonSet;
    const revs = controllerRevisions(env, owner);
    if (toRevision === 0 && revs.length <= 1) throw new KubectlError('no last revision to roll back to');
    const target = toRevision === 0 ? revs[revs.length - 2] : revs.find((r) => r.revision === toRevision);
    if (!target) throw revisionNotFound(toRevision);
    if (canonicalJSON(revisionData(owner)) === canonicalJSON(target.data)) return skipped;
    const next = structuredClone(owner);
    next.spec.template = templateOf(target);
    update(next);
    return 'rolled back';
  }
  throw unsupported(obj.kind, 'rollbacker', 'rollbacker');
}

// ---------------------------------------------------------------------------------------------
// restart, pause, resume (objectrestarter.go, objectpauser.go, objectresumer.go)

/** The object with the change applied, or the patch function's error text. */
export type PatchOutcome = { obj: KObject } | { error: string };

export function restartPatch(obj: KObject, timestamp: string): PatchOutcome {
  if (!['Deployment', 'DaemonSet', 'StatefulSet'].includes(obj.kind)) return { error: 'restarting is not supported' };
  const next = structuredClone(obj) as Deployment;
  if (next.kind === 'Deployment' && next.spec.paused) return { error: "can't restart paused deployment (run rollout resume first)" };
  const tpl = next.spec.template;
  tpl.metadata = { ...(tpl.metadata ?? {}), annotations: { ...(tpl.metadata?.annotations ?? {}), 'kubectl.kubernetes.io/restartedAt': timestamp } };
  return { obj: next };
}

export function pausePatch(obj: KObject, pause: boolean): PatchOutcome {
  if (obj.kind !== 'Deployment') return { error: pause ? 'pausing is not supported' : 'resuming is not supported' };
  const next = structuredClone(obj) as Deployment;
  if (Boolean(next.spec.paused) === pause) return { error: pause ? 'is already paused' : 'is not paused' };
  if (pause) next.spec.paused = true;
  else delete next.spec.paused;
  return { obj: next };
}
