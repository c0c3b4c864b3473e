/**
 * The exam in progress, `<data>/exam.json`: which tasks were drawn (scenario id and seed), each
 * task's session (cluster and shell) as the learner last left it, flags, time spent per task,
 * which alerts were shown, and the real time it started. Saved after every command, so an exam
 * survives quit and crash, and the timer keeps wall time across both.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionData } from '../shell/session.js';
import { readJsonVersioned, writeJsonAtomic, type ReadResult } from './jsonfile.js';

/** 2: the task sessions hold version-2 cluster snapshots or later (sim/cluster.ts SNAPSHOT_VERSION). */
export const EXAM_SCHEMA = 2;

export interface ExamTaskState {
  scenario: string;
  seed: number;
  session: SessionData;
  flagged: boolean;
  /** Real milliseconds spent with this task open. */
  spentMs: number;
  /** Real time of the last save of this task's session (its clock continues from there). */
  savedAt: number;
  /** The learner ran a command or gave an answer in this task (absent in older files: see taskWorked). */
  worked?: boolean;
}

/** Whether the learner worked on a task; files from before `worked` fall back to time spent on it. */
export function taskWorked(t: Pick<ExamTaskState, 'worked' | 'spentMs'>): boolean {
  return t.worked ?? t.spentMs > 0;
}

export interface ExamState {
  schema: number;
  id: string;
  seed: number;
  minutes: number;
  startedAt: number;
  current: number;
  /** Real time the current task was opened. */
  openedAt: number;
  /** Alert thresholds (minutes left) already announced. */
  alerts: number[];
  tasks: ExamTaskState[];
}

function checkShape(v: unknown): string | undefined {
  const e = v as Partial<ExamState>;
  if (typeof e.id !== 'string' || typeof e.startedAt !== 'number' || typeof e.minutes !== 'number' || !Array.isArray(e.tasks)) return 'missing id, startedAt, minutes or tasks';
  if (typeof e.current !== 'number' || e.current < 0 || e.current >= e.tasks.length) return 'current task out of range';
  return undefined;
}

export class ExamStore {
  constructor(
    readonly dir: string,
    private readonly realNow: () => number,
  ) {}

  get path(): string {
    return join(this.dir, 'exam.json');
  }

  read(): ReadResult<ExamState> {
    return readJsonVersioned<ExamState>(this.path, EXAM_SCHEMA, checkShape, this.realNow());
  }

  save(state: ExamState): void {
    writeJsonAtomic(this.path, state);
  }

  /** The exam is over: its record lives on in progress.json and `exams/<id>.json` (for review). */
  finish(state: ExamState, review: unknown): void {
    writeJsonAtomic(join(this.dir, 'exams', `${state.id}.json`), review);
    rmSync(this.path, { force: true });
  }
}
