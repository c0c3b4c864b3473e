/**
 * The Progressing condition as the deployment controller keeps it (deployment-progress.ts against
 * pkg/controller/deployment/progress.go, sync.go and util/deployment_util.go), case by case, and
 * end to end on a cluster: a stuck rollout times out at lastUpdateTime + progressDeadlineSeconds
 * + 1s, a paused one never does, and progress clears it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Deployment, DeploymentStatus, Pod } from '../api/types.js';
import {
  availableConditions,
  createdConditions,
  deploymentTimedOut,
  foundConditions,
  pausedConditions,
  progressCheckAt,
  progressConditions,
  progressStableUntil,
  setCondition,
  type DeploymentCondition,
} from './deployment-progress.js';
import { loadFixture } from '../../testing/fixtures.js';
import { ApiServer } from '../apiserver.js';

const T0 = Date.parse('2026-12-02T10:00:00Z');
const at = (s: number): string => new Date(T0 + s * 1000).toISOString().replace('.000Z', 'Z');
const RS = 'w-675bbffdb5';

function cond(type: string, status: string, reason: string, message: string, transition: number, update = transition): DeploymentCondition {
  return { lastTransitionTime: at(transition), lastUpdateTime: at(update), message, reason, status, type };
}

const available = (s = 0): DeploymentCondition => cond('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.', s);
const unavailable = (s = 0): DeploymentCondition => cond('Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.', s);
const created = (s = 0): DeploymentCondition => cond('Progressing', 'True', 'NewReplicaSetCreated', `Created new replica set "${RS}"`, s);
const updated = (t: number, u = t): DeploymentCondition => cond('Progressing', 'True', 'ReplicaSetUpdated', `ReplicaSet "${RS}" is progressing.`, t, u);
const complete = (t: number, u = t): DeploymentCondition => cond('Progressing', 'True', 'NewReplicaSetAvailable', `ReplicaSet "${RS}" has successfully progressed.`, t, u);
const timedOut = (s: number): DeploymentCondition => cond('Progressing', 'False', 'ProgressDeadlineExceeded', `ReplicaSet "${RS}" has timed out progressing.`, s);
const pausedC = (t: number, u = t): DeploymentCondition => cond('Progressing', 'Unknown', 'DeploymentPaused', 'Deployment is paused', t, u);
const resumedC = (t: number, u = t): DeploymentCondition => cond('Progressing', 'Unknown', 'DeploymentResumed', 'Deployment is resumed', t, u);

type Counts = Pick<DeploymentStatus, 'replicas' | 'updatedReplicas' | 'readyReplicas' | 'availableReplicas'>;

function deploy(status: Counts & { conditions?: DeploymentCondition[] }, spec: Partial<Deployment['spec']> = {}): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'w', namespace: 'default', generation: 1 },
    spec: { replicas: 1, progressDeadlineSeconds: 600, selector: { matchLabels: { app: 'w' } }, template: { spec: { containers: [] } }, ...spec },
    status: { observedGeneration: 1, ...status },
  };
}

test('setCondition: same status and reason change nothing; same status keeps lastTransitionTime; the condition moves last', () => {
  const cases: { name: string; conds: DeploymentCondition[]; set: DeploymentCondition; want: DeploymentCondition[] }[] = [
    { name: 'new type appended', conds: [created(0)], set: unavailable(5), want: [created(0), unavailable(5)] },
    { name: 'same status and reason: untouched, message and times too', conds: [updated(0), available(0)], set: { ...updated(9), message: 'other' }, want: [updated(0), available(0)] },
    { name: 'same status, new reason: transition kept, update now, moved last', conds: [complete(0), available(0)], set: created(30), want: [available(0), cond('Progressing', 'True', 'NewReplicaSetCreated', `Created new replica set "${RS}"`, 0, 30)] },
    { name: 'status flips: both times now', conds: [unavailable(0), updated(0)], set: available(40), want: [updated(0), available(40)] },
  ];
  for (const c of cases) assert.deepEqual(setCondition(c.conds, c.set), c.want, c.name);
});

test('progressConditions: the Progressing estimate of syncRolloutStatus', () => {
  const cases: {
    name: string;
    d: Deployment;
    current?: DeploymentCondition[];
    next: Counts;
    now: number;
    want: DeploymentCondition | undefined;
    rs?: string;
  }[] = [
    {
      name: 'just created, nothing counted yet: NewReplicaSetCreated stays',
      d: deploy({}),
      current: [created(0)],
      next: { replicas: 0 },
      now: 0,
      want: created(0),
    },
    {
      name: 'a pod of the new ReplicaSet: ReplicaSetUpdated, transition kept from NewReplicaSetCreated',
      d: deploy({}),
      current: [created(0)],
      next: { replicas: 1, updatedReplicas: 1 },
      now: 1,
      want: updated(0, 1),
    },
    {
      name: 'all updated and available: NewReplicaSetAvailable',
      d: deploy({ replicas: 1, updatedReplicas: 1, conditions: [updated(0)] }),
      next: { replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1 },
      now: 8,
      want: complete(0, 8),
    },
    {
      name: 'no progress, deadline not passed: unchanged',
      d: deploy({ replicas: 1, updatedReplicas: 1, conditions: [updated(0)] }),
      next: { replicas: 1, updatedReplicas: 1 },
      now: 300,
      want: updated(0),
    },
    {
      name: 'no progress, exactly at the deadline: not yet (Before is strict)',
      d: deploy({ replicas: 1, updatedReplicas: 1, conditions: [updated(0)] }),
      next: { replicas: 1, updatedReplicas: 1 },
      now: 600,
      want: updated(0),
    },
    {
      name: 'no progress, past the deadline: ProgressDeadlineExceeded, both times now',
      d: deploy({ replicas: 1, updatedReplicas: 1, conditions: [updated(0)] }),
      next: { replicas: 1, updatedReplicas: 1 },
      now: 601,
      want: timedOut(601),
    },
    {
      name: 'a shorter spec.progressDeadlineSeconds',
      d: deploy({ replicas: 1, updatedReplicas: 1, conditions: [updated(0)] }, { progressDeadlineSeconds: 30 }),
      next: { replicas: 1, updatedReplicas: 1 },
      now: 31,
      want: timedOut(31),
    },
    {
      name: 'timed out stays timed out (its times too)',
      d: deploy({ replicas: 1, updatedReplicas: 1, conditions: [timedOut(601)] }),
      next: { replicas: 1, updatedReplicas: 1 },
      now: 5000,
      want: timedOut(601),
    },
    {
      name: 'progress after the timeout: ReplicaSetUpdated with a new transition (it was False)',
      d: deploy({ replicas: 2, updatedReplicas: 1, conditions: [timedOut(601)] }, { replicas: 2 }),
      next: { replicas: 2, updatedReplicas: 2 },
      now: 700,
      want: updated(700),
    },
    {
      name: 'an old replica scaled down is progress',
      d: deploy({ replicas: 3, updatedReplicas: 1, conditions: [updated(0)] }, { replicas: 2 }),
      next: { replicas: 2, updatedReplicas: 1 },
      now: 650,
      want: updated(0, 650),
    },
    {
      name: 'a complete rollout is not estimated again (scaled up, pods not available)',
      d: deploy({ replicas: 1, updatedReplicas: 1, availableReplicas: 1, conditions: [complete(0, 8)] }, { replicas: 3 }),
      next: { replicas: 3, updatedReplicas: 3, availableReplicas: 1 },
      now: 5000,
      want: complete(0, 8),
    },
    {
      name: 'resumed: the deadline counts from the resume',
      d: deploy({ replicas: 2, updatedReplicas: 1, conditions: [resumedC(20, 900)] }, { replicas: 1 }),
      next: { replicas: 2, updatedReplicas: 1 },
      now: 1200,
      want: resumedC(20, 900),
    },
    {
      name: 'resumed and stuck past the deadline: times out',
      d: deploy({ replicas: 2, updatedReplicas: 1, conditions: [resumedC(20, 900)] }, { replicas: 1 }),
      next: { replicas: 2, updatedReplicas: 1 },
      now: 1501,
      want: timedOut(1501),
    },
    {
      name: 'no deadline (math.MaxInt32): no Progressing condition at all',
      d: deploy({ replicas: 1, updatedReplicas: 1, conditions: [updated(0)] }, { progressDeadlineSeconds: 2147483647 }),
      next: { replicas: 1, updatedReplicas: 1 },
      now: 99999,
      want: undefined,
    },
    {
      name: 'no new ReplicaSet: the Deployment is named',
      d: deploy({ conditions: [updated(0)] }),
      next: { replicas: 0 },
      now: 601,
      rs: '',
      want: cond('Progressing', 'False', 'ProgressDeadlineExceeded', 'Deployment "w" has timed out progressing.', 601),
    },
  ];
  for (const c of cases) {
    const current = c.current ?? c.d.status?.conditions ?? [];
    const st: DeploymentStatus = { observedGeneration: 1, ...c.next, conditions: current };
    const got = progressConditions({ ...c.d, status: { ...c.d.status, conditions: current } }, current, st, c.rs === '' ? undefined : RS, T0 + c.now * 1000);
    assert.deepEqual(
      got.find((x) => x.type === 'Progressing'),
      c.want,
      c.name,
    );
  }
});

test('pausedConditions, createdConditions, foundConditions (sync.go)', () => {
  const running = deploy({ conditions: [available(0), updated(0, 10)] });
  const paused = deploy({ conditions: [available(0), updated(0, 10)] }, { paused: true });
  const cases: { name: string; got: DeploymentCondition[] | undefined; want: DeploymentCondition[] | undefined }[] = [
    { name: 'pausing: Unknown DeploymentPaused', got: pausedConditions(paused, paused.status!.conditions!, T0 + 20_000), want: [available(0), pausedC(20)] },
    { name: 'paused already: nothing', got: pausedConditions(paused, [available(0), pausedC(20)], T0 + 90_000), want: undefined },
    { name: 'resuming: Unknown DeploymentResumed, transition kept', got: pausedConditions(running, [available(0), pausedC(20)], T0 + 900_000), want: [available(0), resumedC(20, 900)] },
    { name: 'not paused: nothing', got: pausedConditions(running, running.status!.conditions!, T0), want: undefined },
    { name: 'paused after a timeout: the timeout stays', got: pausedConditions(paused, [available(0), timedOut(601)], T0 + 700_000), want: undefined },
    {
      name: 'no deadline: nothing',
      got: pausedConditions(deploy({}, { paused: true, progressDeadlineSeconds: 2147483647 }), [], T0),
      want: undefined,
    },
    { name: 'a new ReplicaSet after a finished rollout', got: createdConditions(running, [available(0), complete(0, 8)], RS, T0 + 60_000), want: [available(0), cond('Progressing', 'True', 'NewReplicaSetCreated', `Created new replica set "${RS}"`, 0, 60)] },
    { name: 'a new ReplicaSet after a timeout: transition now', got: createdConditions(running, [available(0), timedOut(601)], RS, T0 + 700_000), want: [available(0), created(700)] },
    { name: 'found without a Progressing condition: FoundNewReplicaSet', got: foundConditions(running, [available(0)], RS, T0 + 5000), want: [available(0), cond('Progressing', 'True', 'FoundNewReplicaSet', `Found new replica set "${RS}"`, 5)] },
    { name: 'found with one: nothing', got: foundConditions(running, [available(0), updated(0)], RS, T0 + 5000), want: [available(0), updated(0)] },
    { name: 'Available flips True: moves last', got: availableConditions(running, [unavailable(0), updated(0)], 1, T0 + 7000), want: [updated(0), available(7)] },
    { name: 'Available stays False', got: availableConditions(running, [created(0), unavailable(0)], 0, T0 + 7000), want: [created(0), unavailable(0)] },
  ];
  for (const c of cases) assert.deepEqual(c.got, c.want, c.name);
});

test('deploymentTimedOut and progressCheckAt (requeueStuckDeployment)', () => {
  const stuck = deploy({ replicas: 1, updatedReplicas: 1, conditions: [updated(0, 100)] });
  const cases: { name: string; d: Deployment; now: number; timedOut: boolean; checkAt: number | undefined }[] = [
    { name: 'stuck: checked a second after the deadline', d: stuck, now: 200, timedOut: false, checkAt: 701 },
    { name: 'past it: this sync judged it, time alone changes nothing', d: stuck, now: 701, timedOut: true, checkAt: undefined },
    {
      name: 'finished, then a pod became unavailable: never times out, no hot loop',
      d: deploy({ replicas: 1, updatedReplicas: 1, conditions: [complete(0)] }),
      now: 5000,
      timedOut: false,
      checkAt: undefined,
    },
    { name: 'under a second before: rate-limited retries until past it', d: stuck, now: 699.5, timedOut: false, checkAt: 700.005 },
    { name: 'complete: never', d: deploy({ replicas: 1, updatedReplicas: 1, availableReplicas: 1, conditions: [complete(0)] }), now: 5000, timedOut: false, checkAt: undefined },
    { name: 'timed out: no more checks', d: deploy({ replicas: 1, updatedReplicas: 1, conditions: [timedOut(601)] }), now: 700, timedOut: true, checkAt: undefined },
    { name: 'no deadline', d: deploy({ replicas: 1, updatedReplicas: 1, conditions: [updated(0)] }, { progressDeadlineSeconds: 2147483647 }), now: 9000, timedOut: false, checkAt: undefined },
    { name: 'no Progressing condition', d: deploy({ replicas: 1, updatedReplicas: 1, conditions: [unavailable(0)] }), now: 9000, timedOut: false, checkAt: undefined },
  ];
  for (const c of cases) {
    const now = T0 + c.now * 1000;
    assert.equal(deploymentTimedOut(c.d, c.d.status!, now), c.timedOut, `${c.name}: timed out`);
    const want = c.checkAt === undefined ? undefined : Math.round(T0 + c.checkAt * 1000);
    assert.equal(progressCheckAt(c.d, c.d.status!, now), want, `${c.name}: check at`);
  }
});

test('progressStableUntil: how long a sync that changed nothing finds the same (sync-memo.ts)', () => {
  const cases: { name: string; d: Deployment; now: number; want: number }[] = [
    { name: 'a second or more before the deadline: until a second before it', d: deploy({ replicas: 1, conditions: [updated(0)] }), now: T0 + 100_000, want: T0 + 599_000 },
    { name: 'exactly a second before', d: deploy({ replicas: 1, conditions: [updated(0)] }), now: T0 + 599_000, want: T0 + 599_000 },
    { name: 'within the last second (the rate-limited requeue moves with the time): only now', d: deploy({ replicas: 1, conditions: [updated(0)] }), now: T0 + 599_500, want: T0 + 599_500 },
    { name: 'at the deadline: only now', d: deploy({ replicas: 1, conditions: [updated(0)] }), now: T0 + 600_000, want: T0 + 600_000 },
    { name: 'past the deadline (a finished rollout that lost pods): for ever', d: deploy({ replicas: 1, conditions: [complete(0)] }), now: T0 + 600_001, want: Infinity },
    { name: 'timed out', d: deploy({ replicas: 1, conditions: [timedOut(0)] }), now: T0, want: Infinity },
    { name: 'no Progressing condition', d: deploy({ replicas: 1, conditions: [available(0)] }), now: T0, want: Infinity },
    { name: 'paused', d: deploy({ replicas: 1, conditions: [pausedC(0)] }, { paused: true }), now: T0, want: Infinity },
    { name: 'no deadline', d: deploy({ replicas: 1, conditions: [updated(0)] }, { progressDeadlineSeconds: 2147483647 }), now: T0, want: Infinity },
  ];
  for (const c of cases) assert.equal(progressStableUntil(c.d, c.now), c.want, c.name);
});

function progressing(c: ReturnType<typeof loadFixture>, name: string): DeploymentCondition | undefined {
  return c.store.get<Deployment>('Deployment', 'default', name)?.status?.conditions?.find((x) => x.type === 'Progressing');
}

function stuckDeployment(name: string, extra: Partial<Deployment['spec']> = {}): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: 'nginx:nope' }] } }, ...extra },
  };
}

test('controller: a stuck rollout times out on the simulated clock, at lastUpdateTime + deadline + 1s', () => {
  const c = loadFixture('kubeadm-calico');
  const start = c.now();
  new ApiServer(c).create(stuckDeployment('w', { progressDeadlineSeconds: 120 }));
  const first = progressing(c, 'w')!;
  assert.equal(first.reason, 'ReplicaSetUpdated');
  const from = Date.parse(first.lastUpdateTime!);
  c.advanceTo(from + 120_000);
  assert.equal(progressing(c, 'w')?.reason, 'ReplicaSetUpdated', 'not at the deadline');
  c.advanceTo(from + 121_000);
  const done = progressing(c, 'w')!;
  assert.equal(done.reason, 'ProgressDeadlineExceeded');
  assert.equal(done.status, 'False');
  assert.match(done.message ?? '', /^ReplicaSet "w-[a-z0-9]+" has timed out progressing\.$/);
  assert.equal(done.lastTransitionTime, new Date(from + 121_000).toISOString().replace('.000Z', 'Z'));
  assert.ok(c.now() - start < 200_000);
});

test('controller: a stuck rollout times out at the same time when unrelated pods change meanwhile (sync-memo.ts)', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create(stuckDeployment('w', { progressDeadlineSeconds: 30 }));
  const from = Date.parse(progressing(c, 'w')!.lastUpdateTime!);
  // bare pods wake the deployment controller at times before, near and at the deadline
  for (const [i, t] of [10_000, 29_000, 29_500, 30_000].entries()) {
    c.advanceTo(from + t);
    api.create<Pod>({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `lone-${i}`, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    assert.equal(progressing(c, 'w')?.reason, 'ReplicaSetUpdated', `not at +${t} ms`);
  }
  c.advanceTo(from + 31_000);
  const done = progressing(c, 'w')!;
  assert.equal(done.reason, 'ProgressDeadlineExceeded');
  // the last pod's start syncs the Deployment within the second past the deadline (as every sync did before the memo)
  assert.equal(done.lastTransitionTime, new Date(from + 30_000).toISOString().replace('.000Z', 'Z'));
});

test('controller: a paused rollout does not time out; resumed, its deadline counts from the resume', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create(stuckDeployment('p', { progressDeadlineSeconds: 60 }));
  const d = api.get<Deployment>('Deployment', 'default', 'p');
  api.update({ ...d, spec: { ...d.spec, paused: true } });
  assert.equal(progressing(c, 'p')?.reason, 'DeploymentPaused');
  assert.equal(progressing(c, 'p')?.status, 'Unknown');
  c.advance(600_000);
  assert.equal(progressing(c, 'p')?.reason, 'DeploymentPaused');
  const d2 = api.get<Deployment>('Deployment', 'default', 'p');
  const spec = { ...d2.spec };
  delete spec.paused;
  api.update({ ...d2, spec });
  const resumed = progressing(c, 'p')!;
  assert.equal(resumed.reason, 'DeploymentResumed');
  c.advance(60_000);
  assert.equal(progressing(c, 'p')?.reason, 'DeploymentResumed');
  c.advance(1_000);
  assert.equal(progressing(c, 'p')?.reason, 'ProgressDeadlineExceeded');
});

test('controller: a timed-out rollout that progresses again is Progressing True, then complete', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  api.create(stuckDeployment('f', { progressDeadlineSeconds: 30 }));
  c.advance(60_000);
  assert.equal(progressing(c, 'f')?.reason, 'ProgressDeadlineExceeded');
  const d = api.get<Deployment>('Deployment', 'default', 'f');
  const fixed = structuredClone(d);
  fixed.spec.template.spec.containers[0]!.image = 'nginx';
  api.update(fixed);
  const after = progressing(c, 'f')!;
  assert.equal(after.status, 'True');
  assert.notEqual(after.reason, 'ProgressDeadlineExceeded');
  c.advance(60_000);
  const doneCond = progressing(c, 'f')!;
  assert.equal(doneCond.reason, 'NewReplicaSetAvailable');
  assert.match(doneCond.message ?? '', /^ReplicaSet "f-[a-z0-9]+" has successfully progressed\.$/);
  const conds = c.store.get<Deployment>('Deployment', 'default', 'f')!.status!.conditions!.map((x) => x.type);
  assert.deepEqual(conds, ['Available', 'Progressing']);
});
