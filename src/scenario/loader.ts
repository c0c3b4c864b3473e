/**
 * Load scenario files: YAML → the zod schema, with every problem reported as
 * `file:line:column: message` (positions from the `yaml` package's node ranges and LineCounter)
 * and unknown keys answered with the nearest valid key ("did you mean …?").
 */
import { readFileSync } from 'node:fs';
import { LineCounter, isMap, isNode, isPair, isScalar, parseDocument, type Document } from 'yaml';
import type { z } from 'zod/v4';
import { ScenarioSchema, nearestMsg } from './schema.js';
import { discriminatorValues, keysAt } from './schema-walk.js';
import { assembleLibrary, formatLoadError, yamlFiles, type FileResult, type KnownScenario, type LoadError, type LoadedScenario } from './library-files.js';

export { formatLoadError, type KnownScenario, type LoadError, type LoadedScenario };

export class ScenarioLoadError extends Error {
  constructor(readonly errors: LoadError[]) {
    super(errors.map(formatLoadError).join('\n'));
  }
}

type Issue = z.core.$ZodIssue;

/** Parse scenario text; returns the scenario or the list of positioned errors. */
export function parseScenario(text: string, file: string): { scenario: LoadedScenario } | { errors: LoadError[] } {
  // one bad file must never take the library down: too large, an alias bomb or nesting deep
  // enough to exhaust the stack is a located load error like any other
  if (text.length > MAX_SCENARIO_BYTES) return { errors: [{ file, line: 1, column: 1, message: `file is larger than ${MAX_SCENARIO_BYTES / 1024} KiB` }] };
  try {
    return parseChecked(text, file);
  } catch (e) {
    return { errors: [{ file, line: 1, column: 1, message: e instanceof RangeError ? 'nested too deeply' : `cannot be read: ${e instanceof Error ? e.message : String(e)}` }] };
  }
}

/** A scenario is a page of YAML; anything this large is not one. */
const MAX_SCENARIO_BYTES = 512 * 1024;

function parseChecked(text: string, file: string): { scenario: LoadedScenario } | { errors: LoadError[] } {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number, message: string): LoadError => {
    const p = lc.linePos(offset);
    return { file, line: p.line, column: p.col, message };
  };
  if (doc.errors.length > 0) return { errors: doc.errors.map((e) => at(e.pos[0], e.message.split('\n')[0]!)) };
  const data: unknown = doc.toJS({ maxAliasCount: 100 });
  const r = ScenarioSchema.safeParse(data);
  if (r.success) return { scenario: { ...r.data, source: file } };
  const errors = flatten(r.error.issues, [], data).map((i) => at(offsetOf(doc, i.path, i.keyNode), i.message));
  errors.sort((a, b) => a.line - b.line || a.column - b.column);
  return { errors: dedupe(errors) };
}

interface Flat {
  path: PropertyKey[];
  message: string;
  /** Point at this key of the map at `path` rather than at the value. */
  keyNode?: string;
}

/** Turn zod issues into one message per problem, choosing the intended branch of unions. */
function flatten(issues: readonly Issue[], prefix: PropertyKey[], data: unknown): Flat[] {
  const out: Flat[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      const valid = keysAt(ScenarioSchema, data, path);
      for (const k of issue.keys) out.push({ path, keyNode: k, message: `unknown key "${k}"${nearestMsg(k, valid)}` });
    } else if (issue.code === 'invalid_union') {
      out.push(...flattenUnion(issue, path, data));
    } else if (issue.code !== 'custom' && path.length > 0 && valueAt(data, path) === undefined) {
      const key = path[path.length - 1];
      out.push({ path: path.slice(0, -1), message: `missing required key "${String(key)}"` });
    } else if (issue.code === 'invalid_value' && issue.values.length > 1) {
      const got = valueAt(data, path);
      const opts = issue.values.map(String);
      out.push({ path, message: `${pathLabel(path)}: unknown value ${JSON.stringify(got)}${nearestMsg(String(got), opts)}; expected one of ${opts.join(', ')}` });
    } else {
      out.push({ path, message: `${pathLabel(path)}: ${issue.message}` });
    }
  }
  return out;
}

