/** The kubelet's view of a stopped containerd (runtime-health.ts): its loops' times and the Ready message. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import type { Node } from '../api/types.js';
import { ApiServer } from '../apiserver.js';
import { goDuration, outageMessage, runtimeOutage, runtimeRecovery, tickAtOrAfter, tickAtOrBefore } from './runtime-health.js';

const S = 1_000_000; // a kubelet start

test('loop ticks are counted from the kubelet start', () => {
  const cases = [
    { name: 'before the start', t: S - 7, period: 5_000, before: S, after: S },
    { name: 'on a tick', t: S + 10_000, period: 5_000, before: S + 10_000, after: S + 10_000 },
    { name: 'between ticks', t: S + 12_345, period: 5_000, before: S + 10_000, after: S + 15_000 },
    { name: 'one ms after a tick', t: S + 10_001, period: 10_000, before: S + 10_000, after: S + 20_000 },
  ];
  for (const c of cases) {
    assert.equal(tickAtOrBefore(S, c.period, c.t), c.before, `${c.name}: at or before`);
    assert.equal(tickAtOrAfter(S, c.period, c.t), c.after, `${c.name}: at or after`);
  }
});

test("Go's Duration String for whole milliseconds", () => {
  const cases = [
    { ms: 0, want: '0s' },
    { ms: 500, want: '500ms' },
    { ms: 1_000, want: '1s' },
    { ms: 30_300, want: '30.3s' },
    { ms: 180_000, want: '3m0s' },
    { ms: 209_000, want: '3m29s' },
    { ms: 210_300, want: '3m30.3s' },
    { ms: 3_610_000, want: '1h0m10s' },
  ];
  for (const c of cases) assert.equal(goDuration(c.ms), c.want, String(c.ms));
});

test('an outage: last good check and relist, runtime down 30 s on, NotReady at the next 10 s status sync', () => {
  const cases = [
    { name: 'stop on a check tick', stop: S + 60_000, lastSync: S + 60_000, lastRelist: S + 60_000, downAt: S + 90_000, notReadyAt: S + 90_000 },
    { name: 'stop between ticks', stop: S + 62_500, lastSync: S + 60_000, lastRelist: S + 62_000, downAt: S + 90_000, notReadyAt: S + 90_000 },
    { name: 'down between status syncs', stop: S + 66_000, lastSync: S + 65_000, lastRelist: S + 66_000, downAt: S + 95_000, notReadyAt: S + 100_000 },
  ];
  const c = loadFixture('kubeadm-calico');
  const h = c.host('cka-w1')!;
  for (const tc of cases) {
    h.data.units['kubelet'] = { active: true, enabled: true, since: S };
    h.data.units['containerd'] = { active: false, enabled: true, since: tc.stop };
    assert.deepEqual(runtimeOutage(h), { stoppedAt: tc.stop, lastSync: tc.lastSync, lastRelist: tc.lastRelist, downAt: tc.downAt, notReadyAt: tc.notReadyAt }, tc.name);
    assert.equal(runtimeRecovery(h), undefined, `${tc.name}: no recovery while down`);
  }
  h.data.units['containerd'] = { active: true, enabled: true, since: S + 301_000 };
  assert.equal(runtimeOutage(h), undefined);
  assert.deepEqual(runtimeRecovery(h), { syncAt: S + 305_000, readyAt: S + 310_000 }, 'the next check succeeds, the sync after it posts Ready');
});

test('the Ready message names the PLEG once its last relist is more than 3 minutes old', () => {
  const outage = { stoppedAt: S, lastSync: S, lastRelist: S, downAt: S + 30_000, notReadyAt: S + 30_000 };
  const cases = [
    { at: S + 30_000, want: 'container runtime is down' },
    { at: S + 180_000, want: 'container runtime is down' },
    { at: S + 190_000, want: '[container runtime is down, PLEG is not healthy: pleg was last seen active 3m10s ago; threshold is 3m0s]' },
  ];
  for (const c of cases) assert.equal(outageMessage(outage, c.at), c.want, String(c.at - S));
});

test('the API serves the latest status sync of a node whose containerd is down, and Ready again after it starts', () => {
  const c = loadFixture('kubeadm-calico');
  const api = new ApiServer(c);
  const h = c.host('cka-w1')!;
  const t0 = c.now();
  h.data.units['containerd'] = { active: false, enabled: true, since: t0 };
  c.touchHosts();
  const ready = (): { status: string; message?: string; lastHeartbeatTime?: string } => api.get<Node>('Node', undefined, 'cka-w1').status!.conditions!.find((x) => x.type === 'Ready')!;
  const out = runtimeOutage(h)!;
  c.advanceTo(out.notReadyAt - 1);
  assert.equal(ready().status, 'True', 'the kubelet has not found the runtime down yet');
  c.advanceTo(out.notReadyAt);
  assert.deepEqual({ ...ready() }, { ...ready(), status: 'False', message: 'container runtime is down' });
  c.advanceTo(out.lastRelist + 200_000);
  const sync = tickAtOrBefore(h.data.units['kubelet']!.since, 10_000, c.now());
  assert.equal(ready().message, outageMessage(out, sync));
  assert.match(ready().message ?? '', /^\[container runtime is down, PLEG is not healthy: pleg was last seen active 3m\d+s ago; threshold is 3m0s\]$/);
  assert.equal(ready().lastHeartbeatTime, new Date(sync).toISOString().replace('.000Z', 'Z'), 'each changed message is posted');
  c.advance(3_000);
  h.data.units['containerd'] = { active: true, enabled: true, since: c.now() };
  c.touchHosts();
  const back = runtimeRecovery(h)!;
  assert.ok(back.readyAt > c.now());
  c.advanceTo(back.readyAt - 1);
  assert.equal(ready().status, 'False');
  c.advanceTo(back.readyAt);
  assert.equal(ready().status, 'True');
});
