/**
 * Job controller (pkg/controller/job/job_controller.go, v1.35):
 * - runs pods `<job>-<5>` up to parallelism until `completions` succeed; a work-queue job
 *   (completions unset) is done once one pod succeeded and none is still active;
 * - Indexed completion mode (indexed_job_utils.go): one pod per index, named `<job>-<i>-<5>` with
 *   hostname `<job>-<i>`, the `batch.kubernetes.io/job-completion-index` annotation and label and
 *   JOB_COMPLETION_INDEX from it; the job completes when every index succeeded, and
 *   status.completedIndexes lists them as intervals (`0-2,4`);
 * - failures: more failed pods than backoffLimit — or, with restartPolicy OnFailure, more container
 *   restarts (pastBackoffLimitOnFailure) — fail the job with BackoffLimitExceeded; a failed pod is
 *   replaced only after the pod failure back-off (10 s doubling per failure, at most 10 min);
 * - activeDeadlineSeconds: past it the active pods are deleted and the job fails with
 *   DeadlineExceeded (the controller looks again at the deadline); it counts from the last resume;
 * - spec.suspend (manageJob, syncJob): a suspended job's active pods are deleted without counting as
 *   failed, and it gets Suspended=True (JobSuspended) and the Suspended event; resuming turns the
 *   condition False (JobResumed), records Resumed and resets status.startTime;
 * - spec.podFailurePolicy (pod_failure_policy.go): the first rule matching a failed pod's exit code or
 *   condition decides: FailJob fails the job (reason PodFailurePolicy), Ignore does not count the
 *   failure, FailIndex fails the pod's index, Count is the default;
 * - spec.backoffLimitPerIndex and maxFailedIndexes (indexed_job_utils.go): an index fails once its
 *   pods failed more than the limit (status.failedIndexes); the job fails with FailedIndexes once
 *   every index succeeded or failed, or with MaxFailedIndexesExceeded; each index has its own back-off;
 * - spec.successPolicy (success_policy.go): the first rule met ends the job (SuccessCriteriaMet,
 *   reason SuccessPolicy) and the pods still running are deleted;
 * - a finishing job gets the interim FailureTarget/SuccessCriteriaMet condition at once and
 *   Failed/Complete (with their events) once none of its pods is terminating.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Container, Job, Pod, PodFailurePolicy } from '../api/types.js';
import { clone } from '../api/store.js';
import { createPodOrReport, isOwnedBy, podFromTemplate, podIsReady } from './util.js';
import { deletePod } from './replicaset.js';

/** job_controller.go DefaultJobPodFailureBackOff and MaxJobPodFailureBackOff. */
const POD_FAILURE_BACKOFF_MS = 10_000;
const MAX_POD_FAILURE_BACKOFF_MS = 600_000;
export const COMPLETION_INDEX = 'batch.kubernetes.io/job-completion-index';
/** batch/v1 JobIndexFailureCountAnnotation and JobIndexIgnoredFailureCountAnnotation. */
export const INDEX_FAILURE_COUNT = 'batch.kubernetes.io/job-index-failure-count';
export const INDEX_IGNORED_FAILURE_COUNT = 'batch.kubernetes.io/job-index-ignored-failure-count';
/** math.MaxInt32: backoffLimit's default with backoffLimitPerIndex. */
const MAX_INT32 = 2147483647;

export const jobController: Controller = {
  name: 'job',
  runsIn: 'controllerManager',
  // admission objects too: a refused pod is retried when a quota, limit range or namespace label changes
  watches: ['Job', 'Pod', 'ResourceQuota', 'LimitRange', 'Namespace', 'time'],
  reconcile(c: Cluster): void {
    for (const job of c.store.list<Job>('Job')) sync(c, job);
  },
};

type Cond = NonNullable<NonNullable<Job['status']>['conditions']>[number];

const terminal = (p: Pod): boolean => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
const isActive = (p: Pod): boolean => !p.metadata.deletionTimestamp && !terminal(p);
const isTerminating = (p: Pod): boolean => !!p.metadata.deletionTimestamp && !terminal(p);

