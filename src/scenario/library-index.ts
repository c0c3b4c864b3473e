/**
 * A build-time index of the scenario library: each file's parsed and schema-checked scenario,
 * keyed by the SHA-256 of its text. Parsing YAML and checking it against the schema is most of
 * what `cka-lab list`, `exam` and `practice` spend before their first line (117 files: ~1.5 s of
 * CPU); with the index, loading reads and hashes the files and parses only those whose text the
 * index does not know, so an edited or new scenario is never served stale. The bundle step
 * (scripts/bundle.mjs) writes the index beside the bundle's chunks, so only code built in the same
 * step reads it; runs from source (tsx, tests) find none and parse everything.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadLibrary } from './loader.js';
import { INDEX_VERSION, textKey, type ScenarioIndex } from './library-files.js';
import type { Scenario } from './schema.js';

export { INDEX_FILE, readIndex, knownFrom, textKey, type ScenarioIndex } from './library-files.js';

/** The index of every file under `dir` that loads without errors. */
export function buildIndex(dir: string): ScenarioIndex {
  const entries: Record<string, Scenario> = {};
  for (const s of loadLibrary(dir).scenarios) {
    const { source, ...scenario } = s;
    entries[textKey(readFileSync(source, 'utf8'))] = scenario;
  }
  return { version: INDEX_VERSION, entries };
}

export function writeIndex(dir: string, path: string): number {
  const index = buildIndex(dir);
  writeFileSync(path, JSON.stringify(index));
  return Object.keys(index.entries).length;
}
