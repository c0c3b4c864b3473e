/**
 * `cka-lab exam [--tasks 17] [--minutes M] [--seed N] [--lang L]`: resume the exam in progress
 * (its timer kept running), or draw a new one stratified by domain weight, set every task up on
 * its own cluster, and run it. Without --minutes the time is the real exam's pace (120 minutes
 * for 17 tasks) for the number of tasks drawn. Without a terminal, meta-commands and shell lines come from stdin.
 */
import { ExamStore, EXAM_SCHEMA, type ExamState } from '../app/exam-store.js';
import { ProgressStore } from '../app/progress.js';
import { WallClock } from '../app/wallclock.js';
import { DOMAINS, instantiate, setupSession, stratifiedDraw } from '../scenario/index.js';
import { Random } from '../util/random.js';
import { EXAM_META, PASS_PERCENT, runExam } from '../ui/exam.js';
import { theme, clockText } from '../ui/theme.js';
import type { LineSource } from '../ui/input.js';
import { taskSessionStore } from './task-store.js';
import { CliError, type CliIo } from './io.js';
import { editorFor, envOf, lineSource } from './context.js';
import { freshSeed, langOf, library } from './library.js';
import { messages } from '../ui/messages.js';

/** The real exam's pace: 120 minutes for 17 tasks. */
export const EXAM_PACE = { minutes: 120, tasks: 17 } as const;

/** The time limit for `tasks` tasks at the real exam's pace, in whole minutes (at least 1). */
export function examMinutes(tasks: number): number {
  return Math.max(1, Math.round((EXAM_PACE.minutes * tasks) / EXAM_PACE.tasks));
}

export interface ExamFlags {
  tasks: number;
  /** Unset: the real exam's pace for the tasks drawn. */
  minutes?: number;
  seed?: number;
  lang?: string;
}

export async function examCommand(o: ExamFlags, io: CliIo): Promise<number> {
  const env = envOf(io);
  const lang = langOf(o.lang, io);
  const say = messages(lang).exam;
  const store = new ExamStore(env.data, io.realNow);
  const progress = new ProgressStore(env.data, io.realNow);
  progress.load();
  if (progress.warning) io.stderr.write(`cka-lab: ${progress.warning}\n`);
  const scenarios = await library(io);
  const byId = new Map(scenarios.map((s) => [s.id, s]));
  const prev = store.read();
  let state: ExamState;
  if (prev.status === 'ok') {
    state = prev.data;
    io.stdout.write(`${say.resuming(new Date(state.startedAt).toISOString(), clockText(state.minutes * 60_000 - (io.realNow() - state.startedAt)))}\n`);
  } else {
    if (prev.status === 'corrupt') io.stderr.write(`cka-lab: ${say.unreadable(prev.reason, prev.movedTo)}\n`);
    if (o.tasks < 1) throw new CliError(say.tasksAtLeastOne, 2);
    if (o.minutes !== undefined && o.minutes < 1) throw new CliError(say.minutesAtLeastOne, 2);
    if (scenarios.length === 0) throw new CliError(say.emptyLibrary, 1);
    const seed = o.seed ?? freshSeed(io);
    const drawn = stratifiedDraw(scenarios, o.tasks, DOMAINS, new Random(seed));
    const minutes = o.minutes ?? examMinutes(drawn.length);
    const now = io.realNow();
    const tasks = [];
    for (const s of drawn) {
      const session = await setupSession(instantiate(s, seed), { clock: new WallClock(0, io.realNow) });
      tasks.push({ scenario: s.id, seed, session: session.toJSON({ persist: true }), flagged: false, spentMs: 0, savedAt: now });
    }
    state = { schema: EXAM_SCHEMA, id: `exam-${new Date(now).toISOString().replace(/[:.]/g, '-')}`, seed, minutes, startedAt: now, current: 0, openedAt: now, alerts: [], tasks };
    store.save(state);
    const short = drawn.length < o.tasks ? say.libraryOnly(drawn.length) : '';
    io.stdout.write(`${say.start(drawn.length, short, minutes, PASS_PERCENT)}\n`);
  }
  let lines: LineSource | undefined;
  const editor = editorFor(env, () => lines);
  return runExam({
    live: taskSessionStore(env, 'exam', [...byId.values()], editor ? { editor } : {}),
    state,
    library: byId,
    store,
    progress,
    lang,
    c: theme(io.isTTY, io.env),
    io,
    lines: (session) => (lines = lineSource(env, session, EXAM_META)),
    realNow: io.realNow,
    ticking: io.isTTY,
    ...(editor ? { editor } : {}),
  });
}
