/**
 * `cka-lab validate`: prove a scenario in-process. The schema holds; right after setup every
 * check fails (except those declared `passAtStart`, which must pass); after the reference
 * solution and the scenario's `wait` every check passes, and so after each `alternatives` solution;
 * each near-miss mutation fails the checks it names; and no hint gives a solution line away
 * verbatim. Tasks with params are proved on every VALIDATE_SEEDS draw.
 */
import { ScenarioSchema, type Scenario } from './schema.js';
import { instantiate, type Instance } from './instance.js';
import { copier, setupSession, type FixtureCache } from './session.js';
import { grade, type GradeReport } from './grade.js';
import { recordAnswer } from './answers.js';
import { LANGS, textFor, textLangs, type Text } from './text.js';
import { parseDuration } from '../sim/fixture/build.js';
import { Session } from '../shell/session.js';

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

/**
 * One line as the learner types it. `answer TEXT` is a meta command of the practice and exam prompt
 * (ui/practice.ts, ui/exam.ts), not a shell command: a solution, alternative or mutation that types it
 * records the answer as that prompt does, so `answer` checks can be proven both ways (typed or file).
 */
async function runLine(session: Session, line: string): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const typed = /^answer\s+(\S[\s\S]*)$/.exec(line.trim());
  if (!typed) return session.exec(line);
  recordAnswer(session, typed[1]!);
  return { exitCode: 0, stdout: '', stderr: '' };
}

async function runLines(session: Session, lines: readonly string[], problems: string[], what: string): Promise<void> {
  for (const line of lines) {
    const r = await runLine(session, line);
    if (r.exitCode !== 0) problems.push(`${what}: \`${line}\` exited ${r.exitCode}: ${(r.stderr || r.stdout).trim().split('\n')[0] ?? ''}`);
  }
}

function failingOf(r: GradeReport): string[] {
  return r.checks.filter((c) => !c.ok).map((c) => c.id);
}

/** Each run's session is graded and then thrown away: no copy of it is needed. */
const IN_PLACE = { inPlace: true } as const;

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
    try {
      // untouched: setup runs once; every other run starts from its restored state
      const s0 = await setupSession(inst, cache);
      const afterSolution = inst.resolved.mutations.filter((m) => m.after === 'solution').length;
      const fresh = copier(s0, true, 1 + inst.resolved.alternatives.length + inst.resolved.mutations.length - afterSolution);
      const r0 = await grade(inst, s0, IN_PLACE);
      if (first) res.untouched = r0;
      // guards pass untouched but earn nothing until the task's own checks do (grade.ts guardsCount)
      if (r0.score !== 0) res.problems.push(`untouched${tag}: scores ${r0.score} of ${r0.max} points; an untouched task must score 0`);
      for (const c of r0.checks) {
        if (c.ok && !passAtStart.has(c.id)) res.problems.push(`untouched${tag}: check ${c.id} already passes (${c.detail}); declare passAtStart: true if intended`);
        if (!c.ok && passAtStart.has(c.id)) res.problems.push(`untouched${tag}: check ${c.id} is declared passAtStart but fails: ${c.detail}`);
      }
      // reference solution
      const s1 = fresh();
      await runLines(s1, inst.resolved.solution, res.problems, `solution${tag}`);
      const solved = afterSolution > 0 ? copier(s1, true, afterSolution) : fresh;
      s1.cluster.advance(wait);
      const r1 = await grade(inst, s1, IN_PLACE);
      if (first) res.solved = r1;
      fails(r1, 'solved');
      // other correct solutions
      for (const a of inst.resolved.alternatives) {
        const sa = fresh();
        await runLines(sa, a.run, res.problems, `alternative ${a.name}${tag}`);
        sa.cluster.advance(wait);
        const ra = await grade(inst, sa, IN_PLACE);
        if (first) res.alternatives.push({ name: a.name, report: ra });
        fails(ra, `alternative ${a.name}`);
      }
      // near misses
      for (const m of inst.resolved.mutations) {
        const sm = m.after === 'solution' ? solved() : fresh();
        await runLines(sm, m.run, [], `mutation ${m.id}`);
        sm.cluster.advance(wait);
        // only what validate asks of a near miss: the checks it names fail
        const rm = await grade(inst, sm, { ...IN_PLACE, only: new Set(m.fails) });
        if (first) res.mutations.push({ id: m.id, report: rm });
        const failing = failingOf(rm);
        for (const f of m.fails) if (!failing.includes(f)) res.problems.push(`mutation ${m.id}${tag}: check ${f} should fail but passes`);
      }
    } catch (e) {
      res.problems.push(`${(e as Error).message}${tag}`);
    }
  }
  res.ok = res.problems.length === 0;
  return res;
}
