/**
 * How the deployment controller tracks a rollout's progress in `status.conditions` (pure: the
 * Deployment, the status it is about to write and the time in, conditions out):
 *
 * - k8s.io/kubernetes pkg/controller/deployment/util/deployment_util.go: the condition reasons,
 *   NewDeploymentCondition, SetDeploymentCondition (same status and reason: nothing changes;
 *   same status: lastTransitionTime kept; the condition moves to the end of the list),
 *   RemoveDeploymentCondition, HasProgressDeadline, DeploymentComplete, DeploymentProgressing,
 *   DeploymentTimedOut;
 * - pkg/controller/deployment/progress.go: syncRolloutStatus (the Progressing estimate) and
 *   requeueStuckDeployment (when to look again: lastUpdateTime + progressDeadlineSeconds, plus a
 *   second);
 * - pkg/controller/deployment/sync.go: checkPausedConditions (DeploymentPaused / DeploymentResumed),
 *   getNewReplicaSet (NewReplicaSetCreated, FoundNewReplicaSet), calculateStatus (Available).
 */
import type { Deployment, DeploymentStatus } from '../api/types.js';
import { rfc3339 } from '../../util/clock.js';
import { maxUnavailable } from '../api/deployment-strategy.js';

export type DeploymentCondition = NonNullable<DeploymentStatus['conditions']>[number];

