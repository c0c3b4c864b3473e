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

export { INDEX_FILE, SUMMARY_FILE, readIndex, knownFrom, textKey, type ScenarioIndex } from './library-files.js';
import { SUMMARY_FILE } from './library-files.js';
export { writePrebuilt, PREBUILT_DIR } from './prebuilt.js';
import { dirname, join } from 'node:path';

/** The index of every file under `dir` that loads without errors. */
export function buildIndex(dir: string): ScenarioIndex {
  const entries: Record<string, Scenario> = {};
  for (const s of loadLibrary(dir).scenarios) {
    const { source, ...scenario } = s;
    entries[textKey(readFileSync(source, 'utf8'))] = scenario;
  }
  return { version: INDEX_VERSION, entries };
}

/**
 * What `cka-lab list` reads of a scenario: its identity and catalogue fields, and the languages its
 * task text comes in (the texts themselves emptied). A tenth of the full index, so listing the
 * library does not parse every task's setup, checks and solutions.
 */
export function summaryOf(s: Scenario): Scenario {
  const keysOnly = (t: unknown): Record<string, string> => Object.fromEntries(Object.keys(typeof t === 'string' ? { en: t } : (t as object)).map((k) => [k, '']));
  const { id, title, domain, competency, topics, family, difficulty, weight, minutes, fixture } = s;
  return { id, title, task: keysOnly(s.task), domain, competency, topics, ...(family !== undefined ? { family } : {}), difficulty, weight, minutes, fixture } as unknown as Scenario;
}

/** Writes the index to `path` and the summaries beside it (SUMMARY_FILE); returns the entry count. */
export function writeIndex(dir: string, path: string): number {
  const index = buildIndex(dir);
  writeFileSync(path, JSON.stringify(index));
  const summaries = { version: index.version, entries: Object.fromEntries(Object.entries(index.entries).map(([k, v]) => [k, summaryOf(v)])) };
  writeFileSync(join(dirname(path), SUMMARY_FILE), JSON.stringify(summaries));
  return Object.keys(index.entries).length;
}
