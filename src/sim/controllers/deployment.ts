/**
 * Deployment controller (k8s.io/kubernetes pkg/controller/deployment: sync.go, rolling.go,
 * recreate.go, rollback revision annotations): one ReplicaSet per pod template, named
 * `<deployment>-<pod-template-hash>`, rolled with maxSurge/maxUnavailable, revisions in the
 * `deployment.kubernetes.io/revision` annotation, old ReplicaSets kept up to revisionHistoryLimit.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Deployment, KObject, Pod, ReplicaSet } from '../api/types.js';
import { cloneTop } from '../api/store.js';
import { DEPLOYMENT_ANNOTATIONS_TO_SKIP, DEPLOYMENT_REVISION, DEPLOYMENT_REVISION_HISTORY } from '../api/deployment-annotations.js';
import { canonicalJSON, controllerOf, ownerRef, podIsActive, podIsReady, podTemplateHash, sameCanonicalJSON, withoutTemplateHash } from './util.js';
import { SyncMemo, type QuietTimes } from './sync-memo.js';
import { claimObjects } from './controller-ref-manager.js';
import { ownerIndex } from './owner-index.js';
import { maxSurge, maxUnavailable } from '../api/deployment-strategy.js';
import {
  availableConditions,
  createdConditions,
  foundConditions,
  pausedConditions,
  progressCheckAt,
  progressConditions,
  progressStableUntil,
  removeCondition,
  setCondition,
  type DeploymentCondition,
} from './deployment-progress.js';

const REVISION = DEPLOYMENT_REVISION;
const REVISION_HISTORY = DEPLOYMENT_REVISION_HISTORY;

const SKIP_COPY = DEPLOYMENT_ANNOTATIONS_TO_SKIP;

/**
 * deployment_util.go SetNewReplicaSetAnnotations on a copy of the new ReplicaSet's annotations: the
 * Deployment's own annotations are copied over (so `kubernetes.io/change-cause` reaches
 * `rollout history`; one removed from the Deployment stays on the ReplicaSet), the revision moves
 * up to `newRevision`, and a ReplicaSet that had a revision before (a rollback to it) keeps the old
 * ones in revision-history. Returns whether anything changed.
 */
export function setNewReplicaSetAnnotations(d: Deployment, ann: Record<string, string>, newRevision: number): boolean {
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (SKIP_COPY.has(k) || ann[k] === v) continue;
    ann[k] = v;
    changed = true;
  }
  const oldText = ann[REVISION];
  const oldRevision = Number(oldText ?? '0') || 0;
  if (oldRevision < newRevision) {
    ann[REVISION] = String(newRevision);
    changed = true;
    if (oldText !== undefined) ann[REVISION_HISTORY] = ann[REVISION_HISTORY] ? `${ann[REVISION_HISTORY]},${oldText}` : oldText;
  }
  return changed;
}

export const deploymentController: Controller = {
  name: 'deployment',
  runsIn: 'controllerManager',
  // time: the progress checks requeueStuckDeployment asks for (deployment-progress.ts)
  watches: ['Deployment', 'ReplicaSet', 'Pod', 'time'],
  reconcile(c: Cluster): void {
    for (const d of c.store.list<Deployment>('Deployment')) deploymentMemo.sync(c, deploymentInputs(c, d), () => syncDeployment(c, d));
  },
};

/** The Deployments' syncs that found nothing to do (sync-memo.ts): a pod's change elsewhere does not sync them again. */
export const deploymentMemo = new SyncMemo();

/**
 * Everything a Deployment's sync reads, as stored: the Deployment, the ReplicaSets of its
 * namespace it controls or could adopt (claimObjects leaves those of other controllers alone, and
 * the collision check's read of another's ReplicaSet only happens on a sync that writes), and the
 * pods controlled by those it controls (podsOf).
 */
