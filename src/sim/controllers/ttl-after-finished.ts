/**
 * The TTL-after-finished controller (pkg/controller/ttlafterfinished/ttlafterfinished_controller.go):
 * a Job with spec.ttlSecondsAfterFinished is deleted that many seconds after it finished (the
 * lastTransitionTime of its Complete or Failed condition, jobFinishTime), with propagationPolicy
 * Foreground so its pods go before it. It looks again when the time comes.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Job } from '../api/types.js';
import { FOREGROUND_FINALIZER } from '../api/deletion.js';
import { deleteForeground } from './garbage-collector.js';

/** When a finished job finished, or undefined while it runs. */
export function jobFinishTime(job: Job): number | undefined {
  const done = job.status?.conditions?.find((x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True');
  const t = Date.parse(done?.lastTransitionTime ?? '');
  return done && !Number.isNaN(t) ? t : undefined;
}

export const ttlAfterFinishedController: Controller = {
  name: 'ttl-after-finished',
  runsIn: 'controllerManager',
  watches: ['Job', 'time'],
  reconcile(c: Cluster): void {
    for (const job of [...c.store.list<Job>('Job')]) {
      const ttl = job.spec.ttlSecondsAfterFinished;
      const finished = jobFinishTime(job);
      if (ttl === undefined || finished === undefined || job.metadata.deletionTimestamp) continue;
      const at = finished + ttl * 1000;
      if (c.now() < at) {
        c.wakeAt(at);
        continue;
      }
      const ns = job.metadata.namespace;
      if (!c.deleteObject('Job', ns, job.metadata.name, [FOREGROUND_FINALIZER])) {
        const marked = c.store.get<Job>('Job', ns, job.metadata.name);
        if (marked) deleteForeground(c, marked);
      }
    }
  },
};
