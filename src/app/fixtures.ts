/**
 * Fixtures by name (`fixtures/<name>.yaml` in the package) or by path. Building one is the
 * expensive part of starting a session (~0.25 s), so a built cluster's snapshot is cached per
 * (fixture text, seed) in memory: `reset` and the exam's many clusters restore from it; the
 * bundle's prebuilt snapshots (scenario/prebuilt.ts) spare even the first build.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { buildSnapshot } from '../scenario/prebuilt.js';
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

/** A settled cluster built from the fixture; `makeClock` gets the simulated time the fixture starts at. */
export function loadCluster(file: string, seed: number, makeClock: (simStart: number) => Clock): Cluster {
  const text = readFileSync(file, 'utf8');
  const key = `${seed}\0${text}`;
  let snap = cache.get(key);
  if (!snap) {
    snap = buildSnapshot(text, file.split('/').pop() ?? file, seed);
    cache.set(key, snap);
  }
  return Cluster.restore(snap, makeClock(snap.now), CONTROLLERS);
}
