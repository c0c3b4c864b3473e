/**
 * Job and CronJob validation with the API server's wording (k8s.io/kubernetes
 * pkg/apis/batch/validation/validation.go: validateJobSpec with validatePodFailurePolicy,
 * validateSuccessPolicy and validatePodReplacementPolicy, ValidateJobSpecUpdate,
 * ValidateJobTemplateSpec, validateCronJobSpec, validateConcurrencyPolicy, validateScheduleFormat,
 * validateTimeZone).
 */
import { cronScheduleError } from './cron.js';
import { type FieldError, field } from './errors.js';
import type { CronJob, Job, PodFailurePolicyRule } from './types.js';
import { immutableSelector, nonNegative, qualifiedNameProblems, validatePodSpecFields } from './validation.js';

type JobSpec = Partial<Job['spec']>;

/** validation.go's limits: maxPodFailurePolicyRules, …OnExitCodesValues, …OnPodConditionsPatterns, maxSuccessPolicyRule. */
const MAX_POLICY_RULES = 20;
const MAX_EXIT_CODE_VALUES = 255;
const MAX_CONDITION_PATTERNS = 20;
const MAX_SUCCESS_RULES = 20;
const ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const OPERATORS = ['In', 'NotIn'];
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];

/** Go's %q of a []string: `["a" "b"]`. */
const goQuotedList = (xs: readonly string[]): string => `[${xs.map((x) => JSON.stringify(x)).join(' ')}]`;
/** Go's %#v of a []int32. */
const goInt32s = (xs: readonly number[] | undefined): string => (xs === undefined ? '[]int32(nil)' : `[]int32{${xs.join(', ')}}`);
/** field.TooMany: `Too many: N: must have at most M items`. */
const tooMany = (f: string, n: number, max: number): FieldError => ({ field: f, body: `Too many: ${n}: must have at most ${max} items` });
/** field.Invalid with field.OmitValueType{}: no value printed. */
const invalidOmit = (f: string, detail: string): FieldError => ({ field: f, body: `Invalid value: ${detail}` });

/** validatePodFailurePolicyRule with its onExitCodes and onPodConditions checks. */
function validatePodFailurePolicyRule(spec: JobSpec, rule: PodFailurePolicyRule, path: string, containerNames: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const action = rule.action ?? '';
  if (action === '') errs.push(field.required(`${path}.action`, `valid values: ${goQuotedList(ACTIONS)}`));
  else if (action === 'FailIndex') {
    if (spec.backoffLimitPerIndex === undefined) errs.push(field.invalid(`${path}.action`, action, 'requires the backoffLimitPerIndex to be set'));
  } else if (!ACTIONS.includes(action)) errs.push(field.notSupported(`${path}.action`, action, ACTIONS));
  const onExit = rule.onExitCodes;
  if (onExit) {
    const p = `${path}.onExitCodes`;
    const op = onExit.operator ?? '';
    if (op === '') errs.push(field.required(`${p}.operator`, `valid values: ${goQuotedList(OPERATORS)}`));
    else if (!OPERATORS.includes(op)) errs.push(field.notSupported(`${p}.operator`, op, OPERATORS));
    if (onExit.containerName !== undefined && !containerNames.has(onExit.containerName))
      errs.push(field.invalid(`${p}.containerName`, onExit.containerName, 'must be one of the container or initContainer names in the pod template'));
    const values = onExit.values ?? [];
    if (values.length === 0) errs.push(field.invalidRaw(`${p}.values`, goInt32s(onExit.values), 'at least one value is required'));
    else if (values.length > MAX_EXIT_CODE_VALUES) errs.push(tooMany(`${p}.values`, values.length, MAX_EXIT_CODE_VALUES));
    const seen = new Set<number>();
    let ordered = true;
    values.forEach((v, j) => {
      if (op === 'In' && v === 0) errs.push(field.invalid(`${p}.values[${j}]`, v, 'must not be 0 for the In operator'));
      if (seen.has(v)) errs.push(field.duplicate(`${p}.values[${j}]`, v));
      else seen.add(v);
      if (j > 0 && values[j - 1]! > v) ordered = false;
    });
    if (!ordered) errs.push(field.invalidRaw(`${p}.values`, goInt32s(values), 'must be ordered'));
  }
  const onConds = rule.onPodConditions ?? [];
  if (onConds.length > 0) {
    const p = `${path}.onPodConditions`;
    if (onConds.length > MAX_CONDITION_PATTERNS) errs.push(tooMany(p, onConds.length, MAX_CONDITION_PATTERNS));
    onConds.forEach((pat, j) => {
      for (const msg of qualifiedNameProblems(pat.type ?? '')) errs.push(field.invalid(`${p}[${j}].type`, pat.type ?? '', msg));
      const status = pat.status ?? '';
      if (status === '') errs.push(field.required(`${p}[${j}].status`, `valid values: ${goQuotedList(CONDITION_STATUSES)}`));
      else if (!CONDITION_STATUSES.includes(status)) errs.push(field.notSupported(`${p}[${j}].status`, status, CONDITION_STATUSES));
    });
  }
  if (onExit && onConds.length > 0) errs.push(invalidOmit(path, 'specifying both OnExitCodes and OnPodConditions is not supported'));
  if (!onExit && onConds.length === 0) errs.push(invalidOmit(path, 'specifying one of OnExitCodes and OnPodConditions is required'));
  return errs;
}