/** The index of an Indexed job's pod (its annotation), or undefined. */
export function podIndex(p: Pod): number | undefined {
  const v = p.metadata.annotations?.[COMPLETION_INDEX];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}

/** orderedIntervals.String: runs of three or more as `a-b`, two neighbours as `a,b` (`0-2,4,6,7`). */
export function indexIntervals(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    if (i === j) out.push(`${sorted[i]}`);
    else out.push(`${sorted[i]}${j === i + 1 ? ',' : '-'}${sorted[j]}`);
    i = j + 1;
  }
  return out.join(',');
}

/** parseIndexesFromString: the indexes below `completions` an interval list names (a corrupt interval is skipped). */
export function parseIndexes(s: string | undefined, completions: number): Set<number> {
  const out = new Set<number>();
  for (const part of (s ?? '').split(',')) {
    if (!part) continue;
    const [a, b] = part.split('-');
    const first = Number(a);
    if (!/^\d+$/.test(a ?? '') || first >= completions) continue;
    const last = b === undefined ? first : /^\d+$/.test(b) ? Math.min(Number(b), completions - 1) : NaN;
    for (let i = first; i <= last; i++) out.add(i);
  }
  return out;
}

/** When a pod ended (its last container's finish), for the failure back-off. */
function finishedAt(p: Pod): number {
  const times = (p.status?.containerStatuses ?? []).map((s) => Date.parse(s.state.terminated?.finishedAt ?? '')).filter((t) => !Number.isNaN(t));
  return times.length ? Math.max(...times) : Date.parse(p.metadata.creationTimestamp ?? '') || 0;
}

/** getRemainingTimeForFailuresCount: 10 s × 2^(failures−1), at most 10 min, after the newest failure. */
function nextCreateAt(failedPods: readonly Pod[]): number {
  if (failedPods.length === 0) return -Infinity;
  const last = Math.max(...failedPods.map(finishedAt));
  return last + Math.min(MAX_POD_FAILURE_BACKOFF_MS, POD_FAILURE_BACKOFF_MS * 2 ** (failedPods.length - 1));
}

/**
 * pastBackoffLimitOnFailure: with restartPolicy OnFailure the kubelet restarts containers in place,
 * so their restarts in the Running and Pending pods count against backoffLimit (any restart when
 * it is 0).
 */
function pastBackoffLimitOnFailure(job: Job, pods: readonly Pod[], backoffLimit: number): boolean {
  if (job.spec.template.spec.restartPolicy !== 'OnFailure') return false;
  const live = pods.filter((p) => p.status?.phase === 'Running' || p.status?.phase === 'Pending' || p.status?.phase === undefined);
  const n = live.reduce((sum, p) => sum + [...(p.status?.initContainerStatuses ?? []), ...(p.status?.containerStatuses ?? [])].reduce((m, s) => m + (s.restartCount ?? 0), 0), 0);
  return backoffLimit === 0 ? n > 0 : n >= backoffLimit;
}

export interface PolicyMatch {
  /** The job's failure message when a FailJob rule matched. */
  failJobMessage?: string;
  /** False when an Ignore rule matched: the failure does not count toward backoffLimit. */
  countFailed: boolean;
  action?: string;
}

/**
 * matchPodFailurePolicy (pod_failure_policy.go): the first rule whose onExitCodes (a terminated,
 * non-zero container, regular ones before init ones) or onPodConditions matches the failed pod.
 */
