/** The Job controller's pure pieces: completed-index intervals and the pod failure back-off. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexIntervals } from './job.js';
import { jobFinishTime } from './ttl-after-finished.js';
import type { Job } from '../api/types.js';

test('succeededIndexesToString: sorted, deduplicated intervals', () => {
  const cases: { name: string; in: number[]; want: string }[] = [
    { name: 'none', in: [], want: '' },
    { name: 'one', in: [3], want: '3' },
    { name: 'a run', in: [2, 0, 1], want: '0-2' },
    { name: 'runs and singles', in: [7, 0, 1, 2, 4, 6, 4], want: '0-2,4,6-7' },
  ];
  for (const c of cases) assert.equal(indexIntervals(c.in), c.want, c.name);
});

test('jobFinishTime: the Complete or Failed condition that is True', () => {
  const job = (conditions: NonNullable<Job['status']>['conditions']): Job => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { spec: { containers: [] } } }, status: conditions ? { conditions } : {} });
  assert.equal(jobFinishTime(job(undefined)), undefined);
  assert.equal(jobFinishTime(job([{ type: 'FailureTarget', status: 'True', lastTransitionTime: '2026-12-02T10:00:00Z' }])), undefined);
  assert.equal(jobFinishTime(job([{ type: 'Complete', status: 'True', lastTransitionTime: '2026-12-02T10:00:00Z' }])), Date.parse('2026-12-02T10:00:00Z'));
});

test('mostRecentScheduleTime: the latest due minute after the last run, missed ones included', async () => {
  const { mostRecentSchedule } = await import('./cronjob.js');
  const at = (iso: string): number => Date.parse(iso) / 60_000;
  const cases: { name: string; schedule: string; last: string; now: string; want: string | undefined }[] = [
    { name: 'every minute, just due', schedule: '* * * * *', last: '2026-12-02T10:00:00Z', now: '2026-12-02T10:01:00Z', want: '2026-12-02T10:01:00Z' },
    { name: 'nothing new', schedule: '*/5 * * * *', last: '2026-12-02T10:00:00Z', now: '2026-12-02T10:04:00Z', want: undefined },
    { name: 'missed while down: the latest', schedule: '*/5 * * * *', last: '2026-12-02T10:00:00Z', now: '2026-12-02T10:17:00Z', want: '2026-12-02T10:15:00Z' },
    { name: 'daily across days', schedule: '30 2 * * *', last: '2026-12-01T02:30:00Z', now: '2026-12-04T10:00:00Z', want: '2026-12-04T02:30:00Z' },
    { name: 'weekly macro', schedule: '@weekly', last: '2026-11-01T00:00:00Z', now: '2026-12-04T10:00:00Z', want: '2026-11-29T00:00:00Z' },
  ];
  for (const c of cases) {
    const got = mostRecentSchedule(c.schedule, at(c.last), at(c.now));
    assert.equal(got === undefined ? undefined : new Date(got * 60_000).toISOString().replace('.000Z', 'Z'), c.want, c.name);
  }
});
