/**
 * Fixtures by name (`fixtures/<name>.yaml` in the package) or by path. Building one is the
 * expensive part of starting a session (~0.25 s), so a built cluster's snapshot is cached per
 * (fixture text, seed) in memory; the bundle's prebuilt snapshots (scenario/prebuilt.ts) spare
 * even the first build.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { readPrebuilt } from '../scenario/prebuilt.js';
import { buildCluster, parseFixture } from '../sim/fixture/build.js';
import { CONTROLLERS } from '../sim/controllers/index.js';
import { Cluster, type Snapshot } from '../sim/cluster.js';
import type { Clock } from '../util/clock.js';
import { packageRoot } from './paths.js';

export const DEFAULT_FIXTURE = 'kubeadm-calico';

export class FixtureNotFound extends Error {}

/** Resolve NAME (a file in fixtures/) or PATH (relative to `cwd`). */
export function fixtureFile(nameOrPath: string, cwd: string): string {
  if (/^[a-z0-9-]+$/.test(nameOrPath)) {
    const p = join(packageRoot(), 'fixtures', `${nameOrPath}.yaml`);
    if (existsSync(p)) return p;
  }
  const p = isAbsolute(nameOrPath) ? nameOrPath : resolve(cwd, nameOrPath);
  if (existsSync(p)) return p;
  throw new FixtureNotFound(`fixture "${nameOrPath}" not found (names: ${listFixtures().join(', ')})`);
}

export function listFixtures(): string[] {
  return readdirSync(join(packageRoot(), 'fixtures'))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -5))
    .sort();
}

const cache = new Map<string, Snapshot>();

/**
 * A settled cluster built from the fixture; `makeClock` gets the simulated time the fixture starts at.
 * A prebuilt snapshot is parsed for this cluster alone and handed over whole (`owned`), instead of
 * being kept and deep-copied: the copy was 7-25 ms of a new session's first prompt, and a process
 * rarely opens a second cluster (which reads the file again). One built here is cached and copied.
 */
export function loadCluster(file: string, seed: number, makeClock: (simStart: number) => Clock): Cluster {
  const text = readFileSync(file, 'utf8');
  const key = `${seed}\0${text}`;
  let snap = cache.get(key);
  if (!snap) {
    const pre = readPrebuilt(text, seed);
    if (pre) return Cluster.restore(pre, makeClock(pre.now), CONTROLLERS, { owned: true });
    snap = buildCluster(parseFixture(text, file.split('/').pop() ?? file), { seed, controllers: CONTROLLERS }).snapshot();
    cache.set(key, snap);
  }
  return Cluster.restore(snap, makeClock(snap.now), CONTROLLERS);
}
