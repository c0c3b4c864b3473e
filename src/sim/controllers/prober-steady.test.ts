import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Cluster } from '../cluster.js';
import type { Container, ContainerStatus } from '../api/types.js';
import { parseStartedAt, startedAtParses, syncProbes, type ContainerProbes, type ProbeHost, type ProbeType } from './prober.js';

/** A running container with a TCP liveness probe every 10 s, and a host that counts the probes it runs. */
function setup(): { ct: Container; cs: ContainerStatus; state: ContainerProbes; host: ProbeHost; probes: [ProbeType, number][] } {
  const ct: Container = { name: 'srv', image: 'registry.k8s.io/e2e-test-images/agnhost:2.40', livenessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 10 } };
  const cs = { name: 'srv', ready: true, restartCount: 0, image: ct.image, imageID: '', containerID: 'containerd://1', started: true, state: { running: { startedAt: '1970-01-01T00:00:00Z' } } } as ContainerStatus;
  const probes: [ProbeType, number][] = [];
  const host: ProbeHost = {
    probe: (type, _spec, t) => (probes.push([type, t]), { result: 'success', output: '' }),
    // a server whose answers change with its uptime: the worker is woken at every tick
    changesAt: () => 'tick',
    event: () => {},
  };
  return { ct, cs, state: { workers: {} }, host, probes };
}

const at = (now: number): Cluster => ({ now: () => now }) as unknown as Cluster;

test('prober: a steady worker probed at its tick now is not probed again for its next wake-up', () => {
  const { ct, cs, state, host, probes } = setup();
  // ticks at 0, 10 s, 20 s: the worker is steady after the first success
  for (const now of [0, 10_000, 20_000]) {
    const sync = syncProbes(at(now), ct, cs, state, 0, host, false);
    assert.equal(sync.nextAt, now + 10_000);
  }
  // one probe per tick (the wake-up asked the same probe at the same instant: two per tick)
  assert.deepEqual(probes, [
    ['liveness', 0],
    ['liveness', 10_000],
    ['liveness', 20_000],
  ]);
  // a sync between ticks still asks whether the probe would fail now
  probes.length = 0;
  const sync = syncProbes(at(25_000), ct, cs, state, 0, host, false);
  assert.equal(sync.nextAt, 30_000);
  assert.deepEqual(probes, [['liveness', 25_000]]);
});

test("prober: a container's start time is parsed once for all its syncs, and read as Date.parse reads it", () => {
  const { ct, cs, state, host } = setup();
  const started = '2026-12-07T07:00:00Z';
  const mine = { ...cs, state: { running: { startedAt: started } } } as ContainerStatus;
  const t0 = Date.parse(started);
  syncProbes(at(t0), ct, mine, state, t0, host, false);
  const parses = startedAtParses.count;
  for (let k = 1; k <= 5; k++) syncProbes(at(t0 + k * 10_000), ct, mine, state, t0, host, false);
  assert.equal(startedAtParses.count, parses, 'the same start time was parsed again');
  for (const text of [started, '', '1970-01-01T00:00:00Z', 'not a time', '2026-02-30T00:00:00Z']) assert.deepEqual(parseStartedAt(text), Date.parse(text), text);
});
