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
