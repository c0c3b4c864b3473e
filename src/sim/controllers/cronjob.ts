/**
 * CronJob controller (pkg/controller/cronjob/cronjob_controllerv2.go): at each scheduled minute
 * (5-field cron in UTC or spec.timeZone=UTC) it creates Job `<cj>-<minutes since epoch>` from the
 * jobTemplate unless suspended, as concurrencyPolicy allows, tracks the active jobs and keeps the
 * history limits (sync below).
 */
import type { Cluster, Controller } from '../cluster.js';
import type { CronJob, Job } from '../api/types.js';
import { clone } from '../api/store.js';
import { generateJobSelector } from '../api/job-selector.js';
import { isOwnedBy, ownerRef } from './util.js';

export const cronJobController: Controller = {
  name: 'cronjob',
  runsIn: 'controllerManager',
  watches: ['CronJob', 'Job', 'time'],
  reconcile(c: Cluster): void {
    for (const cj of c.store.list<CronJob>('CronJob')) sync(c, cj);
  },
};

function field(expr: string, value: number, min: number, max: number): boolean {
  return expr.split(',').some((part) => {
    const [range, stepS] = part.split('/');
    const step = stepS ? Number(stepS) : 1;
    let lo = min;
    let hi = max;
    if (range !== '*' && range !== undefined) {
      const [a, b] = range.split('-');
      lo = Number(a);
      hi = b !== undefined ? Number(b) : stepS ? max : lo;
    }
    return value >= lo && value <= hi && (value - lo) % step === 0;
  });
}

const MACROS: Record<string, string> = { '@hourly': '0 * * * *', '@daily': '0 0 * * *', '@midnight': '0 0 * * *', '@weekly': '0 0 * * 0', '@monthly': '0 0 1 * *', '@yearly': '0 0 1 1 *', '@annually': '0 0 1 1 *' };

export function cronMatches(schedule: string, ms: number): boolean {
  const f = (MACROS[schedule.trim()] ?? schedule).trim().split(/\s+/);
  if (f.length !== 5) return false;
  const d = new Date(ms);
  return (
    field(f[0]!, d.getUTCMinutes(), 0, 59) &&
    field(f[1]!, d.getUTCHours(), 0, 23) &&
    field(f[2]!, d.getUTCDate(), 1, 31) &&
    field(f[3]!, d.getUTCMonth() + 1, 1, 12) &&
    field(f[4]!, d.getUTCDay(), 0, 6)
  );
}

/**
 * mostRecentScheduleTime: the latest scheduled minute after `last` and at or before `minute` (a run
 * missed while the controller-manager was down, or skipped by Forbid, is started late), or
 * undefined. Walks forward as cron's Next does, skipping whole days and hours that cannot match.
 */
export function mostRecentSchedule(schedule: string, last: number, minute: number): number | undefined {
  const f = (MACROS[schedule.trim()] ?? schedule).trim().split(/\s+/);
  if (f.length !== 5) return undefined;
  let found: number | undefined;
  for (let m = last + 1, guard = 0; m <= minute && guard < 2_000_000; guard++) {
    const d = new Date(m * 60_000);
    if (!(field(f[2]!, d.getUTCDate(), 1, 31) && field(f[3]!, d.getUTCMonth() + 1, 1, 12) && field(f[4]!, d.getUTCDay(), 0, 6))) {
      m = (Math.floor(m / 1440) + 1) * 1440;
      continue;
    }
    if (!field(f[1]!, d.getUTCHours(), 0, 23)) {
      m = (Math.floor(m / 60) + 1) * 60;
      continue;
    }
    if (field(f[0]!, d.getUTCMinutes(), 0, 59)) found = m;
    m++;
  }
  return found;
}

const rfc3339Minute = (minute: number): string => new Date(minute * 60_000).toISOString().replace('.000Z', 'Z');