function deploymentInputs(c: Cluster, d: Deployment): [KObject, ...KObject[]] {
  const ns = d.metadata.namespace!;
  const uid = d.metadata.uid;
  const read: [KObject, ...KObject[]] = [d, ...ownerIndex<ReplicaSet>(c.store, 'ReplicaSet', ns).controlledOrOrphan(uid)];
  const mine = ownerIndex<ReplicaSet>(c.store, 'ReplicaSet', ns).controlled(uid);
  if (mine.length === 0 || uid === undefined) return read;
  const pods = ownerIndex<Pod>(c.store, 'Pod', ns);
  // in store order, as filtering the namespace's pods by their controller gave
  if (mine.length === 1) read.push(...pods.controlled(mine[0]!.metadata.uid));
  else {
    const uids = new Set(mine.map((rs) => rs.metadata.uid));
    for (const p of pods.all) {
      const ref = controllerOf(p);
      if (ref && uids.has(ref.uid)) read.push(p);
    }
  }
  return read;
}

/** Keys of stored (frozen, so never changing) templates: every sync compares every ReplicaSet's. */
const TEMPLATE_KEYS = new WeakMap<object, string>();

function templateKey(t: ReplicaSet['spec']['template']): string {
  const hit = TEMPLATE_KEYS.get(t);
  if (hit !== undefined) return hit;
  const key = templateKeyOf(t);
  if (Object.isFrozen(t)) TEMPLATE_KEYS.set(t, key);
  return key;
}

function templateKeyOf(t: ReplicaSet['spec']['template']): string {
  return canonicalJSON(withoutTemplateHash(t));
}

function revisionOf(rs: ReplicaSet): number {
  return Number(rs.metadata.annotations?.[REVISION] ?? '0') || 0;
}

function scaleRS(c: Cluster, d: Deployment, rs: ReplicaSet, to: number): void {
  const from = rs.spec.replicas ?? 0;
  if (from === to) return;
  const upd = cloneTop(rs);
  upd.spec = { ...upd.spec, replicas: to };
  upd.metadata = {
    ...upd.metadata,
    annotations: {
      ...(upd.metadata.annotations ?? {}),
      'deployment.kubernetes.io/desired-replicas': String(d.spec.replicas ?? 1),
      'deployment.kubernetes.io/max-replicas': String((d.spec.replicas ?? 1) + maxSurge(d)),
    },
  };
  c.write(upd);
  c.recordEvent(d, 'Normal', 'ScalingReplicaSet', `Scaled ${to > from ? 'up' : 'down'} replica set ${rs.metadata.name} from ${from} to ${to}`, 'deployment-controller');
}

function podsOf(c: Cluster, rs: ReplicaSet): Pod[] {
  return ownerIndex<Pod>(c.store, 'Pod', rs.metadata.namespace!).controlled(rs.metadata.uid).filter(podIsActive);
}

/** A new ReplicaSet's annotations: the Deployment's copied, its revision, and the replica annotations. */
function newRSAnnotations(d: Deployment, revision: number, desired: number): Record<string, string> {
  const ann: Record<string, string> = {};
  setNewReplicaSetAnnotations(d, ann, revision);
  ann['deployment.kubernetes.io/desired-replicas'] = String(desired);
  ann['deployment.kubernetes.io/max-replicas'] = String(desired + maxSurge(d));
  return ann;
}