/** validateIndexesFormat with parseIndexInterval: the number of indexes an interval list names, or its error. */
function indexesFormat(s: string, completions: number): { total: number; error?: string } {
  if (s.length === 0) return { total: 0 };
  const atoi = (x: string): number | undefined => (/^[+-]?\d+$/.test(x) ? Number(x) : undefined);
  let total = 0;
  let last: number | undefined;
  for (const part of s.split(',')) {
    const limits = part.split('-');
    if (limits.length > 2) return { total: 0, error: `the fragment ${JSON.stringify(part)} violates the requirement that an index interval can have at most two parts separated by '-'` };
    const x = atoi(limits[0]!);
    if (x === undefined) return { total: 0, error: `cannot convert string to integer for index: ${JSON.stringify(limits[0])}` };
    if (x >= completions) return { total: 0, error: `too large index: ${JSON.stringify(limits[0])}` };
    let y = x;
    if (limits.length > 1) {
      const y2 = atoi(limits[1]!);
      if (y2 === undefined) return { total: 0, error: `cannot convert string to integer for index: ${JSON.stringify(limits[1])}` };
      if (y2 >= completions) return { total: 0, error: `too large index: ${JSON.stringify(limits[1])}` };
      if (x >= y2) return { total: 0, error: `non-increasing order, previous: ${x}, current: ${y2}` };
      y = y2;
    }
    if (last !== undefined && last >= x) return { total: 0, error: `non-increasing order, previous: ${last}, current: ${x}` };
    total += y - x + 1;
    last = y;
  }
  return { total };
}