function finishedType(j: Job): 'Complete' | 'Failed' | undefined {
  return j.status?.conditions?.find((x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True')?.type as 'Complete' | 'Failed' | undefined;
}

/** deleteJob: background propagation, and the `Deleted job X` event. */
function deleteJob(c: Cluster, cj: CronJob, j: Job): void {
  c.deleteObject('Job', j.metadata.namespace, j.metadata.name);
  c.recordEvent(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${j.metadata.name}`, 'cronjob-controller');
}

/** removeOldestJobs: the finished jobs of one kind beyond the limit, oldest (by start) first. */
function pruneHistory(c: Cluster, cj: CronJob, jobs: readonly Job[], limit: number): void {
  const byStart = [...jobs].sort((a, b) => (a.status?.startTime ?? a.metadata.creationTimestamp ?? '').localeCompare(b.status?.startTime ?? b.metadata.creationTimestamp ?? ''));
  for (const j of byStart.slice(0, Math.max(0, byStart.length - limit))) deleteJob(c, cj, j);
}

/**
 * syncCronJob (cronjob_controllerv2.go): keep status.active to the unfinished jobs it made (a
 * finished one is reported with SawCompletedJob and sets lastSuccessfulTime), prune the finished
 * jobs beyond the history limits, then start the most recent unmet schedule: Forbid skips it while
 * a job is active (JobAlreadyActive, tried again later), Replace deletes the active jobs first.
 */
function sync(c: Cluster, cj: CronJob): void {
  const ns = cj.metadata.namespace!;
  const now = c.now();
  const minute = Math.floor(now / 60_000);
  c.wakeAt((minute + 1) * 60_000);
  const upd = clone(cj);
  const status = (upd.status ??= {});
  const jobs = c.store.list<Job>('Job', ns).filter((j) => isOwnedBy(j, cj));
  let active = (status.active ?? []).filter((ref) => jobs.some((j) => j.metadata.uid === ref.uid || (!ref.uid && j.metadata.name === ref.name)));
  for (const j of jobs) {
    const type = finishedType(j);
    if (!type) continue;
    if (active.some((ref) => ref.name === j.metadata.name)) {
      active = active.filter((ref) => ref.name !== j.metadata.name);
      c.recordEvent(cj, 'Normal', 'SawCompletedJob', `Saw completed job: ${j.metadata.name}, condition: ${type}`, 'cronjob-controller');
    }
    const endedAt = j.status?.completionTime;
    if (type === 'Complete' && endedAt && (!status.lastSuccessfulTime || endedAt > status.lastSuccessfulTime)) status.lastSuccessfulTime = endedAt;
  }
  pruneHistory(c, cj, jobs.filter((j) => finishedType(j) === 'Complete'), cj.spec.successfulJobsHistoryLimit ?? 3);
  pruneHistory(c, cj, jobs.filter((j) => finishedType(j) === 'Failed'), cj.spec.failedJobsHistoryLimit ?? 1);
  const created = Date.parse(cj.metadata.creationTimestamp ?? '');
  const last = status.lastScheduleTime ? Math.floor(Date.parse(status.lastScheduleTime) / 60_000) : Math.floor(created / 60_000);
  const due = cj.spec.suspend ? undefined : mostRecentSchedule(cj.spec.schedule, last, minute);
  if (due !== undefined) {
    const policy = cj.spec.concurrencyPolicy ?? 'Allow';
    if (policy === 'Forbid' && active.length > 0) {
      c.recordEvent(cj, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid', 'cronjob-controller');
    } else {
      if (policy === 'Replace') {
        for (const ref of active) {
          const j = jobs.find((x) => x.metadata.name === ref.name);
          if (j) deleteJob(c, cj, j);
        }
        active = [];
      }
      const job = startJob(c, cj, ns, due);
      if (job) active = [...active, { apiVersion: 'batch/v1', kind: 'Job', name: job.metadata.name, namespace: ns, resourceVersion: job.metadata.resourceVersion ?? '', uid: job.metadata.uid ?? '' }];
      status.lastScheduleTime = rfc3339Minute(due);
    }
  }
  if (active.length) status.active = active;
  else delete status.active;
  if (JSON.stringify(upd.status) !== JSON.stringify(cj.status ?? {})) c.write(upd);
}

/** getJobFromTemplate2: Job `<cronjob>-<minutes>` from the template, through the API server's selector generation. */
function startJob(c: Cluster, cj: CronJob, ns: string, minute: number): Job | undefined {
  const name = `${cj.metadata.name}-${minute}`;
  if (c.store.get('Job', ns, name)) return undefined;
  const job: Job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: ns, ownerReferences: [ownerRef(cj)], labels: { ...(cj.spec.jobTemplate.metadata?.labels ?? {}) }, annotations: { 'batch.kubernetes.io/cronjob-scheduled-timestamp': rfc3339Minute(minute) } },
    spec: clone(cj.spec.jobTemplate.spec),
  };
  // created through the API server: a uid, then the generated selector and labels
  job.metadata.uid = c.store.nextUid(c.random.nextU32());
  generateJobSelector(job);
  const stored = c.insert(job);
  c.recordEvent(cj, 'Normal', 'SuccessfulCreate', `Created job ${name}`, 'cronjob-controller');
  return stored;
}
