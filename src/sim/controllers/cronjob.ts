/**
 * CronJob controller (pkg/controller/cronjob/cronjob_controllerv2.go), the basics: at each
 * scheduled minute (5-field cron in UTC or spec.timeZone=UTC) it creates Job `<cj>-<minutes since
 * epoch>` from the jobTemplate unless suspended, and keeps the history limits.
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

function sync(c: Cluster, cj: CronJob): void {
  const ns = cj.metadata.namespace!;
  const now = c.now();
  const minute = Math.floor(now / 60_000);
  c.wakeAt((minute + 1) * 60_000);
  if (cj.spec.suspend) return;
  const created = Date.parse(cj.metadata.creationTimestamp ?? '');
  const last = cj.status?.lastScheduleTime ? Math.floor(Date.parse(cj.status.lastScheduleTime) / 60_000) : Math.floor(created / 60_000);
  if (minute <= last || !cronMatches(cj.spec.schedule, minute * 60_000)) return;
  const name = `${cj.metadata.name}-${minute}`;
  if (!c.store.get('Job', ns, name)) {
    const job: Job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name, namespace: ns, ownerReferences: [ownerRef(cj)], labels: { ...(cj.spec.jobTemplate.metadata?.labels ?? {}) }, annotations: { 'batch.kubernetes.io/cronjob-scheduled-timestamp': new Date(minute * 60_000).toISOString().replace('.000Z', 'Z') } },
      spec: clone(cj.spec.jobTemplate.spec),
    };
    // created through the API server: a uid, then the generated selector and labels
    job.metadata.uid = c.store.nextUid(c.random.nextU32());
    generateJobSelector(job);
    c.insert(job);
    c.recordEvent(cj, 'Normal', 'SuccessfulCreate', `Created job ${name}`, 'cronjob-controller');
  }
  const upd = clone(cj);
  upd.status = { ...(upd.status ?? {}), lastScheduleTime: new Date(minute * 60_000).toISOString().replace('.000Z', 'Z') };
  c.write(upd);
  const jobs = c.store.list<Job>('Job', ns).filter((j) => isOwnedBy(j, cj));
  const done = jobs.filter((j) => j.status?.conditions?.some((x) => x.type === 'Complete' && x.status === 'True'));
  for (const j of done.slice(0, Math.max(0, done.length - (cj.spec.successfulJobsHistoryLimit ?? 3)))) c.deleteObject('Job', ns, j.metadata.name);
}
