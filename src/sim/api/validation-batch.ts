/**
 * Job and CronJob validation with the API server's wording (k8s.io/kubernetes
 * pkg/apis/batch/validation/validation.go: validateJobSpec, ValidateJobTemplateSpec,
 * validateCronJobSpec, validateConcurrencyPolicy, validateScheduleFormat).
 */
import { cronScheduleError } from './cron.js';
import { type FieldError, field } from './errors.js';
import type { CronJob, Job } from './types.js';
import { immutableSelector, nonNegative, validatePodSpecFields } from './validation.js';

type JobSpec = Partial<Job['spec']> & { completionMode?: string };

/** validateJobSpec: counts non-negative, a supported completion mode, a pod template that never restarts Always. */
export function validateJobSpec(spec: JobSpec | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...nonNegative(`${path}.parallelism`, spec?.parallelism));
  errs.push(...nonNegative(`${path}.completions`, spec?.completions));
  errs.push(...nonNegative(`${path}.activeDeadlineSeconds`, spec?.activeDeadlineSeconds));
  errs.push(...nonNegative(`${path}.backoffLimit`, spec?.backoffLimit));
  errs.push(...nonNegative(`${path}.ttlSecondsAfterFinished`, spec?.ttlSecondsAfterFinished));
  const mode = spec?.completionMode;
  if (mode !== undefined && mode !== 'NonIndexed' && mode !== 'Indexed')
    errs.push(field.notSupported(`${path}.completionMode`, mode, ['NonIndexed', 'Indexed'], true));
  // validateJobSpec: an Indexed job names its completions
  if (mode === 'Indexed' && spec?.completions === undefined) errs.push(field.required(`${path}.completions`, 'when completion mode is Indexed'));
  const podSpec = spec?.template?.spec;
  errs.push(...validatePodSpecFields(podSpec, `${path}.template.spec`));
  // restartPolicy is defaulted to Always by SetDefaults_PodSpec, so both mean "not set"
  const rp = podSpec?.restartPolicy ?? '';
  if (rp === 'Always' || rp === '') errs.push(field.required(`${path}.template.spec.restartPolicy`, 'valid values: "OnFailure", "Never"'));
  else if (rp !== 'OnFailure' && rp !== 'Never') errs.push(field.notSupported(`${path}.template.spec.restartPolicy`, rp, ['OnFailure', 'Never'], true));
  return errs;
}

export function validateJob(job: Job, old: Job | undefined): FieldError[] {
  const errs = validateJobSpec(job.spec, 'spec');
  if (old) errs.push(...immutableSelector('spec.selector', job.spec?.selector, old.spec?.selector));
  return errs;
}

const CONCURRENCY = ['Allow', 'Forbid', 'Replace'];

export function validateCronJob(cj: CronJob, old: CronJob | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const spec = cj.spec as Partial<CronJob['spec']> & { startingDeadlineSeconds?: number };
  if (!spec?.schedule) errs.push(field.required('spec.schedule'));
  else {
    const why = cronScheduleError(spec.schedule);
    if (why) errs.push(field.invalid('spec.schedule', spec.schedule, why));
    const allowTZ = old?.spec?.schedule?.includes('TZ') ?? false;
    if (allowTZ && spec.schedule.includes('TZ') && spec.timeZone !== undefined)
      errs.push(field.invalid('spec.schedule', spec.schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
    else if (!allowTZ && spec.schedule.includes('TZ'))
      errs.push(field.invalid('spec.schedule', spec.schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  }
  errs.push(...nonNegative('spec.startingDeadlineSeconds', spec?.startingDeadlineSeconds));
  const cp = spec?.concurrencyPolicy;
  if (cp !== undefined && !CONCURRENCY.includes(cp))
    errs.push(cp === '' ? field.required('spec.concurrencyPolicy') : field.notSupported('spec.concurrencyPolicy', cp, CONCURRENCY, true));
  errs.push(...validateJobSpec(spec?.jobTemplate?.spec, 'spec.jobTemplate.spec'));
  errs.push(...nonNegative('spec.successfulJobsHistoryLimit', spec?.successfulJobsHistoryLimit));
  errs.push(...nonNegative('spec.failedJobsHistoryLimit', spec?.failedJobsHistoryLimit));
  return errs;
}
