/**
 * Job and CronJob: describe.go describeJob and describeCronJob (with describeJobTemplate and
 * printActiveJobs), kubectl v1.35. The Job's pod counts are its status fields; the job controller
 * always reports `ready`, so the `N Active (N Ready)` form is the one a v1.35 cluster shows.
 */
import type { CronJob, Job } from '../../../sim/api/types.js';
import { selectorString } from '../columns/cells.js';
import { humanDuration, rfc1123z } from '../duration.js';
import { describePodTemplate } from './containers.js';
import { maybeEvents } from './events.js';
import { LEVEL_0, controllerOf, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext, type PrefixWriter } from './writer.js';

/** describe.go printBoolPtr. */
function boolPtr(v: boolean | undefined): string {
  return v === undefined ? '<unset>' : v ? 'True' : 'False';
}

/** describe.go capIndexesListOrNone: the completed indexes cut after the first comma past 50 chars. */
function capIndexes(indexes: string | undefined, softLimit = 50): string {
  if (!indexes) return '<none>';
  const comma = indexes.indexOf(',', softLimit);
  return comma < 0 ? indexes : `${indexes.slice(0, comma + 1)}...`;
}

export function describeJob(job: Job, ctx: DescribeContext): string {
  return tabbedString((w) => {
    const spec = job.spec;
    const st = job.status ?? {};
    w.write(LEVEL_0, `Name:\t${job.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${job.metadata.namespace ?? ''}\n`);
    w.write(LEVEL_0, `Selector:\t${selectorString(spec.selector)}\n`);
    printLabelsMultiline(w, 'Labels', job.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', job.metadata.annotations);
    const controlledBy = controllerOf(job);
    if (controlledBy) w.write(LEVEL_0, `Controlled By:\t${controlledBy}\n`);
    if (spec.parallelism !== undefined) w.write(LEVEL_0, `Parallelism:\t${spec.parallelism}\n`);
    w.write(LEVEL_0, `Completions:\t${spec.completions ?? '<unset>'}\n`);
    const mode = spec['completionMode'] as string | undefined;
    if (mode !== undefined) w.write(LEVEL_0, `Completion Mode:\t${mode}\n`);
    if (spec['suspend'] !== undefined) w.write(LEVEL_0, `Suspend:\t${String(spec['suspend'])}\n`);
    if (spec.backoffLimit !== undefined) w.write(LEVEL_0, `Backoff Limit:\t${spec.backoffLimit}\n`);
    if (spec.ttlSecondsAfterFinished !== undefined) w.write(LEVEL_0, `TTL Seconds After Finished:\t${spec.ttlSecondsAfterFinished}\n`);
    if (st.startTime) w.write(LEVEL_0, `Start Time:\t${rfc1123z(st.startTime)}\n`);
    if (st.completionTime) w.write(LEVEL_0, `Completed At:\t${rfc1123z(st.completionTime)}\n`);
    if (st.startTime && st.completionTime) w.write(LEVEL_0, `Duration:\t${humanDuration(Date.parse(st.completionTime) - Date.parse(st.startTime))}\n`);
    if (spec.activeDeadlineSeconds !== undefined) w.write(LEVEL_0, `Active Deadline Seconds:\t${spec.activeDeadlineSeconds}s\n`);
    w.write(LEVEL_0, `Pods Statuses:\t${st.active ?? 0} Active (${st.ready ?? 0} Ready) / ${st.succeeded ?? 0} Succeeded / ${st.failed ?? 0} Failed\n`);
    if (mode === 'Indexed') w.write(LEVEL_0, `Completed Indexes:\t${capIndexes((st as { completedIndexes?: string }).completedIndexes)}\n`);
    describePodTemplate(spec.template, w);
    maybeEvents(ctx.events, w, ctx.now);
  });
}

function describeJobTemplate(t: CronJob['spec']['jobTemplate'], w: PrefixWriter): void {
  w.write(LEVEL_0, `Selector:\t${t.spec.selector ? selectorString(t.spec.selector) : '<unset>'}\n`);
  w.write(LEVEL_0, `Parallelism:\t${t.spec.parallelism ?? '<unset>'}\n`);
  w.write(LEVEL_0, `Completions:\t${t.spec.completions ?? '<unset>'}\n`);
  if (t.spec.activeDeadlineSeconds !== undefined) w.write(LEVEL_0, `Active Deadline Seconds:\t${t.spec.activeDeadlineSeconds}s\n`);
  describePodTemplate(t.spec.template, w);
}

export function describeCronJob(cj: CronJob, ctx: DescribeContext): string {
  return tabbedString((w) => {
    const spec = cj.spec as CronJob['spec'] & { startingDeadlineSeconds?: number };
    w.write(LEVEL_0, `Name:\t${cj.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${cj.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', cj.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', cj.metadata.annotations);
    w.write(LEVEL_0, `Schedule:\t${spec.schedule}\n`);
    w.write(LEVEL_0, `Concurrency Policy:\t${spec.concurrencyPolicy ?? ''}\n`);
    w.write(LEVEL_0, `Suspend:\t${boolPtr(spec.suspend)}\n`);
    w.write(LEVEL_0, `Successful Job History Limit:\t${spec.successfulJobsHistoryLimit ?? '<unset>'}\n`);
    w.write(LEVEL_0, `Failed Job History Limit:\t${spec.failedJobsHistoryLimit ?? '<unset>'}\n`);
    w.write(LEVEL_0, `Starting Deadline Seconds:\t${spec.startingDeadlineSeconds !== undefined ? `${spec.startingDeadlineSeconds}s` : '<unset>'}\n`);
    describeJobTemplate(spec.jobTemplate, w);
    w.write(LEVEL_0, `Last Schedule Time:\t${cj.status?.lastScheduleTime ? rfc1123z(cj.status.lastScheduleTime) : '<unset>'}\n`);
    const active = cj.status?.active ?? [];
    w.write(LEVEL_0, `Active Jobs:\t${active.length ? active.map((j) => j.name).join(', ') : '<none>'}\n`);
    maybeEvents(ctx.events, w, ctx.now);
  });
}
