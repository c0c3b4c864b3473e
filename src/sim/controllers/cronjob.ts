/**
 * CronJob controller (pkg/controller/cronjob/cronjob_controllerv2.go, utils.go): at each scheduled
 * minute (5-field cron on the wall clock of spec.timeZone, UTC when unset) it creates Job
 * `<cj>-<minutes since epoch>` from the jobTemplate unless suspended, as concurrencyPolicy allows,
 * tracks the active jobs and keeps the history limits (sync below). startingDeadlineSeconds bounds
 * how far back a missed schedule is still started; more than 100 missed schedules are reported with
 * the TooManyMissedTimes warning (the most recent one still starts).
 */
import type { Cluster, Controller } from '../cluster.js';
import type { CronJob, Job } from '../api/types.js';
import { clone } from '../api/store.js';
import { generateJobSelector } from '../api/job-selector.js';
import { knownTimeZone } from '../api/validation-batch.js';
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

/** A minute's wall clock in the CronJob's zone: minute, hour, day of month, month, day of week. */
interface Wall {
  min: number;
  hour: number;
  dom: number;
  month: number;
  dow: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const DAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** The wall clock at `minute` (since the epoch) in `tz` (UTC when unset): what the schedule is evaluated in. */
function wallClock(minute: number, tz: string | undefined): Wall {
  const d = new Date(minute * 60_000);
  if (!tz || tz === 'UTC') return { min: d.getUTCMinutes(), hour: d.getUTCHours(), dom: d.getUTCDate(), month: d.getUTCMonth() + 1, dow: d.getUTCDay() };
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', weekday: 'short' });
    formatters.set(tz, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(d)) parts[p.type] = p.value;
  return { min: Number(parts['minute']), hour: Number(parts['hour']), dom: Number(parts['day']), month: Number(parts['month']), dow: DAYS[parts['weekday'] ?? ''] ?? 0 };
}

/** The zone's offset from UTC at `ms`, in minutes (−300 for New York in winter). */
function zoneOffsetMinutes(ms: number, tz: string | undefined): number {
  const minute = Math.floor(ms / 60_000);
  const w = wallClock(minute, tz);
  const year = new Date(ms).getUTCFullYear();
  // the wall clock read as UTC, against the instant (the year from either side of a new year)
  const candidates = [year - 1, year, year + 1].map((y) => (Date.UTC(y, w.month - 1, w.dom, w.hour, w.min) / 60_000 - minute));
  return candidates.reduce((a, b) => (Math.abs(b) < Math.abs(a) ? b : a));
}

function fieldsOf(schedule: string): string[] | undefined {
  const f = (MACROS[schedule.trim()] ?? schedule).trim().split(/\s+/);
  return f.length === 5 ? f : undefined;
}

export function cronMatches(schedule: string, ms: number, tz?: string): boolean {
  const f = fieldsOf(schedule);
  if (!f) return false;
  const w = wallClock(Math.floor(ms / 60_000), tz);
  return field(f[0]!, w.min, 0, 59) && field(f[1]!, w.hour, 0, 23) && field(f[2]!, w.dom, 1, 31) && field(f[3]!, w.month, 1, 12) && field(f[4]!, w.dow, 0, 6);
}

/**
 * The scheduled minutes after `last` and at or before `minute`, in order, as cron's Next finds them
 * (the wall clock in `tz`): whole days and hours that cannot match are skipped — in a zone by the
 * hour, since its days need not be 1440 minutes long.
 */
function* scheduledMinutes(schedule: string, last: number, minute: number, tz?: string): Generator<number> {
  const f = fieldsOf(schedule);
  if (!f) return;
  const zoned = !!tz && tz !== 'UTC';
  for (let m = last + 1, guard = 0; m <= minute && guard < 2_000_000; guard++) {
    const w = wallClock(m, tz);
    if (!(field(f[2]!, w.dom, 1, 31) && field(f[3]!, w.month, 1, 12) && field(f[4]!, w.dow, 0, 6))) {
      m = zoned ? m + 60 - w.min : (Math.floor(m / 1440) + 1) * 1440;
      continue;
    }
    if (!field(f[1]!, w.hour, 0, 23)) {
      m += 60 - w.min;
      continue;
    }
    if (field(f[0]!, w.min, 0, 59)) yield m;
    m++;
  }
}

/**
 * mostRecentScheduleTime: the latest scheduled minute after `last` and at or before `minute` (a run
 * missed while the controller-manager was down, or skipped by Forbid, is started late), or
 * undefined.
 */
export function mostRecentSchedule(schedule: string, last: number, minute: number, tz?: string): number | undefined {
  let found: number | undefined;
  for (const m of scheduledMinutes(schedule, last, minute, tz)) found = m;
  return found;
}

/** Two years of minutes: how far ahead the next two schedules are looked for. */
const LOOKAHEAD_MINUTES = 2 * 366 * 1440;

/**
 * utils.go mostRecentScheduleTime's count of missed schedules: from the first two schedules after
 * `last` (t1, t2), how many t2−t1 intervals fit between t1 and now, plus one — a rough count, as
 * upstream's is. Over 100 is "many missed" (the TooManyMissedTimes warning).
 */
export function missedSchedules(schedule: string, last: number, nowMs: number, tz?: string): number {
  const minute = Math.floor(nowMs / 60_000);
  const [t1, t2] = scheduledMinutes(schedule, last, last + LOOKAHEAD_MINUTES, tz);
  if (t1 === undefined || t1 > minute) return 0;
  if (t2 === undefined || t2 > minute) return 0;
  return Math.floor((nowMs / 1000 - t1 * 60) / ((t2 - t1) * 60)) + 1;
}

const rfc3339Minute = (minute: number): string => new Date(minute * 60_000).toISOString().replace('.000Z', 'Z');

/** scheduledTime.In(zone).Format(time.RFC3339): `2026-12-02T05:00:00-05:00`, or `…Z` in UTC. */
export function rfc3339InZone(minute: number, tz: string | undefined): string {
  const offset = zoneOffsetMinutes(minute * 60_000, tz);
  if (offset === 0) return rfc3339Minute(minute);
  const local = new Date((minute + offset) * 60_000).toISOString().slice(0, 19);
  const a = Math.abs(offset);
  return `${local}${offset < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

/** time.RFC1123Z of a UTC instant: `Wed, 02 Dec 2026 10:00:00 +0000`. */
function rfc1123zUTC(ms: number): string {
  const d = new Date(ms);
  const p = (n: number): string => String(n).padStart(2, '0');
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()];
  const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()];
  return `${day}, ${p(d.getUTCDate())} ${mon} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

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
  // the schedule's wall clock: spec.timeZone (a zone the tz database lacks starts nothing)
  const tz = cj.spec.timeZone;
  const zoneOk = tz === undefined || knownTimeZone(tz);
  // earliestTime: the last schedule (or the creation), and never before now − startingDeadlineSeconds
  let earliest = status.lastScheduleTime ? Date.parse(status.lastScheduleTime) : created;
  const deadline = cj.spec.startingDeadlineSeconds;
  if (deadline !== undefined) earliest = Math.max(earliest, now - deadline * 1000);
  const last = Math.floor(earliest / 60_000);
  let due = cj.spec.suspend || !zoneOk ? undefined : mostRecentSchedule(cj.spec.schedule, last, minute, tz);
  if (due !== undefined && missedSchedules(cj.spec.schedule, last, now, tz) > 100)
    c.recordEvent(cj, 'Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew', 'cronjob-controller');
  if (due !== undefined && deadline !== undefined && due * 60_000 + deadline * 1000 < now) {
    c.recordEvent(cj, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123zUTC(due * 60_000)}`, 'cronjob-controller');
    due = undefined;
  }
  // the scheduled time already processed
  if (due !== undefined && status.lastScheduleTime && due * 60_000 === Date.parse(status.lastScheduleTime)) due = undefined;
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
    metadata: { name, namespace: ns, ownerReferences: [ownerRef(cj)], labels: { ...(cj.spec.jobTemplate.metadata?.labels ?? {}) }, annotations: { ...(cj.spec.jobTemplate.metadata?.annotations ?? {}), 'batch.kubernetes.io/cronjob-scheduled-timestamp': rfc3339InZone(minute, cj.spec.timeZone) } },
    spec: clone(cj.spec.jobTemplate.spec),
  };
  // created through the API server: a uid, then the generated selector and labels
  job.metadata.uid = c.store.nextUid(c.random.nextU32());
  generateJobSelector(job);
  const stored = c.insert(job);
  c.recordEvent(cj, 'Normal', 'SuccessfulCreate', `Created job ${name}`, 'cronjob-controller');
  return stored;
}