/** One Deployment's sync; what it says about time holds when it wrote nothing (sync-memo.ts). */
function syncDeployment(c: Cluster, dIn: Deployment): QuietTimes | undefined {
  if (dIn.metadata.deletionTimestamp) return undefined;
  const ns = dIn.metadata.namespace!;
  const now = c.now();
  let d = dIn;
  // the conditions as this sync changes them before the status is calculated (upstream's copy of
  // the Deployment: checkPausedConditions, then getNewReplicaSet)
  let conds: DeploymentCondition[] = [...(d.status?.conditions ?? [])];
  conds = pausedConditions(d, conds, now) ?? conds;
  // deployment_controller.go getReplicaSetsForDeployment: ClaimReplicaSets over the namespace's
  // ReplicaSets (an orphan left by `delete --cascade=orphan` that the selector matches is adopted
  // with its pods; one relabelled out of the selector is released)
  const owned = claimObjects(c, d, d.spec.selector, ownerIndex<ReplicaSet>(c.store, 'ReplicaSet', ns).controlledOrOrphan(d.metadata.uid));
  const key = templateKey(d.spec.template);
  let newRS = owned.find((rs) => templateKey(rs.spec.template) === key);
  const old = owned.filter((rs) => rs !== newRS);
  const desired = d.spec.replicas ?? 1;
  // sync.go getNewReplicaSet: the new revision is one past the old ReplicaSets' highest
  const newRevision = Math.max(0, ...old.map(revisionOf)) + 1;

  if (!newRS) {
    // paused (sync.go sync: getAllReplicaSetsAndSyncRevision without createIfNotExisted): no new ReplicaSet
    if (!d.spec.paused) {
      const collisions = d.status?.collisionCount ?? 0;
      const hash = podTemplateHash(d.spec.template, collisions);
      // sync.go getNewReplicaSet: a ReplicaSet of that name that is not this Deployment's (or has
      // another template) is a hash collision: status.collisionCount goes up and the next sync
      // tries the next name
      const taken = c.store.get<ReplicaSet>('ReplicaSet', ns, `${d.metadata.name}-${hash}`);
      if (taken) {
        const upd = cloneTop(d);
        upd.status = { ...(upd.status ?? {}), collisionCount: collisions + 1 };
        c.write(upd);
        return undefined;
      }
      const template = cloneTop(d.spec.template);
      template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), 'pod-template-hash': hash } };
      const oldActive = old.reduce((n, rs) => n + (rs.spec.replicas ?? 0), 0);
      const initial = d.spec.strategy?.type === 'Recreate' ? (oldActive === 0 ? desired : 0) : oldActive === 0 ? desired : Math.max(0, Math.min(desired, desired + maxSurge(d) - oldActive));
      const rs: ReplicaSet = {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {
          name: `${d.metadata.name}-${hash}`,
          namespace: ns,
          labels: { ...(d.spec.template.metadata?.labels ?? {}), 'pod-template-hash': hash },
          annotations: newRSAnnotations(d, newRevision, desired),
          ownerReferences: [ownerRef(d)],
        },
        spec: {
          replicas: initial,
          selector: {
            ...d.spec.selector,
            matchLabels: { ...(d.spec.selector.matchLabels ?? {}), 'pod-template-hash': hash },
          },
          template,
        },
      };
      newRS = c.insert(rs);
      if (initial > 0)
        c.recordEvent(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${newRS.metadata.name} from 0 to ${initial}`, 'deployment-controller');
      conds = createdConditions(d, conds, newRS.metadata.name, now);
    }
  } else {
    // the existing new ReplicaSet follows the Deployment's annotations; rolled back to, it becomes the newest revision
    const ann = { ...(newRS.metadata.annotations ?? {}) };
    if (setNewReplicaSetAnnotations(d, ann, newRevision)) {
      const upd = cloneTop(newRS);
      upd.metadata = { ...upd.metadata, annotations: ann };
      newRS = c.write(upd);
    }
    conds = foundConditions(d, conds, newRS.metadata.name, now);
  }

  if (!d.spec.paused && newRS) {
    if (d.spec.strategy?.type === 'Recreate') {
      for (const rs of old) if ((rs.spec.replicas ?? 0) > 0) scaleRS(c, d, rs, 0);
      const oldPods = old.reduce((n, rs) => n + podsOf(c, rs).length, 0);
      if (oldPods === 0 && (newRS.spec.replicas ?? 0) !== desired) scaleRS(c, d, newRS, desired);
    } else rollOut(c, d, newRS, old, desired);
  }

  // revision history cleanup
  const limit = d.spec.revisionHistoryLimit ?? 10;
  const idle = ownerIndex<ReplicaSet>(c.store, 'ReplicaSet', ns)
    .controlled(d.metadata.uid)
    .filter((rs) => rs.metadata.name !== newRS?.metadata.name && (rs.spec.replicas ?? 0) === 0 && podsOf(c, rs).length === 0)
    .sort((a, b) => revisionOf(a) - revisionOf(b));
  for (const rs of idle.slice(0, Math.max(0, idle.length - limit))) c.deleteObject('ReplicaSet', ns, rs.metadata.name);

  // status (sync.go calculateStatus)
  const all = ownerIndex<ReplicaSet>(c.store, 'ReplicaSet', ns).controlled(d.metadata.uid);
  const current = newRS ? c.store.get<ReplicaSet>('ReplicaSet', ns, newRS.metadata.name) : undefined;
  const pods = all.flatMap((rs) => podsOf(c, rs));
  const ready = pods.filter(podIsReady).length;
  const updated = current ? podsOf(c, current).length : 0;
  const available = ready;
  d = c.store.get<Deployment>('Deployment', ns, d.metadata.name)!;
  const status: NonNullable<Deployment['status']> = {
    availableReplicas: available,
    conditions: availableConditions(d, conds, available, now),
    observedGeneration: d.metadata.generation ?? 1,
    readyReplicas: ready,
    replicas: pods.length,
    updatedReplicas: updated,
  };
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
  if (pods.length - available > 0) status.unavailableReplicas = pods.length - available;
  if (ready === 0) delete status.readyReplicas;
  if (available === 0) delete status.availableReplicas;
  if (updated === 0) delete status.updatedReplicas;
  if (pods.length === 0) delete status.replicas;
  // paused (sync.go syncDeploymentStatus): the status only; rolling out (progress.go
  // syncRolloutStatus): the Progressing estimate and the ReplicaSets' failures too
  let checkAt: number | undefined;
  if (!d.spec.paused) {
    const seen: Deployment = { ...d, status: { ...d.status, conditions: conds } };
    let next = progressConditions(seen, conds, status, current?.metadata.name, now);
    // getReplicaFailures: the new ReplicaSet's ReplicaFailure, else an old one's, as the Deployment's
    const failure = [...(current ? [current] : []), ...all.filter((rs) => rs.metadata.name !== current?.metadata.name)]
      .flatMap((rs) => rs.status?.conditions ?? [])
      .find((x) => x.type === 'ReplicaFailure');
    if (failure) {
      const at = failure.lastTransitionTime ?? c.timestamp();
      next = setCondition(next, { lastTransitionTime: at, lastUpdateTime: at, message: failure.message ?? '', reason: failure.reason ?? '', status: failure.status, type: 'ReplicaFailure' });
    } else next = removeCondition(next, 'ReplicaFailure');
    status.conditions = next;
    // requeueStuckDeployment, as the sync after this write would ask it
    checkAt = progressCheckAt({ ...d, status }, status, now);
    if (checkAt !== undefined) c.wakeAt(checkAt);
  }
  if (status.conditions?.length === 0) delete status.conditions;
  const rev = current?.metadata.annotations?.[REVISION];
  const annChanged = rev !== undefined && d.metadata.annotations?.[REVISION] !== rev;
  if (annChanged || !sameCanonicalJSON(d.status ?? {}, status)) {
    const upd = cloneTop(d);
    upd.status = status;
    if (rev !== undefined) upd.metadata = { ...upd.metadata, annotations: { ...(upd.metadata.annotations ?? {}), [REVISION]: rev } };
    c.write(upd);
  }
  return { until: progressStableUntil(d, now), wake: checkAt };
}

function rollOut(c: Cluster, d: Deployment, newRS: ReplicaSet, old: ReplicaSet[], desired: number): void {
  const surge = maxSurge(d);
  const unavailable = maxUnavailable(d);
  const newCount = newRS.spec.replicas ?? 0;
  const oldTotal = old.reduce((n, rs) => n + (rs.spec.replicas ?? 0), 0);
  if (oldTotal === 0) {
    if (newCount !== desired) scaleRS(c, d, newRS, desired);
    return;
  }
  // scale up the new ReplicaSet within maxSurge
  const total = newCount + oldTotal;
  const room = desired + surge - total;
  if (room > 0 && newCount < desired) scaleRS(c, d, newRS, Math.min(desired, newCount + room));
  // scale down old ReplicaSets as far as maxUnavailable allows; not-ready old pods go first
  const fresh = c.store.get<ReplicaSet>('ReplicaSet', newRS.metadata.namespace, newRS.metadata.name)!;
  const allPods = [fresh, ...old].flatMap((rs) => podsOf(c, rs));
  const available = allPods.filter(podIsReady).length;
  const minAvailable = desired - unavailable;
  let budget = Math.max(0, available - minAvailable);
  for (const rs of [...old].sort((a, b) => revisionOf(a) - revisionOf(b))) {
    const cur = rs.spec.replicas ?? 0;
    if (cur === 0) continue;
    const unhealthy = podsOf(c, rs).filter((p) => !podIsReady(p)).length;
    const cut = Math.min(cur, unhealthy + budget);
    if (cut <= 0) continue;
    budget -= Math.max(0, cut - unhealthy);
    scaleRS(c, d, rs, cur - cut);
  }
}
