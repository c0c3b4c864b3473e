/** Test helper: build a named fixture from fixtures/ with a pinned clock and seed. */
import { readFileSync } from 'node:fs';
import { buildCluster, parseFixture } from '../sim/fixture/build.js';
import { CONTROLLERS } from '../sim/controllers/index.js';
import type { Cluster } from '../sim/cluster.js';

export function fixtureText(name: string): string {
  return readFileSync(new URL(`../../fixtures/${name}.yaml`, import.meta.url), 'utf8');
}

export function loadFixture(name: string, seed = 1): Cluster {
  return buildCluster(parseFixture(fixtureText(name), `${name}.yaml`), { seed, controllers: CONTROLLERS });
}
