/** Jobs: printers.go jobColumnDefinitions (:173-183), printJob (:1211); reference §4.9. */
import type { Job } from '../../../sim/api/types.js';
import { parseTime } from '../../../util/clock.js';
import { humanDuration, translateTimestampSince } from '../duration.js';
import { AGE, NAME, containerCells, formatLabelSelector } from './cells.js';
import type { KindPrinter } from './types.js';

function hasCondition(job: Job, type: string): boolean {
  return (job.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

export function jobStatus(job: Job): string {
  if (hasCondition(job, 'Complete')) return 'Complete';
  if (hasCondition(job, 'Failed')) return 'Failed';
  if (job.metadata.deletionTimestamp) return 'Terminating';
  if (hasCondition(job, 'Suspended')) return 'Suspended';
  if (hasCondition(job, 'FailureTarget')) return 'FailureTarget';
  if (hasCondition(job, 'SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

export function jobCompletions(job: Job): string {
  const succeeded = job.status?.succeeded ?? 0;
  if (job.spec.completions !== undefined) return `${succeeded}/${job.spec.completions}`;
  const parallelism = job.spec.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

export function jobDuration(job: Job, now: number): string {
  const start = parseTime(job.status?.startTime);
  if (Number.isNaN(start)) return '';
  const end = parseTime(job.status?.completionTime);
  return humanDuration((Number.isNaN(end) ? now : end) - start);
}

export const jobs: KindPrinter = {
  columns: [
    NAME,
    { name: 'Status' },
    { name: 'Completions' },
    { name: 'Duration' },
    AGE,
    { name: 'Containers', wide: true },
    { name: 'Images', wide: true },
    { name: 'Selector', wide: true },
  ],
  row(obj, now) {
    const job = obj as Job;
    const [names, images] = containerCells(job.spec.template.spec.containers);
    return [
      job.metadata.name,
      jobStatus(job),
      jobCompletions(job),
      jobDuration(job, now),
      translateTimestampSince(job.metadata.creationTimestamp, now),
      names,
      images,
      formatLabelSelector(job.spec.selector),
    ];
  },
};