/** validateSuccessPolicy and validateSuccessPolicyRule. */
function validateSuccessPolicy(spec: JobSpec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const rules = spec.successPolicy?.rules ?? [];
  if (rules.length === 0) errs.push(field.required(`${path}.rules`, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > MAX_SUCCESS_RULES) errs.push(tooMany(`${path}.rules`, rules.length, MAX_SUCCESS_RULES));
  const completions = spec.completions ?? 0;
  rules.forEach((rule, i) => {
    const p = `${path}.rules[${i}]`;
    if (rule.succeededCount === undefined && rule.succeededIndexes === undefined) errs.push(field.required(p, 'at least one of succeededCount or succeededIndexes must be specified'));
    let total = 0;
    if (rule.succeededIndexes !== undefined) {
      const r = indexesFormat(rule.succeededIndexes, completions);
      total = r.total;
      if (r.error) errs.push(field.invalid(`${p}.succeededIndexes`, rule.succeededIndexes, `error parsing succeededIndexes: ${r.error}`));
    }
    if (rule.succeededCount !== undefined) {
      errs.push(...nonNegative(`${p}.succeededCount`, rule.succeededCount));
      if (rule.succeededCount > completions) errs.push(field.invalid(`${p}.succeededCount`, rule.succeededCount, `must be less than or equal to ${completions} (the number of specified completions)`));
      if (rule.succeededIndexes !== undefined && rule.succeededCount > total)
        errs.push(field.invalid(`${p}.succeededCount`, rule.succeededCount, `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`));
    }
  });
  return errs;
}

/** validateJobSpec: counts non-negative, a supported completion mode, a pod template that never restarts Always. */
export function validateJobSpec(spec: JobSpec | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...nonNegative(`${path}.parallelism`, spec?.parallelism));
  errs.push(...nonNegative(`${path}.completions`, spec?.completions));
  errs.push(...nonNegative(`${path}.activeDeadlineSeconds`, spec?.activeDeadlineSeconds));
  errs.push(...nonNegative(`${path}.backoffLimit`, spec?.backoffLimit));
  errs.push(...nonNegative(`${path}.ttlSecondsAfterFinished`, spec?.ttlSecondsAfterFinished));
  errs.push(...nonNegative(`${path}.backoffLimitPerIndex`, spec?.backoffLimitPerIndex));
  if (spec?.maxFailedIndexes !== undefined) {
    errs.push(...nonNegative(`${path}.maxFailedIndexes`, spec.maxFailedIndexes));
    if (spec.backoffLimitPerIndex === undefined) errs.push(field.required(`${path}.backoffLimitPerIndex`, 'when maxFailedIndexes is specified'));
  }
  const mode = spec?.completionMode;
  if (mode !== undefined && mode !== 'NonIndexed' && mode !== 'Indexed')
    errs.push(field.notSupported(`${path}.completionMode`, mode, ['NonIndexed', 'Indexed'], true));
  // validateJobSpec: an Indexed job names its completions
  if (mode === 'Indexed' && spec?.completions === undefined) errs.push(field.required(`${path}.completions`, 'when completion mode is Indexed'));
  if (mode === 'Indexed' && spec?.completions !== undefined && spec.maxFailedIndexes !== undefined && spec.maxFailedIndexes > spec.completions)
    errs.push(field.invalid(`${path}.maxFailedIndexes`, spec.maxFailedIndexes, 'must be less than or equal to completions'));
  if (mode === undefined || mode === 'NonIndexed') {
    if (spec?.backoffLimitPerIndex !== undefined) errs.push(field.invalid(`${path}.backoffLimitPerIndex`, spec.backoffLimitPerIndex, 'requires indexed completion mode'));
    if (spec?.maxFailedIndexes !== undefined) errs.push(field.invalid(`${path}.maxFailedIndexes`, spec.maxFailedIndexes, 'requires indexed completion mode'));
  }
  const podSpec = spec?.template?.spec;
  if (spec?.podFailurePolicy) {
    const rules = spec.podFailurePolicy.rules ?? [];
    if (rules.length > MAX_POLICY_RULES) errs.push(tooMany(`${path}.podFailurePolicy.rules`, rules.length, MAX_POLICY_RULES));
    const names = new Set([...(podSpec?.containers ?? []), ...(podSpec?.initContainers ?? [])].map((ct) => ct.name));
    rules.forEach((rule, i) => errs.push(...validatePodFailurePolicyRule(spec, rule, `${path}.podFailurePolicy.rules[${i}]`, names)));
  }
  if (spec?.successPolicy) {
    // the value is Go's %#v of the struct, whose pointer fields print as addresses
    if (mode !== 'Indexed') errs.push(field.invalidRaw(`${path}.successPolicy`, 'batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule{...}}', 'requires indexed completion mode'));
    else errs.push(...validateSuccessPolicy(spec, `${path}.successPolicy`));
  }
  // validatePodReplacementPolicy
  const rpp = spec?.podReplacementPolicy;
  if (rpp !== undefined) {
    if (spec?.podFailurePolicy) {
      if (rpp !== 'Failed') errs.push(field.notSupported(`${path}.podReplacementPolicy`, rpp, ['Failed']));
    } else if (rpp !== 'Failed' && rpp !== 'TerminatingOrFailed') errs.push(field.notSupported(`${path}.podReplacementPolicy`, rpp, ['Failed', 'TerminatingOrFailed']));
  }
  errs.push(...validatePodSpecFields(podSpec, `${path}.template.spec`));
  // restartPolicy is defaulted to Always by SetDefaults_PodSpec, so both mean "not set"
  const rp = podSpec?.restartPolicy ?? '';
  if (rp === 'Always' || rp === '') errs.push(field.required(`${path}.template.spec.restartPolicy`, 'valid values: "OnFailure", "Never"'));
  else if (rp !== 'OnFailure' && rp !== 'Never') errs.push(field.notSupported(`${path}.template.spec.restartPolicy`, rp, ['OnFailure', 'Never'], true));
  else if (spec?.podFailurePolicy && rp !== 'Never') errs.push(field.invalid(`${path}.template.spec.restartPolicy`, rp, 'only "Never" is supported when podFailurePolicy is specified'));
  return errs;
}