export function matchPodFailurePolicy(policy: PodFailurePolicy | undefined, pod: Pod): PolicyMatch {
  if (!policy) return { countFailed: true };
  const ns = pod.metadata.namespace ?? '';
  const name = pod.metadata.name;
  for (const [index, rule] of (policy.rules ?? []).entries()) {
    let failMessage: string | undefined;
    if (rule.onExitCodes) {
      const req = rule.onExitCodes;
      const matches = (code: number): boolean => (req.operator === 'In' ? req.values.includes(code) : req.operator === 'NotIn' ? !req.values.includes(code) : false);
      const cs = [pod.status?.containerStatuses ?? [], pod.status?.initContainerStatuses ?? []]
        .map((list) => list.find((s) => s.state.terminated && (req.containerName === undefined || req.containerName === s.name) && s.state.terminated.exitCode !== 0 && matches(s.state.terminated.exitCode)))
        .find((s) => s !== undefined);
      if (!cs) continue;
      failMessage = `Container ${cs.name} for pod ${ns}/${name} failed with exit code ${cs.state.terminated!.exitCode} matching ${rule.action} rule at index ${index}`;
    } else if (rule.onPodConditions) {
      const cond = (pod.status?.conditions ?? []).find((pc) => rule.onPodConditions!.some((pat) => pat.type === pc.type && (pat.status ?? 'True') === pc.status));
      if (!cond) continue;
      failMessage = `Pod ${ns}/${name} has condition ${cond.type} matching ${rule.action} rule at index ${index}`;
    } else continue;
    switch (rule.action) {
      case 'Ignore':
        return { countFailed: false, action: 'Ignore' };
      case 'Count':
        return { countFailed: true, action: 'Count' };
      case 'FailJob':
        return { failJobMessage: failMessage, countFailed: true, action: 'FailJob' };
      case 'FailIndex':
        return { countFailed: true, action: 'FailIndex' };
    }
    // an unknown action: the rule is skipped
  }
  return { countFailed: true };
}

/**
 * matchSuccessPolicy (success_policy.go): `Matched rules at index N` for the first rule met — all
 * its succeededIndexes succeeded (or succeededCount of them), or succeededCount indexes in all.
 */
export function matchSuccessPolicy(policy: Job['spec']['successPolicy'], completions: number, succeeded: ReadonlySet<number>): string | undefined {
  if (!policy || succeeded.size === 0) return undefined;
  for (const [index, rule] of policy.rules.entries()) {
    if (rule.succeededIndexes !== undefined) {
      const required = parseIndexes(rule.succeededIndexes, completions);
      if (required.size === 0) continue;
      const contains = [...required].filter((i) => succeeded.has(i)).length;
      if (contains === required.size || (rule.succeededCount !== undefined && contains >= rule.succeededCount)) return `Matched rules at index ${index}`;
    } else if (rule.succeededCount !== undefined && succeeded.size >= rule.succeededCount) return `Matched rules at index ${index}`;
  }
  return undefined;
}

/** A pod of an Indexed job for `index` (getPodsWithIndex's template plus addCompletionIndexEnvVariables). */
function indexedPod(job: Job, index: number, base: Pod, failureCounts?: [counted: number, ignored: number]): Pod {
  const pod = clone(base);
  pod.metadata.generateName = `${job.metadata.name}-${index}-`;
  pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [COMPLETION_INDEX]: String(index) };
  // addIndexFailureCountAnnotation: the failures of the index so far
  if (failureCounts) {
    pod.metadata.annotations[INDEX_FAILURE_COUNT] = String(failureCounts[0]);
    if (failureCounts[1] > 0) pod.metadata.annotations[INDEX_IGNORED_FAILURE_COUNT] = String(failureCounts[1]);
  }
  pod.metadata.labels = { ...(pod.metadata.labels ?? {}), [COMPLETION_INDEX]: String(index) };
  pod.spec.hostname ??= `${job.metadata.name}-${index}`;
  const withEnv = (ct: Container): Container =>
    (ct.env ?? []).some((e) => e.name === 'JOB_COMPLETION_INDEX')
      ? ct
      : { ...ct, env: [...(ct.env ?? []), { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: `metadata.annotations['${COMPLETION_INDEX}']` } } }] };
  pod.spec.containers = pod.spec.containers.map(withEnv);
  if (pod.spec.initContainers) pod.spec.initContainers = pod.spec.initContainers.map(withEnv);
  return pod;
}

