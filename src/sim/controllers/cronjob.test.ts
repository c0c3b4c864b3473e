/** The CronJob controller: spec.timeZone, startingDeadlineSeconds and the missed-schedule count (utils.go, cronjob_controllerv2.go). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { missedSchedules, mostRecentSchedule, rfc3339InZone } from './cronjob.js';
import { loadFixture } from '../../testing/fixtures.js';
import { ApiServer } from '../apiserver.js';
import type { CronJob, Job } from '../api/types.js';

const at = (iso: string): number => Date.parse(iso) / 60_000;
const iso = (minute: number | undefined): string | undefined => (minute === undefined ? undefined : new Date(minute * 60_000).toISOString().replace('.000Z', 'Z'));

test('mostRecentScheduleTime in a time zone: the schedule read on that wall clock', () => {
  const cases: { name: string; schedule: string; tz: string | undefined; last: string; now: string; want: string | undefined }[] = [
    { name: '05:00 in New York is 10:00 UTC in winter', schedule: '0 5 * * *', tz: 'America/New_York', last: '2026-12-02T00:00:00Z', now: '2026-12-02T12:00:00Z', want: '2026-12-02T10:00:00Z' },
    { name: 'and 09:00 UTC in summer', schedule: '0 5 * * *', tz: 'America/New_York', last: '2026-07-02T00:00:00Z', now: '2026-07-02T12:00:00Z', want: '2026-07-02T09:00:00Z' },
    { name: 'not yet due there', schedule: '0 5 * * *', tz: 'America/New_York', last: '2026-12-02T00:00:00Z', now: '2026-12-02T09:59:00Z', want: undefined },
    { name: 'a half-hour zone', schedule: '30 9 * * *', tz: 'Asia/Kolkata', last: '2026-12-02T00:00:00Z', now: '2026-12-02T12:00:00Z', want: '2026-12-02T04:00:00Z' },
    { name: 'the day of week is the zone\'s', schedule: '0 1 * * 1', tz: 'Asia/Tokyo', last: '2026-11-29T00:00:00Z', now: '2026-12-01T00:00:00Z', want: '2026-11-29T16:00:00Z' },
    { name: 'UTC as unset', schedule: '0 5 * * *', tz: 'UTC', last: '2026-12-02T00:00:00Z', now: '2026-12-02T12:00:00Z', want: '2026-12-02T05:00:00Z' },
  ];
  for (const c of cases) assert.equal(iso(mostRecentSchedule(c.schedule, at(c.last), at(c.now), c.tz)), c.want, c.name);
});

test('missed schedules: the t2−t1 interval count utils.go makes, and the scheduled-timestamp annotation in the zone', () => {
  const last = at('2026-12-02T10:00:00Z');
  const cases: { name: string; schedule: string; now: string; want: number }[] = [
    { name: 'none due', schedule: '*/5 * * * *', now: '2026-12-02T10:04:00Z', want: 0 },
    { name: 'only t1 due', schedule: '*/5 * * * *', now: '2026-12-02T10:07:00Z', want: 0 },
    { name: 'a few', schedule: '*/5 * * * *', now: '2026-12-02T10:17:30Z', want: 3 },
    { name: '101 minutes missed', schedule: '* * * * *', now: '2026-12-02T11:41:00Z', want: 101 },
  ];
  for (const c of cases) assert.equal(missedSchedules(c.schedule, last, Date.parse(c.now)), c.want, c.name);
  assert.equal(rfc3339InZone(at('2026-12-02T10:00:00Z'), 'America/New_York'), '2026-12-02T05:00:00-05:00');
  assert.equal(rfc3339InZone(at('2026-12-02T04:00:00Z'), 'Asia/Kolkata'), '2026-12-02T09:30:00+05:30');
  assert.equal(rfc3339InZone(at('2026-12-02T10:00:00Z'), undefined), '2026-12-02T10:00:00Z');
});

function cronJob(name: string, schedule: string, extra: Partial<CronJob['spec']> = {}): CronJob {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name, namespace: 'default' },
    spec: { schedule, ...extra, jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', command: ['true'] }] } } } } },
  };
}

test('startingDeadlineSeconds: schedules missed beyond it are skipped; more than 100 missed is TooManyMissedTimes', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  // suspended for two hours, then resumed 30 s after an hourly schedule
  api.create(cronJob('hourly', '0 * * * *', { suspend: true, startingDeadlineSeconds: 20 }));
  api.create(cronJob('minutely', '* * * * *', { suspend: true }));
  const t0 = c.now();
  c.advanceTo((Math.floor(t0 / 3_600_000) + 2) * 3_600_000 + 30_000);
  for (const name of ['hourly', 'minutely']) {
    const cj = c.store.get<CronJob>('CronJob', 'default', name)!;
    api.update({ ...cj, spec: { ...cj.spec, suspend: false } });
  }
  const jobs = (cj: string): string[] => c.store.list<Job>('Job', 'default').filter((j) => j.metadata.name.startsWith(`${cj}-`)).map((j) => j.metadata.name);
  assert.deepEqual(jobs('hourly'), [], 'the 30 s old schedule is past the 20 s deadline');
  assert.equal(jobs('minutely').length, 1, 'without a deadline the most recent missed schedule starts');
  const events = c.store.list<{ reason: string; type: string; message: string; involvedObject: { name: string } } & Job>('Event', 'default').filter((e) => e.involvedObject.name === 'minutely' && e.reason === 'TooManyMissedTimes');
  assert.deepEqual(events.map((e) => [e.type, e.message]), [['Warning', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew']]);
  c.advance(3_600_000);
  assert.equal(jobs('hourly').length, 1, 'the next schedule, on time, starts');
});

test('a CronJob with a timeZone creates its job at the zone\'s minute, the annotation in the zone', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  // the next whole hour, written as New York's wall clock
  const next = (Math.floor(c.now() / 3_600_000) + 1) * 3_600_000;
  const nyHour = Number(new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', hourCycle: 'h23' }).format(new Date(next)));
  api.create(cronJob('ny', `0 ${nyHour} * * *`, { timeZone: 'America/New_York' }));
  c.advanceTo(next - 60_000);
  assert.equal(c.store.list<Job>('Job', 'default').length, 0, 'nothing before the zone\'s hour');
  c.advanceTo(next + 1_000);
  const job = c.store.list<Job>('Job', 'default')[0]!;
  assert.equal(job.metadata.name, `ny-${next / 60_000}`);
  assert.match(job.metadata.annotations!['batch.kubernetes.io/cronjob-scheduled-timestamp']!, /^\d{4}-\d\d-\d\dT\d\d:00:00-0[45]:00$/);
});