export function validateJob(job: Job, old: Job | undefined): FieldError[] {
  const errs = validateJobSpec(job.spec, 'spec');
  if (old) {
    errs.push(...immutableSelector('spec.selector', job.spec?.selector, old.spec?.selector));
    // ValidateJobSpecUpdate: the fields of a scalar value (podFailurePolicy and successPolicy are not checked here)
    const immutable = (f: 'completionMode' | 'backoffLimitPerIndex'): void => {
      const next = job.spec?.[f];
      if (next !== old.spec?.[f]) errs.push(next === undefined ? field.invalidRaw(`spec.${f}`, 'null', 'field is immutable') : field.invalid(`spec.${f}`, next, 'field is immutable'));
    };
    immutable('completionMode');
    immutable('backoffLimitPerIndex');
  }
  return errs;
}

/**
 * validateTimeZone: an IANA name (each part of letters, digits, `.`, `-`, `_`, `+`, at most 14,
 * not `.`/`..` nor starting with `-`), never Local, and one time.LoadLocation finds — Node's Intl
 * stands in for the tz database (it also knows the zones case-insensitively, which Go does not).
 */
export function timeZoneErrors(tz: string | undefined, path: string): FieldError[] {
  if (tz === undefined) return [];
  if (tz.length === 0) return [field.invalid(path, tz, 'timeZone must be nil or non-empty string')];
  for (const part of tz.split('/')) if (part === '.' || part === '..' || part.startsWith('-') || !/^[A-Za-z.\-_0-9+]{1,14}$/.test(part)) return [field.invalid(path, tz, `unknown time zone ${tz}`)];
  const errs: FieldError[] = [];
  if (tz.toLowerCase() === 'local') errs.push(field.invalid(path, tz, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  if (tz !== 'Local' && !knownTimeZone(tz)) errs.push(field.invalid(path, tz, `unknown time zone ${tz}`));
  return errs;
}

/** time.LoadLocation's answer for a name: UTC, or a zone the tz database has under exactly that name. */
export function knownTimeZone(tz: string): boolean {
  if (tz === '' || tz === 'UTC') return true;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
    // Intl resolves `america/new_york` too; the Go loader reads the file by its exact name
    return resolved === tz || resolved.toLowerCase() !== tz.toLowerCase();
  } catch {
    return false;
  }
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
  if (old === undefined || old.spec?.timeZone !== spec?.timeZone) errs.push(...timeZoneErrors(spec?.timeZone, 'spec.timeZone'));
  const cp = spec?.concurrencyPolicy;
  if (cp !== undefined && !CONCURRENCY.includes(cp))
    errs.push(cp === '' ? field.required('spec.concurrencyPolicy') : field.notSupported('spec.concurrencyPolicy', cp, CONCURRENCY, true));
  errs.push(...validateJobSpec(spec?.jobTemplate?.spec, 'spec.jobTemplate.spec'));
  errs.push(...nonNegative('spec.successfulJobsHistoryLimit', spec?.successfulJobsHistoryLimit));
  errs.push(...nonNegative('spec.failedJobsHistoryLimit', spec?.failedJobsHistoryLimit));
  return errs;
}
