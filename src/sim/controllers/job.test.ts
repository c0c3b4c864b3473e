/** The Job controller's pure pieces: completed-index intervals and the pod failure back-off. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexIntervals } from './job.js';
import { jobFinishTime } from './ttl-after-finished.js';
import type { Job } from '../api/types.js';
import { COMPLETION_INDEX as COMPLETION_INDEX_KEY } from './job.js';

test('orderedIntervals.String: sorted, deduplicated; three or more in a row as a range, two as a pair', () => {
  const cases: { name: string; in: number[]; want: string }[] = [
    { name: 'none', in: [], want: '' },
    { name: 'one', in: [3], want: '3' },
    { name: 'a run', in: [2, 0, 1], want: '0-2' },
    { name: 'two in a row stay a pair', in: [1, 0], want: '0,1' },
    { name: 'runs and singles', in: [7, 0, 1, 2, 4, 6, 4], want: '0-2,4,6,7' },
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

// ---------------------------------------------------------------------------------------------
// The controller on a cluster (the fixture's clock is pinned; the kubelet runs the containers)

import { loadFixture } from '../../testing/fixtures.js';
import { ApiServer } from '../apiserver.js';
import type { Pod, PodFailurePolicy } from '../api/types.js';
import { matchPodFailurePolicy, matchSuccessPolicy, parseIndexes } from './job.js';

function jobOf(name: string, script: string, spec: Partial<Job['spec']> = {}): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default' },
    spec: { ...spec, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', script] }] } } },
  };
}

function start(job: Job): { c: ReturnType<typeof loadFixture>; api: ApiServer; get: () => Job; pods: () => Pod[]; reasons: () => string[] } {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create(job);
  return {
    c,
    api,
    get: () => c.store.get<Job>('Job', 'default', job.metadata.name)!,
    pods: () => c.store.list<Pod>('Pod', 'default').filter((p) => p.metadata.labels?.['job-name'] === job.metadata.name),
    reasons: () => c.store.list<{ kind: string; reason: string; involvedObject: { name: string } } & Job>('Event', 'default').filter((e) => e.involvedObject.name === job.metadata.name).map((e) => e.reason),
  };
}

const conditions = (j: Job): string[] => (j.status?.conditions ?? []).map((x) => `${x.type}=${x.status} ${x.reason}: ${x.message}`);

test('suspend: active pods go uncounted, Suspended/JobSuspended; resume: JobResumed, startTime again, the deadline from then', () => {
  const { c, api, get, pods, reasons } = start(jobOf('s', 'sleep 3600', { activeDeadlineSeconds: 100 }));
  c.advance(10_000);
  assert.equal(pods().filter((p) => p.status?.phase === 'Running').length, 1);
  const firstStart = get().status!.startTime;
  api.update({ ...get(), spec: { ...get().spec, suspend: true } });
  c.advance(40_000);
  assert.deepEqual(pods(), [], 'the pod is deleted');
  assert.deepEqual({ active: get().status!.active, failed: get().status!.failed, startTime: get().status!.startTime }, { active: undefined, failed: undefined, startTime: firstStart });
  assert.deepEqual(conditions(get()), ['Suspended=True JobSuspended: Job suspended']);
  // suspended past the deadline: it does not fail
  c.advance(120_000);
  assert.deepEqual(conditions(get()), ['Suspended=True JobSuspended: Job suspended']);
  const resumedAt = c.timestamp();
  api.update({ ...get(), spec: { ...get().spec, suspend: false } });
  assert.deepEqual(conditions(get()), ['Suspended=False JobResumed: Job resumed']);
  assert.equal(get().status!.startTime, resumedAt);
  c.advance(90_000);
  assert.equal(conditions(get()).length, 1, 'not yet past the deadline counted from the resume');
  c.advance(60_000);
  assert.deepEqual(conditions(get()).slice(1), ['FailureTarget=True DeadlineExceeded: Job was active longer than specified deadline', 'Failed=True DeadlineExceeded: Job was active longer than specified deadline']);
  assert.deepEqual(reasons().filter((r) => r !== 'SuccessfulCreate'), ['SuccessfulDelete', 'Suspended', 'Resumed', 'SuccessfulDelete', 'DeadlineExceeded']);
});

test('a job created suspended has no startTime and creates no pod', () => {
  const { c, get, pods } = start(jobOf('cs', 'true', { suspend: true }));
  c.advance(5_000);
  assert.deepEqual([pods().length, get().status?.startTime, conditions(get())], [0, undefined, ['Suspended=True JobSuspended: Job suspended']]);
});

test('matchPodFailurePolicy: the first matching rule, in pod_failure_policy.go words', () => {
  const pod = (exit: number, conds: { type: string; status: string }[] = []): Pod =>
    ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'ns' },
      spec: { containers: [] },
      status: { phase: 'Failed', conditions: conds, containerStatuses: [{ name: 'main', state: { terminated: { exitCode: exit } } }] },
    }) as unknown as Pod;
  const policy: PodFailurePolicy = {
    rules: [
      { action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } },
      { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] },
      { action: 'Count', onExitCodes: { operator: 'NotIn', values: [1, 2] } },
    ],
  };
  const cases: { name: string; pod: Pod; want: ReturnType<typeof matchPodFailurePolicy> }[] = [
    { name: 'FailJob by exit code', pod: pod(42), want: { failJobMessage: 'Container main for pod ns/p failed with exit code 42 matching FailJob rule at index 0', countFailed: true, action: 'FailJob' } },
    { name: 'Ignore by condition', pod: pod(1, [{ type: 'DisruptionTarget', status: 'True' }]), want: { countFailed: false, action: 'Ignore' } },
    { name: 'Count by NotIn', pod: pod(7), want: { countFailed: true, action: 'Count' } },
    { name: 'no rule matches', pod: pod(1), want: { countFailed: true } },
  ];
  for (const tc of cases) assert.deepEqual(matchPodFailurePolicy(policy, tc.pod), tc.want, tc.name);
  assert.deepEqual(matchPodFailurePolicy(undefined, pod(42)), { countFailed: true }, 'no policy');
});

test('podFailurePolicy FailJob: FailureTarget, then Failed with reason PodFailurePolicy', () => {
  const { c, get } = start({ ...jobOf('pf', 'exit 42', { backoffLimit: 6 }), spec: { ...jobOf('pf', 'exit 42').spec, podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } }] } } });
  c.advance(20_000);
  const pod = c.store.list<Pod>('Pod', 'default').find((p) => p.metadata.labels?.['job-name'] === 'pf')!;
  const msg = `Container main for pod default/${pod.metadata.name} failed with exit code 42 matching FailJob rule at index 0`;
  assert.deepEqual(conditions(get()), [`FailureTarget=True PodFailurePolicy: ${msg}`, `Failed=True PodFailurePolicy: ${msg}`]);
  assert.equal(get().status!.failed, 1);
});

test('podFailurePolicy Ignore: the failures do not count toward backoffLimit', () => {
  const spec = jobOf('ig', 'exit 3').spec;
  const { c, get, pods } = start({ ...jobOf('ig', 'exit 3'), spec: { ...spec, backoffLimit: 0, podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [3] } }] } } });
  c.advance(60_000);
  assert.ok(pods().filter((p) => p.status?.phase === 'Failed').length >= 2, 'replaced after each failure');
  assert.deepEqual([get().status!.failed, conditions(get())], [undefined, []]);
});

test('backoffLimitPerIndex: an index fails past its own limit, the others go on; FailedIndexes at the end', () => {
  const job = jobOf('pi', '[ "$JOB_COMPLETION_INDEX" = 1 ] && exit 1; exit 0', { completionMode: 'Indexed', completions: 3, parallelism: 3, backoffLimitPerIndex: 1 });
  const { c, get, pods } = start(job);
  c.advance(120_000);
  const byIndex = pods().filter((p) => p.metadata.annotations?.[COMPLETION_INDEX_KEY] === '1');
  assert.deepEqual(byIndex.map((p) => p.metadata.annotations?.['batch.kubernetes.io/job-index-failure-count']).sort(), ['0', '1']);
  const st = get().status!;
  assert.deepEqual({ completed: st.completedIndexes, failedIndexes: st.failedIndexes, failed: st.failed, succeeded: st.succeeded }, { completed: '0,2', failedIndexes: '1', failed: 2, succeeded: 2 });
  assert.deepEqual(conditions(get()), ['FailureTarget=True FailedIndexes: Job has failed indexes', 'Failed=True FailedIndexes: Job has failed indexes']);
  assert.equal(get().spec.backoffLimit, 2147483647, 'backoffLimit defaults to MaxInt32 with backoffLimitPerIndex');
});

test('maxFailedIndexes and the FailIndex action: MaxFailedIndexesExceeded', () => {
  const base = jobOf('mf', 'exit 5', { completionMode: 'Indexed', completions: 4, parallelism: 2, backoffLimitPerIndex: 3, maxFailedIndexes: 0 });
  const { c, get } = start({ ...base, spec: { ...base.spec, podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [5] } }] } } });
  c.advance(30_000);
  assert.deepEqual(conditions(get()).map((x) => x.split(':')[0]), ['FailureTarget=True MaxFailedIndexesExceeded', 'Failed=True MaxFailedIndexesExceeded']);
  assert.equal(conditions(get())[1], 'Failed=True MaxFailedIndexesExceeded: Job has exceeded the specified maximal number of failed indexes');
});

test('matchSuccessPolicy and parseIndexes: success_policy.go rules', () => {
  const done = (s: string): Set<number> => parseIndexes(s, 10);
  assert.deepEqual([...parseIndexes('0-2,5,8-20', 10)], [0, 1, 2, 5, 8, 9]);
  const cases: { name: string; rules: NonNullable<Job['spec']['successPolicy']>['rules']; succeeded: string; want: string | undefined }[] = [
    { name: 'all the named indexes', rules: [{ succeededIndexes: '0,2-3' }], succeeded: '0,2,3', want: 'Matched rules at index 0' },
    { name: 'not all of them', rules: [{ succeededIndexes: '0,2-3' }], succeeded: '0,2', want: undefined },
    { name: 'a count among the named', rules: [{ succeededIndexes: '0-4', succeededCount: 2 }], succeeded: '1,3', want: 'Matched rules at index 0' },
    { name: 'a count overall, second rule', rules: [{ succeededIndexes: '9' }, { succeededCount: 3 }], succeeded: '0-2', want: 'Matched rules at index 1' },
    { name: 'nothing succeeded', rules: [{ succeededCount: 0 }], succeeded: '', want: undefined },
  ];
  for (const tc of cases) assert.equal(matchSuccessPolicy({ rules: tc.rules }, 10, done(tc.succeeded)), tc.want, tc.name);
});

test('successPolicy: SuccessCriteriaMet with reason SuccessPolicy, the pods still running deleted, then Complete', () => {
  const base = jobOf('sp', '[ "$JOB_COMPLETION_INDEX" = 0 ] && exit 0; sleep 3600', { completionMode: 'Indexed', completions: 3, parallelism: 3 });
  const { c, get, pods } = start({ ...base, spec: { ...base.spec, successPolicy: { rules: [{ succeededIndexes: '0' }] } } });
  c.advance(10_000);
  assert.deepEqual(conditions(get())[0], 'SuccessCriteriaMet=True SuccessPolicy: Matched rules at index 0');
  c.advance(60_000);
  assert.deepEqual(conditions(get()), ['SuccessCriteriaMet=True SuccessPolicy: Matched rules at index 0', 'Complete=True SuccessPolicy: Matched rules at index 0']);
  assert.deepEqual([get().status!.succeeded, get().status!.completedIndexes, pods().length, get().status!.completionTime !== undefined], [1, '0', 1, true]);
});

test('ttlSecondsAfterFinished: the job goes exactly ttl seconds after it finished, even when the clock jumps past its finish', () => {
  for (const steps of [[30_000], [1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 20_000]]) {
    const { c, get } = start(jobOf('t', 'sleep 3', { completions: 3, parallelism: 2, completionMode: 'Indexed', ttlSecondsAfterFinished: 60 }));
    for (const ms of steps) c.advance(ms);
    const finished = jobFinishTime(get());
    assert.ok(finished !== undefined && finished < c.now(), 'the job finished during the first 30 s');
    assert.equal(get().status?.completionTime, new Date(finished).toISOString().replace('.000Z', 'Z'));
    c.advance(finished + 60_000 - 1 - c.now());
    assert.ok(c.store.get('Job', 'default', 't'), 'still there just before the TTL');
    c.advance(1);
    // Foreground: its pods go first, at once (they are terminal: strategy.go CheckGracefulDelete
    // deletes a Succeeded or Failed pod with grace 0), then the job itself
    assert.equal(c.store.get('Job', 'default', 't'), undefined, 'gone at the TTL');
    assert.deepEqual(c.store.list<Pod>('Pod', 'default').filter((p) => p.metadata.labels?.['job-name'] === 't'), []);
  }
});
