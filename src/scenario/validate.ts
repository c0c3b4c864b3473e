/**
 * `cka-lab validate`: prove a scenario in-process. The schema holds; right after setup every
 * check fails (except those declared `passAtStart`, which must pass); after the reference
 * solution and the scenario's `wait` every check passes, and so after each `alternatives` solution;
 * each near-miss mutation fails the checks it names; and no hint gives a solution line away
 * verbatim. Tasks with params are proved on every VALIDATE_SEEDS draw.
 */
import { ScenarioSchema, type Scenario } from './schema.js';
import { instantiate, type Instance } from './instance.js';
import { setupSession, type FixtureCache } from './session.js';
import type { GradeReport } from './grade.js';
import { proveRuns, runsOf, type RunEnd } from './validate-runs.js';
import { LANGS, textFor, textLangs, type Text } from './text.js';
import { parseDuration } from '../sim/fixture/build.js';

export interface ValidationResult {
  id: string;
  ok: boolean;
  /** Failures: each one makes the scenario invalid. */
  problems: string[];
  /** Worth fixing, not fatal (missing translations). */
  warnings: string[];
  untouched?: GradeReport;
  solved?: GradeReport;
  /** Reports of the first seed's runs. */
  mutations: { id: string; report: GradeReport }[];
  alternatives: { name: string; report: GradeReport }[];
}

export interface ValidateOptions {
  /** Seeds to prove the scenario with (params differ per seed); seedsFor(scenario) by default. */
  seeds?: number[];
  fixtureCache?: FixtureCache;
}

/** Lines a hint may mention freely: moving between hosts says nothing about the answer. */
const TRIVIAL = /^(ssh \S+|exit|sudo -i|sudo su|cd \S*|ls( \S+)?)$/;

export function hintLeaks(inst: Instance): string[] {
  const lines = inst.resolved.solution.map((l) => l.trim()).filter((l) => l.length >= 12 && !TRIVIAL.test(l));
  const out: string[] = [];
  inst.resolved.hints.forEach((h, i) => {
    for (const lang of textLangs(h))
      for (const l of lines) if (textFor(h, lang).includes(l)) out.push(`hint ${i + 1} (${lang}) contains the solution line \`${l}\``);
  });
  return out;
}

export function missingLangs(s: Scenario): string[] {
  const texts: [string, Text][] = [
    ['title', s.title],
    ['task', s.task],
    ['explanation', s.explanation],
    ...s.hints.map((h, i): [string, Text] => [`hints[${i}]`, h]),
    ...s.checks.map((c): [string, Text] => [`checks.${c.id}.description`, c.description]),
  ];
  const out: string[] = [];
  for (const [where, t] of texts) {
    const missing = LANGS.filter((l) => !textLangs(t).includes(l));
    if (missing.length > 0) out.push(`${where}: no ${missing.join(', ')} text`);
  }
  return out;
}

function failingOf(r: GradeReport): string[] {
  return r.checks.filter((c) => !c.ok).map((c) => c.id);
}

/** The parameter draws validate proves a task with (only tasks with `params` differ by seed). */
export const VALIDATE_SEEDS: readonly number[] = [1, 2, 3];

/** Seeds for a scenario: every VALIDATE_SEEDS draw when it has params, else seed 1 alone. */
export function seedsFor(scenario: Scenario): number[] {
  return Object.keys(scenario.params).length > 0 ? [...VALIDATE_SEEDS] : [1];
}

export async function validateScenario(scenario: Scenario, opts: ValidateOptions = {}): Promise<ValidationResult> {
  const { source: _source, ...plain } = scenario as Scenario & { source?: string };
  const res: ValidationResult = { id: scenario.id, ok: false, problems: [], warnings: [], mutations: [], alternatives: [] };
  const parsed = ScenarioSchema.safeParse(plain);
  if (!parsed.success) {
    res.problems.push(...parsed.error.issues.map((i) => `schema: ${i.path.join('.')}: ${i.message}`));
    return res;
  }
  res.warnings.push(...missingLangs(scenario));
  const cache = opts.fixtureCache ? { fixtureCache: opts.fixtureCache } : {};
  const seeds = opts.seeds ?? seedsFor(scenario);
  for (const seed of seeds) {
    let inst: Instance;
    try {
      inst = instantiate(scenario, seed);
    } catch (e) {
      res.problems.push(`params: ${(e as Error).message}`);
      return res;
    }
    const tag = seeds.length > 1 ? ` (seed ${seed})` : '';
    const first = seed === seeds[0];
    res.problems.push(...hintLeaks(inst).map((p) => p + tag));
    const wait = parseDuration(inst.resolved.wait);
    const passAtStart = new Set(inst.resolved.checks.filter((c) => c.passAtStart).map((c) => c.id));
    const fails = (r: GradeReport, what: string): void => {
      for (const c of r.checks) if (!c.ok) res.problems.push(`${what}${tag}: check ${c.id} fails after the ${what === 'solved' ? 'solution' : what}: ${c.detail}`);
    };
    let r0: GradeReport;
    const runs = runsOf(inst);
    let ends: RunEnd[];
    try {
      // untouched: setup runs once; every run starts from its state (proveRuns copies it first)
      ({ untouched: r0, ends } = await proveRuns(inst, await setupSession(inst, cache), runs, wait));
    } catch (e) {
      res.problems.push(`${(e as Error).message}${tag}`);
      continue;
    }
    if (first) res.untouched = r0;
    // guards pass untouched but earn nothing until the task's own checks do (grade.ts guardsCount)
    if (r0.score !== 0) res.problems.push(`untouched${tag}: scores ${r0.score} of ${r0.max} points; an untouched task must score 0`);
    for (const c of r0.checks) {
      if (c.ok && !passAtStart.has(c.id)) res.problems.push(`untouched${tag}: check ${c.id} already passes (${c.detail}); declare passAtStart: true if intended`);
      if (!c.ok && passAtStart.has(c.id)) res.problems.push(`untouched${tag}: check ${c.id} is declared passAtStart but fails: ${c.detail}`);
    }
    // the runs' findings in the order they are listed (solution, alternatives, mutations), as if
    // each had run on its own: a run that threw ends the seed's findings where it threw
    for (const [k, run] of runs.entries()) {
      const end = ends[k]!;
      for (const [i, line] of run.lines.entries()) {
        const r = end.lines[i];
        if (r === undefined) break;
        if (run.what !== undefined && r.exitCode !== 0) res.problems.push(`${run.what}${tag}: \`${line}\` exited ${r.exitCode}: ${(r.stderr || r.stdout).trim().split('\n')[0] ?? ''}`);
      }
      if (end.error !== undefined) {
        res.problems.push(`${(end.error as Error).message}${tag}`);
        break;
      }
      const report = end.report!;
      if (run.kind === 'solution') {
        if (first) res.solved = report;
        fails(report, 'solved');
      } else if (run.kind === 'alternative') {
        if (first) res.alternatives.push({ name: run.name, report });
        fails(report, `alternative ${run.name}`);
      } else {
        if (first) res.mutations.push({ id: run.name, report });
        const failing = failingOf(report);
        for (const f of run.fails!) if (!failing.includes(f)) res.problems.push(`mutation ${run.name}${tag}: check ${f} should fail but passes`);
      }
    }
  }
  res.ok = res.problems.length === 0;
  return res;
}