function flattenUnion(issue: Extract<Issue, { code: 'invalid_union' }>, path: PropertyKey[], data: unknown): Flat[] {
  const value = valueAt(data, path);
  if (issue.errors.length === 0) {
    // a discriminated union whose discriminator matched no option: path ends at the discriminator
    const key = path[path.length - 1];
    const parent = path.slice(0, -1);
    const opts = typeof key === 'string' ? discriminatorValues(ScenarioSchema, data, parent, key) : [];
    const got = valueAt(data, path);
    if (got === undefined) return [{ path: parent, message: `missing required key "${String(key)}" (one of ${opts.join(', ')})` }];
    return [{ path, message: `${String(key)}: unknown value ${JSON.stringify(got)}${nearestMsg(String(got), opts)}; expected one of ${opts.join(', ')}` }];
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const valid = keysAt(ScenarioSchema, data, path);
    const unknown = Object.keys(value).filter((k) => !valid.includes(k));
    if (unknown.length > 0) return unknown.map((k) => ({ path, keyNode: k, message: `unknown key "${k}"${nearestMsg(k, valid)}` }));
  }
  // the branch that got furthest: fewest issues, preferring those without unknown keys
  // a branch is off target when its own top-level keys are wrong (unknown or missing), not deeper ones
  const offTarget = (e: Issue): boolean =>
    (e.code === 'unrecognized_keys' && e.path.length === 0) || (e.path.length <= 1 && valueAt(value, e.path) === undefined) || (e.code === 'invalid_type' && e.path.length === 0);
  const score = (errs: readonly Issue[]): number => errs.length + errs.filter(offTarget).length * 100;
  const best = [...issue.errors].sort((a, b) => score(a) - score(b))[0] ?? [];
  if (best.length === 0 || score(best) >= 100) return [{ path, message: `${pathLabel(path)}: not a valid value here (see docs/scenarios.md)` }];
  return flatten(best, path, data);
}

function pathLabel(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(document)' : path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let cur = data;
  for (const k of path) {
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[k];
  }
  return cur;
}

/** Source offset of the node at `path` (or of one key of the map there); the nearest existing ancestor otherwise. */
function offsetOf(doc: Document, path: readonly PropertyKey[], keyNode?: string): number {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as unknown[], true);
    if (!isNode(node)) continue;
    if (n === path.length && keyNode !== undefined && isMap(node)) {
      const pair = node.items.find((it) => isPair(it) && isScalar(it.key) && String(it.key.value) === keyNode);
      if (pair && isNode(pair.key) && pair.key.range) return pair.key.range[0];
    }
    if (node.range) return node.range[0];
  }
  return 0;
}

function dedupe(errors: LoadError[]): LoadError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const k = formatLoadError(e);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Load one file; throws ScenarioLoadError with every problem found. */
export function loadScenarioFile(path: string, known?: KnownScenario): LoadedScenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ScenarioLoadError([{ file: path, line: 1, column: 1, message: (e as Error).message }]);
  }
  const hit = known?.(text);
  if (hit) return { ...hit, source: path };
  const r = parseScenario(text, path);
  if ('errors' in r) throw new ScenarioLoadError(r.errors);
  return r.scenario;
}

/**
 * Load every scenarios/<domain>/<id>.yaml under `dir`. A file that fails to load is reported and
 * skipped; so are duplicate ids and files whose folder is not their domain.
 */
export function loadLibrary(dir = 'scenarios', known?: KnownScenario): { scenarios: LoadedScenario[]; errors: LoadError[] } {
  const results = yamlFiles(dir).map((file): FileResult => {
    try {
      return { file, scenario: loadScenarioFile(file, known) };
    } catch (e) {
      if (e instanceof ScenarioLoadError) return { file, errors: e.errors };
      throw e;
    }
  });
  return assembleLibrary(dir, results);
}
