/**
 * Settled fixture clusters built at bundle time. Building a fixture (hosts, certificates, the
 * first settle of every controller) is most of what a new `cka-lab shell` session spends before
 * its first prompt (~0.25 s of ~0.5 s), and the result is a pure function of the fixture's text,
 * the seed and the code. The bundle step (scripts/bundle.mjs) writes one gzipped snapshot per
 * fixture for PREBUILT_SEEDS beside the bundle's chunks, named by the SHA-256 of seed and text,
 * so only code built in the same step reads them and an edited fixture is never served stale.
 * Runs from source (tsx, tests) find none and build as before.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Snapshot } from '../sim/cluster.js';
import { buildCluster, parseFixture } from '../sim/fixture/build.js';
import { CONTROLLERS } from '../sim/controllers/index.js';

/** The seed a plain `cka-lab shell` starts with, and the draws `validate` proves every task on. */
export const PREBUILT_SEEDS: readonly number[] = [1, 2, 3];

export const PREBUILT_DIR = 'fixture-snapshots';

export function prebuiltKey(text: string, seed: number): string {
  return createHash('sha256').update(`${seed}\0${text}`).digest('hex').slice(0, 32);
}

/** The settled cluster `buildCluster` would make from this fixture text and seed, when prebuilt. */
export function readPrebuilt(text: string, seed: number, dir = fileURLToPath(new URL(`./${PREBUILT_DIR}/`, import.meta.url))): Snapshot | undefined {
  let gz: Buffer;
  try {
    gz = readFileSync(join(dir, `${prebuiltKey(text, seed)}.json.gz`));
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(gunzipSync(gz).toString('utf8')) as Snapshot;
  } catch {
    // a damaged file only costs the build it would have saved
    return undefined;
  }
}

/** The settled snapshot of a fixture's text: prebuilt when the bundle has it, else built now. */
export function buildSnapshot(text: string, file: string, seed: number): Snapshot {
  return readPrebuilt(text, seed) ?? buildCluster(parseFixture(text, file), { seed, controllers: CONTROLLERS }).snapshot();
}

/** Builds every fixtures/*.yaml (or those named) for `seeds` into `outDir`; returns how many it wrote. */
export function writePrebuilt(fixturesDir: string, outDir: string, only?: readonly string[], seeds = PREBUILT_SEEDS): number {
  mkdirSync(outDir, { recursive: true });
  let n = 0;
  for (const f of readdirSync(fixturesDir).filter((x) => x.endsWith('.yaml') && (!only || only.includes(x.slice(0, -5)))).sort()) {
    const text = readFileSync(join(fixturesDir, f), 'utf8');
    for (const seed of seeds) {
      const snap = buildCluster(parseFixture(text, f), { seed, controllers: CONTROLLERS }).snapshot();
      writeFileSync(join(outDir, `${prebuiltKey(text, seed)}.json.gz`), gzipSync(JSON.stringify(snap), { level: 6 }));
      n++;
    }
  }
  return n;
}
