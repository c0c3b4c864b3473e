/**
 * Job controller (pkg/controller/job/job_controller.go), the basics: runs pods `<job>-<5>` up to
 * parallelism until `completions` succeed, counts failures against backoffLimit, and sets the
 * Complete / Failed conditions with upstream's reasons and messages.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Job, Pod } from '../api/types.js';
import { clone } from '../api/store.js';
import { createPodOrReport, isOwnedBy, podFromTemplate } from './util.js';

export const jobController: Controller = {
  name: 'job',
  runsIn: 'controllerManager',
  // admission objects too: a refused pod is retried when a quota, limit range or namespace label changes
  watches: ['Job', 'Pod', 'ResourceQuota', 'LimitRange', 'Namespace'],
  reconcile(c: Cluster): void {
    for (const job of c.store.list<Job>('Job')) sync(c, job);
  },
};

function sync(c: Cluster, job: Job): void {
  const ns = job.metadata.namespace!;
  if (job.status?.conditions?.some((x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True')) return;
  const pods = c.store.list<Pod>('Pod', ns).filter((p) => isOwnedBy(p, job));
  const succeeded = pods.filter((p) => p.status?.phase === 'Succeeded').length;
  const failed = pods.filter((p) => p.status?.phase === 'Failed').length;
  const active = pods.filter((p) => !p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
  const completions = job.spec.completions ?? 1;
  const parallelism = job.spec.parallelism ?? 1;
  const ts = c.timestamp();
  const upd = clone(job);
  upd.status ??= {};
  upd.status.startTime ??= ts;
  if (succeeded >= completions) {
    upd.status.completionTime = ts;
    upd.status.conditions = [
      { type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: ts, reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
      { type: 'Complete', status: 'True', lastTransitionTime: ts, reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
    ];
    c.recordEvent(job, 'Normal', 'Completed', 'Job completed', 'job-controller');
  } else if (failed > (job.spec.backoffLimit ?? 6)) {
    upd.status.conditions = [
      { type: 'FailureTarget', status: 'True', lastTransitionTime: ts, reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' },
      { type: 'Failed', status: 'True', lastTransitionTime: ts, reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' },
    ];
    c.recordEvent(job, 'Warning', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit', 'job-controller');
  } else {
    const need = Math.min(parallelism, completions - succeeded) - active.length;
    for (let i = 0; i < need; i++) {
      const pod = podFromTemplate(job.spec.template, ns, job, { 'batch.kubernetes.io/controller-uid': job.metadata.uid ?? '', 'batch.kubernetes.io/job-name': job.metadata.name, 'controller-uid': job.metadata.uid ?? '', 'job-name': job.metadata.name });
      pod.metadata.generateName = `${job.metadata.name}-`;
      const created = createPodOrReport(c, pod, job, 'job-controller');
      if (!created) break;
      c.recordEvent(job, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`, 'job-controller');
    }
  }
  const nowActive = c.store.list<Pod>('Pod', ns).filter((p) => isOwnedBy(p, job) && !p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed').length;
  if (nowActive) upd.status.active = nowActive;
  else delete upd.status.active;
  if (succeeded) upd.status.succeeded = succeeded;
  if (failed) upd.status.failed = failed;
  upd.status.ready = 0;
  upd.status.terminating = 0;
  if (JSON.stringify(upd.status) !== JSON.stringify(job.status)) c.write(upd);
}
