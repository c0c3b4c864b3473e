/**
 * History aggregation for `cka-lab history`: per-domain strength (points scored over points
 * possible, across all graded attempts), topics ranked weakest first, and the average time per
 * task against its target. Pure: takes the progress record, returns numbers. Exam tasks never
 * worked on (`attempted: false`) count in their exam's score only.
 */
import { wasAttempted, type Attempt, type Progress } from './progress.js';

export interface Strength {
  name: string;
  attempts: number;
  score: number;
  max: number;
  /** Whole percent, 0 when nothing was possible. */
  percent: number;
}

export interface TaskTime {
  scenario: string;
  attempts: number;
  /** Mean seconds per attempt. */
  meanSeconds: number;
  targetMinutes: number;
  /** meanSeconds / (targetMinutes × 60), rounded to 2 decimals. */
  ratio: number;
}

export interface HistorySummary {
  attempts: number;
  exams: number;
  domains: Strength[];
  /** Weakest first (then fewer attempts first, then by name). */
  topics: Strength[];
  times: TaskTime[];
  /** What to practise next: the weakest topics under 80 %. */
  practiseNext: string[];
}

function pct(score: number, max: number): number {
  return max > 0 ? Math.round((100 * score) / max) : 0;
}

function strengths(attempts: readonly Attempt[], keys: (a: Attempt) => string[]): Strength[] {
  const m = new Map<string, Strength>();
  for (const a of attempts) {
    for (const k of keys(a)) {
      const s = m.get(k) ?? { name: k, attempts: 0, score: 0, max: 0, percent: 0 };
      s.attempts++;
      s.score += a.score;
      s.max += a.max;
      m.set(k, s);
    }
  }
  for (const s of m.values()) {
    // task points come in tenths: keep the sums free of float dust
    s.score = Math.round(10 * s.score) / 10;
    s.max = Math.round(10 * s.max) / 10;
    s.percent = pct(s.score, s.max);
  }
  return [...m.values()];
}

const weakestFirst = (a: Strength, b: Strength): number => a.percent - b.percent || a.attempts - b.attempts || a.name.localeCompare(b.name);

export function summarise(p: Progress): HistorySummary {
  // an exam task never worked on is listed as "not attempted"; it is no evidence of time or strength
  const worked = p.attempts.filter(wasAttempted);
  const domains = strengths(worked, (a) => [a.domain]).sort(weakestFirst);
  const topics = strengths(worked, (a) => (a.topics.length ? a.topics : [a.domain])).sort(weakestFirst);
  const byScenario = new Map<string, Attempt[]>();
  for (const a of worked) byScenario.set(a.scenario, [...(byScenario.get(a.scenario) ?? []), a]);
  const times: TaskTime[] = [...byScenario.entries()]
    .map(([scenario, as]) => {
      const meanSeconds = Math.round(as.reduce((t, a) => t + a.seconds, 0) / as.length);
      const targetMinutes = as[as.length - 1]!.targetMinutes;
      return { scenario, attempts: as.length, meanSeconds, targetMinutes, ratio: targetMinutes > 0 ? Math.round((100 * meanSeconds) / (targetMinutes * 60)) / 100 : 0 };
    })
    .sort((a, b) => b.ratio - a.ratio || a.scenario.localeCompare(b.scenario));
  return {
    attempts: p.attempts.length,
    exams: p.exams.length,
    domains,
    topics,
    times,
    practiseNext: topics.filter((t) => t.percent < 80).slice(0, 3).map((t) => t.name),
  };
}
