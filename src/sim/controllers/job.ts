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
 *   DeadlineExceeded (the controller looks again at the deadline);
 * - a finished job gets FailureTarget/SuccessCriteriaMet and then Failed/Complete, with upstream's
 *   reasons, messages and events; status counts active, ready and terminating pods.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Container, Job, Pod } from '../api/types.js';
import { clone } from '../api/store.js';
import { createPodOrReport, isOwnedBy, podFromTemplate, podIsReady } from './util.js';
import { deletePod } from './replicaset.js';

/** job_controller.go DefaultJobPodFailureBackOff and MaxJobPodFailureBackOff. */
const POD_FAILURE_BACKOFF_MS = 10_000;
const MAX_POD_FAILURE_BACKOFF_MS = 600_000;
export const COMPLETION_INDEX = 'batch.kubernetes.io/job-completion-index';

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

/** The index of an Indexed job's pod (its annotation), or undefined. */
export function podIndex(p: Pod): number | undefined {
  const v = p.metadata.annotations?.[COMPLETION_INDEX];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}

/** succeededIndexesToString: `0-2,4,6-7`. */
export function indexIntervals(indexes: readonly number[]): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    out.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return out.join(',');
}

/** When a pod ended (its last container's finish), for the failure back-off. */
function finishedAt(p: Pod): number {
  const times = (p.status?.containerStatuses ?? []).map((s) => Date.parse(s.state.terminated?.finishedAt ?? '')).filter((t) => !Number.isNaN(t));
  return times.length ? Math.max(...times) : Date.parse(p.metadata.creationTimestamp ?? '') || 0;
}

/** getNewFinishedPodsBackoff: 10 s × 2^(failures−1), at most 10 min, after the newest failure. */
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

/** The finished conditions: FailureTarget/SuccessCriteriaMet first, then Failed/Complete (1.31+). */
function finished(type: 'Complete' | 'Failed', reason: string, message: string, ts: string): Cond[] {
  const first = type === 'Failed' ? 'FailureTarget' : 'SuccessCriteriaMet';
  return [
    { type: first, status: 'True', lastTransitionTime: ts, reason, message },
    { type, status: 'True', lastTransitionTime: ts, reason, message },
  ];
}

/** A pod of an Indexed job for `index` (getPodsWithIndex's template plus addCompletionIndexEnvVariables). */
function indexedPod(job: Job, index: number, base: Pod): Pod {
  const pod = clone(base);
  pod.metadata.generateName = `${job.metadata.name}-${index}-`;
  pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [COMPLETION_INDEX]: String(index) };
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

function sync(c: Cluster, job: Job): void {
  const ns = job.metadata.namespace!;
  if (job.status?.conditions?.some((x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True')) return;
  if (job.metadata.deletionTimestamp || job.spec['suspend'] === true) return;
  const now = c.now();
  const ts = c.timestamp();
  const pods = c.store.list<Pod>('Pod', ns).filter((p) => isOwnedBy(p, job));
  const indexed = job.spec['completionMode'] === 'Indexed';
  const completions = job.spec.completions;
  const parallelism = job.spec.parallelism ?? 1;
  const succeededPods = pods.filter((p) => p.status?.phase === 'Succeeded');
  const failedPods = pods.filter((p) => p.status?.phase === 'Failed');
  const active = pods.filter(isActive);
  const doneIndexes = indexed ? [...new Set(succeededPods.map(podIndex).filter((i): i is number => i !== undefined && i < (completions ?? 0)))] : [];
  const succeeded = indexed ? doneIndexes.length : succeededPods.length;
  const upd = clone(job);
  upd.status ??= {};
  upd.status.startTime ??= ts;
  const started = Date.parse(upd.status.startTime);
  const deadline = job.spec.activeDeadlineSeconds !== undefined ? started + job.spec.activeDeadlineSeconds * 1000 : undefined;
  const backoffLimit = job.spec.backoffLimit ?? 6;
  const complete = completions === undefined ? succeeded > 0 && active.length === 0 : succeeded >= completions;
  let failure: [reason: string, message: string] | undefined;
  if (!complete && (failedPods.length > backoffLimit || pastBackoffLimitOnFailure(job, pods, backoffLimit))) failure = ['BackoffLimitExceeded', 'Job has reached the specified backoff limit'];
  else if (!complete && deadline !== undefined && now >= deadline) failure = ['DeadlineExceeded', 'Job was active longer than specified deadline'];

  if (complete) {
    upd.status.completionTime = ts;
    upd.status.conditions = finished('Complete', 'CompletionsReached', 'Reached expected number of succeeded pods', ts);
    c.recordEvent(job, 'Normal', 'Completed', 'Job completed', 'job-controller');
  } else if (failure) {
    // the active pods go; the job is Failed at once
    for (const p of active) deletePod(c, p);
    upd.status.conditions = finished('Failed', failure[0], failure[1], ts);
    c.recordEvent(job, 'Warning', failure[0], failure[1], 'job-controller');
  } else {
    if (deadline !== undefined) c.wakeAt(deadline);
    const createAt = nextCreateAt(failedPods);
    if (now < createAt) c.wakeAt(createAt);
    else createPods(c, job, ns, active, completions, parallelism, succeeded, indexed ? new Set(doneIndexes) : undefined);
  }
  const stillActive = c.store.list<Pod>('Pod', ns).filter((p) => isOwnedBy(p, job) && isActive(p));
  if (stillActive.length) upd.status.active = stillActive.length;
  else delete upd.status.active;
  if (succeeded) upd.status.succeeded = succeeded;
  if (failedPods.length) upd.status.failed = failedPods.length;
  if (indexed) upd.status.completedIndexes = indexIntervals(doneIndexes);
  upd.status.ready = stillActive.filter(podIsReady).length;
  upd.status.terminating = c.store.list<Pod>('Pod', ns).filter((p) => isOwnedBy(p, job) && p.metadata.deletionTimestamp && !terminal(p)).length;
  if (JSON.stringify(upd.status) !== JSON.stringify(job.status)) c.write(upd);
}

/** manageJob: new pods up to parallelism (for an Indexed job, one per index not done nor running). */
function createPods(c: Cluster, job: Job, ns: string, active: readonly Pod[], completions: number | undefined, parallelism: number, succeeded: number, doneIndexes: Set<number> | undefined): void {
  // a work-queue job starts no new pod once one has succeeded
  const wanted = completions === undefined ? (succeeded > 0 ? 0 : parallelism) : Math.min(parallelism, completions - succeeded);
  const need = wanted - active.length;
  if (need <= 0) return;
  const base = podFromTemplate(job.spec.template, ns, job, { 'batch.kubernetes.io/controller-uid': job.metadata.uid ?? '', 'batch.kubernetes.io/job-name': job.metadata.name, 'controller-uid': job.metadata.uid ?? '', 'job-name': job.metadata.name });
  base.metadata.generateName = `${job.metadata.name}-`;
  let todo: (number | undefined)[] = Array.from({ length: need }, () => undefined);
  if (doneIndexes) {
    const running = new Set(active.map(podIndex));
    todo = [];
    for (let i = 0; i < (completions ?? 0) && todo.length < need; i++) if (!doneIndexes.has(i) && !running.has(i)) todo.push(i);
  }
  for (const index of todo) {
    const pod = index === undefined ? clone(base) : indexedPod(job, index, base);
    const created = createPodOrReport(c, pod, job, 'job-controller');
    if (!created) break;
    c.recordEvent(job, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`, 'job-controller');
  }
}
