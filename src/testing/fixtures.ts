/**
 * Test helper: a named fixture from fixtures/ with a pinned clock and seed.
 *
 * Each fixture and seed is built once per process and every call restores a private copy of that
 * settled snapshot (Cluster.restore, a few milliseconds), as scenario sessions do
 * (scenario/session.ts): building one (hosts, certificates, every controller's first settle) cost
 * 0.3-0.6 s of CPU, and the test files call this some 260 times. `npm test` runs many test files
 * in one process (scripts/test.mjs), so most calls are restores. A restored cluster runs exactly
 * like the one it was taken from (scenario/prebuilt.test.ts, sim/state.test.ts); `buildFixture`
 * is the fresh build, for tests of the build itself.
 */
import { readFileSync } from 'node:fs';
import { buildCluster, parseFixture } from '../sim/fixture/build.js';
import { CONTROLLERS } from '../sim/controllers/index.js';
import { Cluster, type Snapshot } from '../sim/cluster.js';
import { ManualClock } from '../util/clock.js';

export function fixtureText(name: string): string {
  return readFileSync(new URL(`../../fixtures/${name}.yaml`, import.meta.url), 'utf8');
}

/** A fresh build of the fixture (no cache). */
export function buildFixture(name: string, seed = 1): Cluster {
  return buildCluster(parseFixture(fixtureText(name), `${name}.yaml`), { seed, controllers: CONTROLLERS });
}

const SNAPSHOTS = new Map<string, Snapshot>();

export function loadFixture(name: string, seed = 1): Cluster {
  const key = `${name}#${seed}`;
  let snap = SNAPSHOTS.get(key);
  if (!snap) {
    snap = buildFixture(name, seed).snapshot();
    SNAPSHOTS.set(key, snap);
  }
  return Cluster.restore(snap, new ManualClock(snap.now), CONTROLLERS);
}
