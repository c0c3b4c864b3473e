/** Job and CronJob validation: pkg/apis/batch/validation/validation.go's messages, as the API server returns them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { timeZoneErrors, validateCronJob, validateJob } from './validation-batch.js';
import type { CronJob, Job } from './types.js';

const template = (restartPolicy: 'Never' | 'OnFailure' = 'Never'): Job['spec']['template'] => ({ spec: { restartPolicy, containers: [{ name: 'main', image: 'busybox' }] } });
const errors = (spec: Partial<Job['spec']>): string[] =>
  validateJob({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: template(), ...spec } as Job['spec'] }, undefined).map((e) => `${e.field}: ${e.body}`);

test('validateJobSpec: podFailurePolicy, backoffLimitPerIndex, maxFailedIndexes and successPolicy', () => {
  const cases: { name: string; spec: Partial<Job['spec']>; want: string[] }[] = [
    { name: 'a valid policy', spec: { podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } }] } }, want: [] },
    {
      name: 'restartPolicy OnFailure with a pod failure policy',
      spec: { template: template('OnFailure'), podFailurePolicy: { rules: [] } },
      want: ['spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified'],
    },
    {
      name: 'rule checks',
      spec: {
        podFailurePolicy: {
          rules: [
            { action: '', onExitCodes: { containerName: 'other', operator: 'In', values: [2, 0, 2] } },
            { action: 'FailIndex', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
            { action: 'Retry' } as never,
          ],
        },
      },
      want: [
        'spec.podFailurePolicy.rules[0].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]',
        'spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "other": must be one of the container or initContainer names in the pod template',
        'spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator',
        'spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 2',
        'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{2, 0, 2}: must be ordered',
        'spec.podFailurePolicy.rules[1].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set',
        'spec.podFailurePolicy.rules[2].action: Unsupported value: "Retry": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
        'spec.podFailurePolicy.rules[2]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
      ],
    },
    {
      name: 'per-index limits on a NonIndexed job',
      spec: { backoffLimitPerIndex: 1, maxFailedIndexes: 1 },
      want: ['spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode', 'spec.maxFailedIndexes: Invalid value: 1: requires indexed completion mode'],
    },
    {
      name: 'maxFailedIndexes without backoffLimitPerIndex, above completions',
      spec: { completionMode: 'Indexed', completions: 2, maxFailedIndexes: 3 },
      want: ['spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified', 'spec.maxFailedIndexes: Invalid value: 3: must be less than or equal to completions'],
    },
    {
      name: 'successPolicy rules',
      spec: { completionMode: 'Indexed', completions: 3, successPolicy: { rules: [{}, { succeededIndexes: '0-5' }, { succeededIndexes: '1', succeededCount: 2 }] } },
      want: [
        'spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be specified',
        'spec.successPolicy.rules[1].succeededIndexes: Invalid value: "0-5": error parsing succeededIndexes: too large index: "5"',
        'spec.successPolicy.rules[2].succeededCount: Invalid value: 2: must be less than or equal to 1 (the number of indexes in the specified succeededIndexes field)',
      ],
    },
    { name: 'an empty successPolicy', spec: { completionMode: 'Indexed', completions: 3, successPolicy: { rules: [] } }, want: ['spec.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is specified'] },
    {
      name: 'podReplacementPolicy with a pod failure policy',
      spec: { podReplacementPolicy: 'TerminatingOrFailed', podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] } },
      want: ['spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"'],
    },
  ];
  for (const tc of cases) assert.deepEqual(errors(tc.spec), tc.want, tc.name);
});

test('validateTimeZone: IANA names time.LoadLocation knows', () => {
  const cases: { tz: string; want: string[] }[] = [
    { tz: 'America/New_York', want: [] },
    { tz: 'UTC', want: [] },
    { tz: 'Etc/GMT+5', want: [] },
    { tz: '', want: ['Invalid value: "": timeZone must be nil or non-empty string'] },
    { tz: 'Mars/Olympus_Mons', want: ['Invalid value: "Mars/Olympus_Mons": unknown time zone Mars/Olympus_Mons'] },
    { tz: 'america/new_york', want: ['Invalid value: "america/new_york": unknown time zone america/new_york'] },
    { tz: 'Europe/../Paris', want: ['Invalid value: "Europe/../Paris": unknown time zone Europe/../Paris'] },
    { tz: 'Local', want: ['Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'] },
  ];
  for (const tc of cases) assert.deepEqual(timeZoneErrors(tc.tz, 'spec.timeZone').map((e) => e.body), tc.want, tc.tz);
  const cj = (timeZone: string): CronJob => ({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'c' }, spec: { schedule: '0 5 * * *', timeZone, jobTemplate: { spec: { template: template() } } } });
  assert.deepEqual(validateCronJob(cj('Nowhere/City'), undefined).map((e) => `${e.field}: ${e.body}`), ['spec.timeZone: Invalid value: "Nowhere/City": unknown time zone Nowhere/City']);
  assert.deepEqual(validateCronJob(cj('Nowhere/City'), cj('Nowhere/City')), [], 'an unchanged zone is not checked again on update');
});
