/**
 * `cka-lab validate`: prove a scenario in-process. The schema holds; right after setup every
 * check fails (except those declared `passAtStart`, which must pass); after the reference
 * solution and the scenario's `wait` every check passes; each near-miss mutation fails the checks
 * it names; and no hint gives a solution line away verbatim.
 */
import { ScenarioSchema, type Scenario } from './schema.js';
import { instantiate, type Instance } from './instance.js';
import { setupSession, type FixtureCache } from './session.js';
import { grade, type GradeReport } from './grade.js';
import { LANGS, textFor, textLangs, type Text } from './text.js';
import { parseDuration } from '../sim/fixture/build.js';
import type { Session } from '../shell/session.js';

export interface ValidationResult {
  id: string;
  ok: boolean;
  /** Failures: each one makes the scenario invalid. */
  problems: string[];
  /** Worth fixing, not fatal (missing translations). */
  warnings: string[];
  untouched?: GradeReport;
  solved?: GradeReport;
  mutations: { id: string; report: GradeReport }[];
}

export interface ValidateOptions {
  /** Seeds to prove the scenario with (params differ per seed); [1] by default. */
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

function missingLangs(s: Scenario): string[] {
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

async function runLines(session: Session, lines: readonly string[], problems: string[], what: string): Promise<void> {
  for (const line of lines) {
    const r = await session.exec(line);
    if (r.exitCode !== 0) problems.push(`${what}: \`${line}\` exited ${r.exitCode}: ${(r.stderr || r.stdout).trim().split('\n')[0] ?? ''}`);
  }
}

function failingOf(r: GradeReport): string[] {
  return r.checks.filter((c) => !c.ok).map((c) => c.id);
}

export async function validateScenario(scenario: Scenario, opts: ValidateOptions = {}): Promise<ValidationResult> {
  const { source: _source, ...plain } = scenario as Scenario & { source?: string };
  const res: ValidationResult = { id: scenario.id, ok: false, problems: [], warnings: [], mutations: [] };
  const parsed = ScenarioSchema.safeParse(plain);
  if (!parsed.success) {
    res.problems.push(...parsed.error.issues.map((i) => `schema: ${i.path.join('.')}: ${i.message}`));
    return res;
  }
  res.warnings.push(...missingLangs(scenario));
  const cache = opts.fixtureCache ? { fixtureCache: opts.fixtureCache } : {};
  for (const seed of opts.seeds ?? [1]) {
    let inst: Instance;
    try {
      inst = instantiate(scenario, seed);
    } catch (e) {
      res.problems.push(`params: ${(e as Error).message}`);
      return res;
    }
    const tag = (opts.seeds?.length ?? 1) > 1 ? ` (seed ${seed})` : '';
    res.problems.push(...hintLeaks(inst).map((p) => p + tag));
    const wait = parseDuration(inst.resolved.wait);
    const passAtStart = new Set(inst.resolved.checks.filter((c) => c.passAtStart).map((c) => c.id));
    try {
      // untouched
      const s0 = await setupSession(inst, cache);
      const r0 = await grade(inst, s0);
      res.untouched = r0;
      for (const c of r0.checks) {
        if (c.ok && !passAtStart.has(c.id)) res.problems.push(`untouched${tag}: check ${c.id} already passes (${c.message}); declare passAtStart: true if intended`);
        if (!c.ok && passAtStart.has(c.id)) res.problems.push(`untouched${tag}: check ${c.id} is declared passAtStart but fails: ${c.message}`);
      }
      // reference solution
      const s1 = await setupSession(inst, cache);
      await runLines(s1, inst.resolved.solution, res.problems, `solution${tag}`);
      s1.cluster.advance(wait);
      const r1 = await grade(inst, s1);
      res.solved = r1;
      for (const c of r1.checks) if (!c.ok) res.problems.push(`solved${tag}: check ${c.id} fails after the solution: ${c.message}`);
      // near misses
      for (const m of inst.resolved.mutations) {
        const sm = await setupSession(inst, cache);
        if (m.after === 'solution') await runLines(sm, inst.resolved.solution, [], 'solution');
        await runLines(sm, m.run, [], `mutation ${m.id}`);
        sm.cluster.advance(wait);
        const rm = await grade(inst, sm);
        res.mutations.push({ id: m.id, report: rm });
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
