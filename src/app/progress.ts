/**
 * The learner's record: every graded attempt (practice, self-check, exam task) and every exam,
 * in `<data>/progress.json` with a schema version, rewritten atomically. A corrupt file is
 * reported and set aside (`progress.json.corrupt-<timestamp>`) and a fresh record begins; nothing
 * is dropped silently.
 */
import { join } from 'node:path';
import { readJsonVersioned, writeJsonAtomic } from './jsonfile.js';

export const PROGRESS_SCHEMA = 1;

export type AttemptMode = 'practice' | 'check' | 'exam';

export interface Attempt {
  scenario: string;
  domain: string;
  topics: string[];
  mode: AttemptMode;
  /** Real time, ms since epoch. */
  startedAt: number;
  endedAt: number;
  /** Time spent on the task, seconds. */
  seconds: number;
  targetMinutes: number;
  score: number;
  max: number;
  /** The learner looked at the solution. */
  assisted: boolean;
  /**
   * false: an exam task the learner never worked on (no command, no answer). It scored 0 in its
   * exam but says nothing of time or strength; history shows it as "not attempted". Absent: attempted.
   */
  attempted?: boolean;
  /** Set for exam tasks. */
  exam?: string;
}

/** The attempt was worked on (every practice and self-check attempt; exam tasks with a command or answer). */
export function wasAttempted(a: Pick<Attempt, 'attempted'>): boolean {
  return a.attempted !== false;
}

export interface ExamTaskRecord {
  scenario: string;
  domain: string;
  score: number;
  max: number;
  seconds: number;
  targetMinutes: number;
  flagged: boolean;
  /** false: never worked on (see Attempt.attempted). */
  attempted?: boolean;
}

export interface ExamRecord {
  id: string;
  startedAt: number;
  endedAt: number;
  minutes: number;
  tasks: ExamTaskRecord[];
  score: number;
  max: number;
  percent: number;
  passed: boolean;
}

export interface Progress {
  schema: number;
  attempts: Attempt[];
  exams: ExamRecord[];
}

export function emptyProgress(): Progress {
  return { schema: PROGRESS_SCHEMA, attempts: [], exams: [] };
}

function checkShape(v: unknown): string | undefined {
  const p = v as Partial<Progress>;
  if (!Array.isArray(p.attempts) || !Array.isArray(p.exams)) return 'missing attempts or exams';
  for (const a of p.attempts) {
    const x = a as Partial<Attempt> | null;
    if (!x || typeof x.scenario !== 'string' || typeof x.score !== 'number' || typeof x.max !== 'number') return 'an attempt lacks scenario, score or max';
  }
  return undefined;
}

export class ProgressStore {
  /** Set when load() found a corrupt file: what to tell the user. */
  warning: string | undefined;

  constructor(
    readonly dir: string,
    private readonly realNow: () => number,
  ) {}

  get path(): string {
    return join(this.dir, 'progress.json');
  }

  load(): Progress {
    const r = readJsonVersioned<Progress>(this.path, PROGRESS_SCHEMA, checkShape, this.realNow());
    if (r.status === 'ok') return r.data;
    if (r.status === 'corrupt') this.warning = `progress file could not be read (${r.reason}); it was moved to ${r.movedTo} and a new record begins`;
    return emptyProgress();
  }

  save(p: Progress): void {
    writeJsonAtomic(this.path, p);
  }

  /** Read, change, write. */
  update(fn: (p: Progress) => void): Progress {
    const p = this.load();
    fn(p);
    this.save(p);
    return p;
  }
}

/** Best score (percent) and attempt count per scenario, for the practice menu's "done/best". */
export function bestByScenario(p: Progress): Map<string, { best: number; attempts: number; done: boolean }> {
  const out = new Map<string, { best: number; attempts: number; done: boolean }>();
  for (const a of p.attempts.filter(wasAttempted)) {
    const pct = a.max > 0 ? Math.round((100 * a.score) / a.max) : 0;
    const cur = out.get(a.scenario) ?? { best: 0, attempts: 0, done: false };
    out.set(a.scenario, { best: Math.max(cur.best, pct), attempts: cur.attempts + 1, done: cur.done || (pct === 100 && !a.assisted) });
  }
  return out;
}