/** RealPodControl.DeletePod: the deletion and its `Deleted pod: X` event on the job. */
function deleteJobPod(c: Cluster, job: Job, p: Pod): void {
  deletePod(c, p);
  c.recordEvent(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${p.metadata.name}`, 'job-controller');
}

/**
 * ensureJobConditionStatus: update the condition of that type if its status, reason or message
 * changed, or append it unless it would be appended False. Returns whether the list changed.
 */
function ensureCondition(conds: Cond[], type: string, status: string, reason: string, message: string, ts: string): boolean {
  const cur = conds.find((x) => x.type === type);
  if (cur) {
    if (cur.status === status && cur.reason === reason && cur.message === message) return false;
    Object.assign(cur, { type, status, lastProbeTime: ts, lastTransitionTime: ts, reason, message });
    return true;
  }
  if (status === 'False') return false;
  conds.push({ type, status, lastProbeTime: ts, lastTransitionTime: ts, reason, message } as Cond);
  return true;
}

/** What one sync of a job found: its pods by state and the indexes of an Indexed job. */
interface JobState {
  job: Job;
  ns: string;
  active: Pod[];
  terminating: Pod[];
  failedPods: Pod[];
  indexed: boolean;
  completions: number | undefined;
  succeeded: number;
  succeededIndexes: Set<number> | undefined;
  failedIndexes: Set<number> | undefined;
  onlyReplaceFailed: boolean;
}

function sync(c: Cluster, job: Job): void {
  const ns = job.metadata.namespace!;
  if (job.status?.conditions?.some((x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True')) return;
  if (job.metadata.deletionTimestamp) return;
  const spec = job.spec;
  const suspended = spec.suspend === true;
  const now = c.now();
  const ts = c.timestamp();
  const pods = c.store.list<Pod>('Pod', ns).filter((p) => isOwnedBy(p, job));
  const indexed = spec.completionMode === 'Indexed';
  const completions = spec.completions;
  const perIndex = indexed ? spec.backoffLimitPerIndex : undefined;
  const policy = spec.podFailurePolicy;
  // onlyReplaceFailedPods: with a pod failure policy (or podReplacementPolicy Failed) a terminating pod is not yet replaced
  const onlyReplaceFailed = policy !== undefined || spec.podReplacementPolicy === 'Failed';
  const validIndex = (p: Pod): boolean => !indexed || (podIndex(p) ?? Infinity) < (completions ?? 0);
  const succeededPods = pods.filter((p) => p.status?.phase === 'Succeeded' && validIndex(p));
  const failedPods = pods.filter((p) => p.status?.phase === 'Failed' && validIndex(p));
  const countedFailures = failedPods.filter((p) => matchPodFailurePolicy(policy, p).countFailed).length;
  const active = pods.filter(isActive);
  const upd = clone(job);
  const st = (upd.status ??= {});
  const conds = (st.conditions ??= []);
  // Job first start: startTime only once the job is not suspended. A job being resumed starts its
  // activeDeadlineSeconds again (batch/v1 JobSpec: the timer is "stopped and reset when the Job is
  // resumed"), so the deadline below is not measured from before the suspension.
  const resuming = !suspended && conds.some((x) => x.type === 'Suspended' && x.status === 'True');
  if ((!st.startTime || resuming) && !suspended) st.startTime = ts;
  const backoffLimit = spec.backoffLimit ?? (perIndex !== undefined ? MAX_INT32 : 6);

  const isTrue = (type: string): Cond | undefined => conds.find((x) => x.type === type && x.status === 'True');
  let target: Cond | undefined = isTrue('SuccessCriteriaMet') ?? isTrue('FailureTarget');
  const newTarget = (type: 'FailureTarget' | 'SuccessCriteriaMet', reason: string, message: string): Cond => ({ type, status: 'True', lastProbeTime: ts, lastTransitionTime: ts, reason, message }) as Cond;
  if (!target && policy) {
    // getFailJobMessage: the first failed pod matching a FailJob rule
    const message = failedPods.map((p) => matchPodFailurePolicy(policy, p).failJobMessage).find((m) => m !== undefined);
    if (message) target = newTarget('FailureTarget', 'PodFailurePolicy', message);
  }
  if (!target) {
    const deadline = spec.activeDeadlineSeconds !== undefined && st.startTime && !suspended ? Date.parse(st.startTime) + spec.activeDeadlineSeconds * 1000 : undefined;
    if (countedFailures > backoffLimit || pastBackoffLimitOnFailure(job, pods, backoffLimit)) target = newTarget('FailureTarget', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit');
    else if (deadline !== undefined && now >= deadline) target = newTarget('FailureTarget', 'DeadlineExceeded', 'Job was active longer than specified deadline');
    else if (deadline !== undefined) c.wakeAt(deadline);
  }

  let succeededIndexes: Set<number> | undefined;
  let failedIndexes: Set<number> | undefined;
  if (indexed) {
    const n = completions ?? 0;
    succeededIndexes = parseIndexes(st.completedIndexes, n);
    for (const p of succeededPods) succeededIndexes.add(podIndex(p)!);
    if (perIndex !== undefined) {
      // calculateFailedIndexes / isIndexFailed: a FailIndex match, or a counted failure of a pod that
      // already carried backoffLimitPerIndex failures of its index
      failedIndexes = parseIndexes(st.failedIndexes, n);
      for (const p of failedPods) {
        const m = matchPodFailurePolicy(policy, p);
        const count = Number(p.metadata.annotations?.[INDEX_FAILURE_COUNT] ?? 0) || 0;
        if (m.action === 'FailIndex' || (m.countFailed && count >= perIndex)) failedIndexes.add(podIndex(p)!);
      }
      if (!target) {
        if (spec.maxFailedIndexes !== undefined && failedIndexes.size > spec.maxFailedIndexes)
          target = newTarget('FailureTarget', 'MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes');
        else if (failedIndexes.size > 0 && failedIndexes.size + succeededIndexes.size >= n) target = newTarget('FailureTarget', 'FailedIndexes', 'Job has failed indexes');
      }
    }
    if (!target) {
      const message = matchSuccessPolicy(spec.successPolicy, n, succeededIndexes);
      if (message) target = newTarget('SuccessCriteriaMet', 'SuccessPolicy', message);
    }
  }
  const succeeded = indexed ? succeededIndexes!.size : Math.max(st.succeeded ?? 0, succeededPods.length);
  let failed = Math.max(st.failed ?? 0, countedFailures);

  if (target) {
    // the active pods go; when the job fails they count as failed (trackJobStatusAndRemoveFinalizers)
    for (const p of active) deleteJobPod(c, job, p);
    if (target.type === 'FailureTarget' && !isTrue('FailureTarget')) failed += active.filter(validIndex).length;
  } else {
    const s: JobState = { job, ns, active, terminating: pods.filter(isTerminating), failedPods, indexed, completions, succeeded, succeededIndexes, failedIndexes, onlyReplaceFailed };
    if (suspended) for (const p of active) deleteJobPod(c, job, p);
    else manageJob(c, s);
    const activeNow = c.store.list<Pod>('Pod', ns).filter((p) => isOwnedBy(p, job) && isActive(p)).length;
    const complete = completions === undefined ? succeeded > 0 && activeNow === 0 : succeeded >= completions && activeNow === 0;
    if (complete) target = newTarget('SuccessCriteriaMet', 'CompletionsReached', 'Reached expected number of succeeded pods');
    else if (suspended) {
      if (ensureCondition(conds, 'Suspended', 'True', 'JobSuspended', 'Job suspended', ts)) c.recordEvent(job, 'Normal', 'Suspended', 'Job suspended', 'job-controller');
    } else if (ensureCondition(conds, 'Suspended', 'False', 'JobResumed', 'Job resumed', ts)) {
      c.recordEvent(job, 'Normal', 'Resumed', 'Job resumed', 'job-controller');
      // a resumed job starts its activeDeadlineSeconds again
      st.startTime = ts;
      if (spec.activeDeadlineSeconds !== undefined) c.wakeAt(now + spec.activeDeadlineSeconds * 1000);
    }
  }

  const owned = c.store.list<Pod>('Pod', ns).filter((p) => isOwnedBy(p, job));
  const stillActive = owned.filter(isActive);
  const terminatingNow = owned.filter(isTerminating).length;
  if (target && !conds.some((x) => x.type === target.type && x.status === 'True')) conds.push(target);
  if (target && terminatingNow === 0) {
    // enactJobFinished: the terminal condition once no pod is terminating, with recordJobFinished's events
    const type = target.type === 'FailureTarget' ? 'Failed' : 'Complete';
    conds.push({ type, status: 'True', lastProbeTime: ts, lastTransitionTime: ts, reason: target.reason, message: target.message } as Cond);
    if (type === 'Complete') {
      st.completionTime = ts;
      if (completions !== undefined && succeeded > completions) c.recordEvent(job, 'Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached', 'job-controller');
      c.recordEvent(job, 'Normal', 'Completed', 'Job completed', 'job-controller');
    } else c.recordEvent(job, 'Warning', target.reason ?? '', target.message ?? '', 'job-controller');
  }
  if (!conds.length) delete st.conditions;
  if (stillActive.length) st.active = stillActive.length;
  else delete st.active;
  if (succeeded) st.succeeded = succeeded;
  if (failed) st.failed = failed;
  if (indexed) st.completedIndexes = indexIntervals(succeededIndexes!);
  if (failedIndexes) st.failedIndexes = indexIntervals(failedIndexes);
  st.ready = stillActive.filter(podIsReady).length;
  st.terminating = terminatingNow;
  if (JSON.stringify(upd.status) !== JSON.stringify(job.status)) c.write(upd);
}

/**
 * manageJob: new pods up to parallelism (for an Indexed job, one per index neither done, failed nor
 * running), after the pod failure back-off — the job's, or each index's with backoffLimitPerIndex.
 */
function manageJob(c: Cluster, s: JobState): void {
  const { job, ns, active, completions, succeeded } = s;
  const parallelism = job.spec.parallelism ?? 1;
  // a work-queue job starts no new pod once one has succeeded
  const wanted = completions === undefined ? (succeeded > 0 ? 0 : parallelism) : Math.max(0, Math.min(parallelism, completions - succeeded));
  const need = wanted - active.length - (s.onlyReplaceFailed ? s.terminating.length : 0);
  if (need <= 0) return;
  const perIndex = s.failedIndexes !== undefined;
  const now = c.now();
  if (!perIndex) {
    const createAt = nextCreateAt(s.failedPods);
    if (now < createAt) {
      c.wakeAt(createAt);
      return;
    }
  }
  const base = podFromTemplate(job.spec.template, ns, job, { 'batch.kubernetes.io/controller-uid': job.metadata.uid ?? '', 'batch.kubernetes.io/job-name': job.metadata.name, 'controller-uid': job.metadata.uid ?? '', 'job-name': job.metadata.name });
  base.metadata.generateName = `${job.metadata.name}-`;
  let todo: (number | undefined)[] = Array.from({ length: need }, () => undefined);
  const failuresOf = new Map<number, Pod[]>();
  if (s.indexed) {
    // firstPendingIndexes
    const nonPending = new Set([...s.succeededIndexes!, ...(s.failedIndexes ?? []), ...active.map(podIndex), ...(s.onlyReplaceFailed ? s.terminating.map(podIndex) : [])]);
    todo = [];
    for (let i = 0; i < (completions ?? 0) && todo.length < need; i++) if (!nonPending.has(i)) todo.push(i);
    if (perIndex) {
      for (const p of s.failedPods) {
        const i = podIndex(p)!;
        failuresOf.set(i, [...(failuresOf.get(i) ?? []), p]);
      }
      // getPodCreationInfoForIndependentIndexes: the indexes whose back-off is over, else look again at the soonest
      const at = (i: number): number => nextCreateAt(failuresOf.get(i) ?? []);
      const ready = todo.filter((i) => at(i!) <= now);
      if (!ready.length) {
        if (todo.length) c.wakeAt(Math.min(...todo.map((i) => at(i!))));
        return;
      }
      todo = ready;
    }
  }
  for (const index of todo) {
    let pod: Pod;
    if (index === undefined) pod = clone(base);
    else if (perIndex) {
      const fails = failuresOf.get(index) ?? [];
      const counted = fails.filter((p) => matchPodFailurePolicy(job.spec.podFailurePolicy, p).countFailed).length;
      pod = indexedPod(job, index, base, [counted, fails.length - counted]);
    } else pod = indexedPod(job, index, base);
    const created = createPodOrReport(c, pod, job, 'job-controller');
    if (!created) break;
    c.recordEvent(job, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`, 'job-controller');
  }
}