/** deployment_util.go reasons. */
export const REASON = {
  replicaSetUpdated: 'ReplicaSetUpdated',
  failedRSCreate: 'ReplicaSetCreateError',
  newReplicaSet: 'NewReplicaSetCreated',
  foundNewRS: 'FoundNewReplicaSet',
  newRSAvailable: 'NewReplicaSetAvailable',
  timedOut: 'ProgressDeadlineExceeded',
  paused: 'DeploymentPaused',
  resumed: 'DeploymentResumed',
  minimumReplicasAvailable: 'MinimumReplicasAvailable',
  minimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

/** math.MaxInt32: the "no deadline" value of spec.progressDeadlineSeconds. */
const MAX_INT32 = 2147483647;

/** workqueue.DefaultControllerRateLimiter's first exponential step. */
const RATE_LIMITED_MS = 5;

/** NewDeploymentCondition: both times are now (second precision, as metav1.Time serializes). */
export function newCondition(type: string, status: string, reason: string, message: string, now: number): DeploymentCondition {
  const ts = rfc3339(now);
  return { lastTransitionTime: ts, lastUpdateTime: ts, message, reason, status, type };
}

export function getCondition(conds: readonly DeploymentCondition[] | undefined, type: string): DeploymentCondition | undefined {
  return conds?.find((c) => c.type === type);
}

/**
 * SetDeploymentCondition on a copy: a condition with the same status and reason as the present one
 * changes nothing (not even its message or lastUpdateTime); with the same status it keeps the
 * present lastTransitionTime; it is appended after the others (filterOutCondition + append).
 */
export function setCondition(conds: readonly DeploymentCondition[], cond: DeploymentCondition): DeploymentCondition[] {
  const cur = getCondition(conds, cond.type);
  if (cur && cur.status === cond.status && cur.reason === cond.reason) return [...conds];
  const next = { ...cond };
  if (cur && cur.status === cond.status) {
    if (cur.lastTransitionTime === undefined) delete next.lastTransitionTime;
    else next.lastTransitionTime = cur.lastTransitionTime;
  }
  return [...conds.filter((c) => c.type !== cond.type), next];
}

export function removeCondition(conds: readonly DeploymentCondition[], type: string): DeploymentCondition[] {
  return conds.filter((c) => c.type !== type);
}

/** HasProgressDeadline: set and not math.MaxInt32 (the API defaults it to 600). */
export function hasProgressDeadline(d: Deployment): boolean {
  const s = d.spec.progressDeadlineSeconds;
  return s !== undefined && s !== MAX_INT32;
}

/** DeploymentComplete: every desired replica updated and available, no old ones, generation observed. */
export function deploymentComplete(d: Deployment, st: DeploymentStatus): boolean {
  const want = d.spec.replicas ?? 1;
  return (st.updatedReplicas ?? 0) === want && (st.replicas ?? 0) === want && (st.availableReplicas ?? 0) === want && (st.observedGeneration ?? 0) >= (d.metadata.generation ?? 0);
}

/**
 * DeploymentProgressing: compared with the status the Deployment has, more pods updated, fewer
 * old ones, or more ready or available.
 */
export function deploymentProgressing(d: Deployment, st: DeploymentStatus): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (st.replicas ?? 0) - (st.updatedReplicas ?? 0);
  return (
    (st.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (st.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (st.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/**
 * DeploymentTimedOut: the Progressing condition of the new status already says so, or (unless it
 * reports a finished rollout) its lastUpdateTime is more than progressDeadlineSeconds before now.
 */
export function deploymentTimedOut(d: Deployment, st: DeploymentStatus, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const cond = getCondition(st.conditions, 'Progressing');
  if (!cond) return false;
  if (cond.reason === REASON.newRSAvailable) return false;
  if (cond.reason === REASON.timedOut) return true;
  const from = Date.parse(cond.lastUpdateTime ?? '');
  if (Number.isNaN(from)) return false;
  return from + d.spec.progressDeadlineSeconds! * 1000 < now;
}

/**
 * checkPausedConditions: a paused Deployment's Progressing condition becomes Unknown
 * DeploymentPaused, a resumed one's Unknown DeploymentResumed (so the deadline counts from the
 * resume); a timed-out rollout keeps ProgressDeadlineExceeded. Undefined when nothing changes.
 */
export function pausedConditions(d: Deployment, conds: readonly DeploymentCondition[], now: number): DeploymentCondition[] | undefined {
  if (!hasProgressDeadline(d)) return undefined;
  const cond = getCondition(conds, 'Progressing');
  if (cond?.reason === REASON.timedOut) return undefined;
  const pausedCondExists = cond?.reason === REASON.paused;
  if (d.spec.paused && !pausedCondExists) return setCondition(conds, newCondition('Progressing', 'Unknown', REASON.paused, 'Deployment is paused', now));
  if (!d.spec.paused && pausedCondExists) return setCondition(conds, newCondition('Progressing', 'Unknown', REASON.resumed, 'Deployment is resumed', now));
  return undefined;
}

/** getNewReplicaSet, on creating the new ReplicaSet: Progressing True NewReplicaSetCreated. */
export function createdConditions(d: Deployment, conds: readonly DeploymentCondition[], rsName: string, now: number): DeploymentCondition[] {
  if (!hasProgressDeadline(d)) return [...conds];
  return setCondition(conds, newCondition('Progressing', 'True', REASON.newReplicaSet, `Created new replica set "${rsName}"`, now));
}

/**
 * getNewReplicaSet, on finding the new ReplicaSet of a Deployment without a Progressing condition
 * (one that had no deadline before): Progressing True FoundNewReplicaSet.
 */
export function foundConditions(d: Deployment, conds: readonly DeploymentCondition[], rsName: string, now: number): DeploymentCondition[] {
  if (!hasProgressDeadline(d) || getCondition(conds, 'Progressing')) return [...conds];
  return setCondition(conds, newCondition('Progressing', 'True', REASON.foundNewRS, `Found new replica set "${rsName}"`, now));
}

/** calculateStatus's Available condition, set on the conditions carried over. */
export function availableConditions(d: Deployment, conds: readonly DeploymentCondition[], available: number, now: number): DeploymentCondition[] {
  const ok = available >= (d.spec.replicas ?? 1) - maxUnavailable(d);
  return setCondition(
    conds,
    ok
      ? newCondition('Available', 'True', REASON.minimumReplicasAvailable, 'Deployment has minimum availability.', now)
      : newCondition('Available', 'False', REASON.minimumReplicasUnavailable, 'Deployment does not have minimum availability.', now),
  );
}

/**
 * syncRolloutStatus's Progressing estimate on `st` (the status calculateStatus made, its
 * conditions carried over from `current`, the conditions the Deployment has after this sync's
 * earlier steps). A finished rollout (NewReplicaSetAvailable and no old replicas) is not estimated
 * again; otherwise, in this order: complete → NewReplicaSetAvailable; progress since the
 * Deployment's status → ReplicaSetUpdated, lastUpdateTime now (lastTransitionTime kept while it
 * was True); past the deadline → False ProgressDeadlineExceeded. Returns the new conditions.
 */
export function progressConditions(d: Deployment, current: readonly DeploymentCondition[], st: DeploymentStatus, newRSName: string | undefined, now: number): DeploymentCondition[] {
  let conds = [...(st.conditions ?? [])];
  if (!hasProgressDeadline(d)) conds = removeCondition(conds, 'Progressing');
  const currentCond = getCondition(current, 'Progressing');
  const isCompleteDeployment = (st.replicas ?? 0) === (st.updatedReplicas ?? 0) && currentCond?.reason === REASON.newRSAvailable;
  if (!hasProgressDeadline(d) || isCompleteDeployment) return conds;
  const subject = newRSName !== undefined ? `ReplicaSet "${newRSName}"` : `Deployment "${d.metadata.name}"`;
  const withConds = { ...st, conditions: conds };
  if (deploymentComplete(d, withConds)) return setCondition(conds, newCondition('Progressing', 'True', REASON.newRSAvailable, `${subject} has successfully progressed.`, now));
  if (deploymentProgressing(d, withConds)) {
    const cond = newCondition('Progressing', 'True', REASON.replicaSetUpdated, `${subject} is progressing.`, now);
    if (currentCond) {
      if (currentCond.status === 'True') {
        if (currentCond.lastTransitionTime === undefined) delete cond.lastTransitionTime;
        else cond.lastTransitionTime = currentCond.lastTransitionTime;
      }
      conds = removeCondition(conds, 'Progressing');
    }
    return setCondition(conds, cond);
  }
  if (deploymentTimedOut(d, withConds, now)) return setCondition(conds, newCondition('Progressing', 'False', REASON.timedOut, `${subject} has timed out progressing.`, now));
  return conds;
}

/**
 * requeueStuckDeployment: when the controller looks at a rollout again that shows no progress, so
 * that it times out without waiting for a resync. `d` carries the Progressing condition the
 * Deployment has, `st` the status it is given. Undefined: no need (no deadline, no condition,
 * complete, or already timed out). Otherwise lastUpdateTime + progressDeadlineSeconds + 1s (the
 * second added against clock skew in AddAfter); under a second away, the rate-limited requeue
 * (5 ms, forgotten after every sync) tries until the deadline has passed; past it, none (below).
 */
export function progressCheckAt(d: Deployment, st: DeploymentStatus, now: number): number | undefined {
  const cond = getCondition(d.status?.conditions, 'Progressing');
  if (!hasProgressDeadline(d) || !cond) return undefined;
  if (deploymentComplete(d, st) || cond.reason === REASON.timedOut) return undefined;
  const from = Date.parse(cond.lastUpdateTime ?? '');
  if (Number.isNaN(from)) return undefined;
  const deadline = from + d.spec.progressDeadlineSeconds! * 1000;
  const after = deadline - now;
  // Past the deadline, this sync has already judged the rollout at `now` and did not time it out
  // (a finished rollout whose pods became unavailable keeps NewReplicaSetAvailable, which never
  // times out): upstream requeues it rate-limited forever, and every requeue finds the same
  // conditions, so only another change (which wakes the controller anyway) can matter.
  if (after < 0) return undefined;
  if (after < 1000) return now + RATE_LIMITED_MS * (Math.floor(Math.max(0, after) / RATE_LIMITED_MS) + 1);
  return deadline + 1000;
}

/**
 * How long a sync of this Deployment (as stored after a sync that changed nothing at `now`) finds
 * the same at a later time with the same objects (controllers/sync-memo.ts): the latest such time.
 * Time enters a sync only through the progress estimate of an unpaused Deployment with a deadline
 * and a Progressing condition that is neither timed out nor unparsable: DeploymentTimedOut (past
 * lastUpdateTime + progressDeadlineSeconds) and requeueStuckDeployment's wake-up (the deadline
 * plus a second while it is a second or more away; the rate-limited requeue, which moves with
 * `now`, within the last second; none past the deadline). A sync that changed nothing past the
 * deadline did not time the rollout out (its condition never times out: NewReplicaSetAvailable),
 * and no later one does either. Every other condition a sync sets is decided without the time
 * (the time is only stamped on a condition it changes, a write).
 */
export function progressStableUntil(d: Deployment, now: number): number {
  if (d.spec.paused || !hasProgressDeadline(d)) return Infinity;
  const cond = getCondition(d.status?.conditions, 'Progressing');
  if (!cond || cond.reason === REASON.timedOut) return Infinity;
  const from = Date.parse(cond.lastUpdateTime ?? '');
  if (Number.isNaN(from)) return Infinity;
  const deadline = from + d.spec.progressDeadlineSeconds! * 1000;
  if (deadline < now) return Infinity;
  if (deadline - now >= 1000) return deadline - 1000;
  return now;
}
