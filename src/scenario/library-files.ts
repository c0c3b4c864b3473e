/**
 * The light half of loading the library: list the files, look each one up in the build-time index
 * (library-index.ts) and assemble the library (domain folder and duplicate-id rules). It imports
 * nothing but node:, so `cka-lab list` and `show` load the YAML parser, the zod schema and the
 * check kinds (which pull in the simulation) only when some file's text the index does not know
 * has to be parsed: an edited or new scenario is parsed, never served stale.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Scenario } from './schema.js';

export const INDEX_FILE = 'scenario-index.json';
/** The catalogue fields of each indexed scenario (library-index.ts summaryOf), for `cka-lab list`. */
export const SUMMARY_FILE = 'scenario-summaries.json';
export const INDEX_VERSION = 1;

export interface ScenarioIndex {
  version: number;
  /** Parsed scenario (without its `source`) by the SHA-256 hex of the file's text. */
  entries: Record<string, Scenario>;
}

export interface LoadError {
  file: string;
  line: number;
  column: number;
  message: string;
}

export interface LoadedScenario extends Scenario {
  /** Where it was loaded from (for messages). */
  source: string;
}

/**
 * Already-parsed scenarios by file text (the build-time index): a file whose text it knows is not
 * parsed again.
 */
export type KnownScenario = (text: string) => Scenario | undefined;

export function formatLoadError(e: LoadError): string {
  return `${e.file}:${e.line}:${e.column}: ${e.message}`;
}

export function textKey(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The index at `path`, or undefined when it is missing, unreadable or of another version. */
export function readIndex(path: string | URL): ScenarioIndex | undefined {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<ScenarioIndex>;
    if (data.version !== INDEX_VERSION || typeof data.entries !== 'object' || data.entries === null) return undefined;
    return data as ScenarioIndex;
  } catch {
    return undefined;
  }
}

/** The loader's lookup for an index (none without one). */
export function knownFrom(index: ScenarioIndex | undefined): KnownScenario | undefined {
  if (!index) return undefined;
  return (text) => {
    const key = textKey(text);
    return Object.hasOwn(index.entries, key) ? index.entries[key] : undefined;
  };
}

/** Every *.yaml / *.yml under `dir`, depth first, in name order. */
export function yamlFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return yamlFiles(p);
    return /\.ya?ml$/.test(n) ? [p] : [];
  });
}

/** One file's outcome: the scenario, or the problems that kept it out. */
export type FileResult = { file: string; scenario: LoadedScenario } | { file: string; errors: LoadError[] };

/**
 * The library from per-file outcomes, in file order: a file whose folder is not its domain, or
 * whose id an earlier file already has, is reported and skipped.
 */
export function assembleLibrary(dir: string, results: readonly FileResult[]): { scenarios: LoadedScenario[]; errors: LoadError[] } {
  const scenarios: LoadedScenario[] = [];
  const errors: LoadError[] = [];
  const byId = new Map<string, string>();
  for (const r of results) {
    if ('errors' in r) {
      errors.push(...r.errors);
      continue;
    }
    const { file, scenario: s } = r;
    const rel = relative(dir, file).split(/[\\/]/);
    if (rel.length === 2 && rel[0] !== s.domain) {
      errors.push({ file, line: 1, column: 1, message: `domain "${s.domain}" but the file is in ${rel[0]}/ (move it to scenarios/${s.domain}/)` });
      continue;
    }
    const prev = byId.get(s.id);
    if (prev) {
      errors.push({ file, line: 1, column: 1, message: `duplicate id "${s.id}" (also in ${prev})` });
      continue;
    }
    byId.set(s.id, file);
    scenarios.push(s);
  }
  return { scenarios, errors };
}

/** A file's text, or the read error as a load error. */
export function readScenarioText(file: string): { text: string } | { errors: LoadError[] } {
  try {
    return { text: readFileSync(file, 'utf8') };
  } catch (e) {
    return { errors: [{ file, line: 1, column: 1, message: (e as Error).message }] };
  }
}

/**
 * Load the library under `dir` through the index: files the index knows are taken from it; the
 * parser (loader.ts, with the YAML package, the schema and everything the check kinds import) is
 * imported only when some file is not known. Same result as loader.ts's loadLibrary(dir, known).
 */
export async function loadLibraryIndexed(dir: string, index: ScenarioIndex | undefined): Promise<{ scenarios: LoadedScenario[]; errors: LoadError[] }> {
  const known = knownFrom(index);
  const results: FileResult[] = [];
  const misses: { at: number; file: string; text: string }[] = [];
  for (const file of yamlFiles(dir)) {
    const t = readScenarioText(file);
    if ('errors' in t) {
      results.push({ file, errors: t.errors });
      continue;
    }
    const hit = known?.(t.text);
    if (hit) results.push({ file, scenario: { ...hit, source: file } });
    else {
      misses.push({ at: results.length, file, text: t.text });
      results.push({ file, errors: [] });
    }
  }
  if (misses.length > 0) {
    const { parseScenario } = await import('./loader.js');
    for (const m of misses) {
      const r = parseScenario(m.text, m.file);
      results[m.at] = 'errors' in r ? { file: m.file, errors: r.errors } : { file: m.file, scenario: r.scenario };
    }
  }
  return assembleLibrary(dir, results);
}
