/**
 * Exam mode: a drawn set of tasks, each on its own cluster and starting host, against a timer
 * that keeps wall time (across quit and crash: the state is saved after every command). The
 * prompt shows the time left; alerts at 30, 15 and 5 minutes. Meta-commands: `tasks` (list with
 * flags), `task N` (switch), `task` (show the current one again), `flag`, `answer TEXT`, `submit`
 * (asks first), `quit` (leave; the exam and its timer go on). At submit or time-out every task is
 * graded on its own frozen state and the report shows points per task and check, time spent per
 * task against its target, the total and pass/fail at 66 %, then a review with solutions.
 */
import type { ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import { grade, instantiate, recordAnswer, textFor, type GradeReport, type Instance, type Lang, type LoadedScenario } from '../scenario/index.js';
import { Session, type Editor } from '../shell/session.js';
import { CONTROLLERS } from '../sim/controllers/index.js';
import { ManualClock } from '../util/clock.js';
import type { ExamRecord, ProgressStore } from '../app/progress.js';
import { taskWorked, type ExamState, type ExamStore } from '../app/exam-store.js';
import { WallClock } from '../app/wallclock.js';
import type { TaskRecord } from '../app/sessions.js';
import type { TaskSessionStore } from './task-store.js';
import { runRepl, type MetaIo, type MetaOutcome, type ReplIo } from './repl.js';
import type { LineSource } from './input.js';
import { clockText } from './theme.js';
import { gradeView, solutionView, taskPanel } from './panel.js';
import { messages } from './messages.js';

export const PASS_PERCENT = 66;
export const ALERT_MINUTES = [30, 15, 5] as const;
export const EXAM_META = ['tasks', 'task', 'flag', 'answer', 'submit', 'quit'];

export interface ExamOptions {
  state: ExamState;
  library: ReadonlyMap<string, LoadedScenario>;
  store: ExamStore;
  progress: ProgressStore;
  lang: Lang;
  c: ChalkInstance;
  io: ReplIo;
  lines: (session: () => Session) => LineSource;
  realNow: () => number;
  /** Wake the prompt once a second on a terminal so alerts and time-out show while the learner thinks. */
  ticking: boolean;
  editor?: Editor;
  /** The current task's session kept where a one-shot `cka-lab kubectl` finds it (cli/task-store.ts). */
  live?: TaskSessionStore;
}

export interface TaskResult {
  index: number;
  scenario: LoadedScenario;
  /** The instance graded (its parameters are the ones the learner saw). */
  inst: Instance;
  report: GradeReport;
  /** Exam points: the report's score, in the task's points (its weight). */
  points: number;
  weight: number;
  seconds: number;
  flagged: boolean;
  /** The learner ran a command or gave an answer in the task. */
  attempted: boolean;
}

export function timeLeft(state: ExamState, now: number): number {
  return state.minutes * 60_000 - (now - state.startedAt);
}

/** The alert due now (the smallest threshold crossed and not yet shown), if any. */
export function dueAlert(state: ExamState, now: number): number | undefined {
  const left = timeLeft(state, now);
  if (left <= 0) return undefined;
  const crossed = ALERT_MINUTES.filter((m) => m < state.minutes && left <= m * 60_000 && !state.alerts.includes(m));
  return crossed.length ? Math.min(...crossed) : undefined;
}

function instanceOf(o: ExamOptions, i: number): Instance {
  const t = o.state.tasks[i]!;
  const s = o.library.get(t.scenario);
  if (!s) throw new Error(`scenario ${t.scenario} of this exam is no longer in the library`);
  return instantiate(s, t.seed);
}

/** Revive task i's session on a wall-following clock that includes the time since its last save. */
function openTask(o: ExamOptions, i: number): Session {
  const t = o.state.tasks[i]!;
  const clock = new WallClock(t.session.cluster.now + Math.max(0, o.realNow() - t.savedAt), o.realNow);
  const s = Session.fromJSON(t.session, clock, CONTROLLERS, o.editor ? { editor: o.editor } : {});
  s.cluster.catchUp();
  return s;
}

export async function runExam(o: ExamOptions): Promise<number> {
  const st = o.state;
  const say = messages(o.lang).exam;
  let session = openTask(o, st.current);
  let inst = instanceOf(o, st.current);
  let finished = false;
  // time away (after quit or a crash) runs the exam clock but is no task's time
  st.openedAt = o.realNow();

  /** The current task as the live session file records it. */
  const taskRecord = (): TaskRecord => {
    const t = st.tasks[st.current]!;
    return { scenario: t.scenario, seed: t.seed, startedAt: st.startedAt, hints: 0, assisted: false, checked: false };
  };
  const persist = (): void => {
    const t = st.tasks[st.current]!;
    t.session = session.toJSON({ persist: true });
    t.savedAt = o.realNow();
    o.store.save(st);
  };
  const show = (): void =>
    void o.io.stdout.write(
      taskPanel(inst, { lang: o.lang, c: o.c, workstation: session.cluster.meta.workstation, position: { index: st.current + 1, total: st.tasks.length } }),
    );
  const switchTo = (i: number): void => {
    const now = o.realNow();
    st.tasks[st.current]!.spentMs += now - st.openedAt;
    persist();
    st.current = i;
    st.openedAt = now;
    session = openTask(o, i);
    inst = instanceOf(o, i);
    o.store.save(st);
    o.live?.save(taskRecord(), session);
    show();
  };
  const finish = async (io: MetaIo, why: string): Promise<void> => {
    if (finished) return;
    finished = true;
    st.tasks[st.current]!.spentMs += o.realNow() - st.openedAt;
    st.openedAt = o.realNow();
    persist();
    io.out(`${why}\n`);
    const results = await gradeExam(o);
    io.out(examReport(results, o.c, o.lang));
    io.out(reviewText(results, o.lang));
    const record = examRecord(st, results, o.realNow());
    o.progress.update((p) => {
      p.exams.push(record);
      for (const r of results)
        p.attempts.push({
          scenario: r.scenario.id,
          domain: r.scenario.domain,
          topics: [...r.scenario.topics],
          mode: 'exam',
          startedAt: st.startedAt,
          endedAt: record.endedAt,
          seconds: r.seconds,
          targetMinutes: r.scenario.minutes,
          score: r.report.score,
          max: r.report.max,
          assisted: false,
          ...(r.attempted ? {} : { attempted: false }),
          exam: st.id,
        });
    });
    o.store.finish(st, { record, reports: results.map((r) => r.report) });
  };

  const meta = async (line: string, io: MetaIo): Promise<MetaOutcome | undefined> => {
    const [word, ...rest] = line.split(/\s+/);
    switch (word) {
      case 'tasks':
        if (rest.length) return undefined;
        io.out(taskList(o, st.current));
        return {};
      case 'task': {
        if (rest.length === 0) {
          show();
          return {};
        }
        const n = Number(rest[0]);
        if (rest.length !== 1 || !Number.isInteger(n) || n < 1 || n > st.tasks.length) {
          io.err(`${say.chooseTask(st.tasks.length)}\n`);
          return { exitCode: 2 };
        }
        if (n - 1 !== st.current) switchTo(n - 1);
        else show();
        return {};
      }
      case 'flag': {
        if (rest.length) return undefined;
        const task = st.tasks[st.current]!;
        task.flagged = !task.flagged;
        o.store.save(st);
        io.out(`${task.flagged ? say.flagged(st.current + 1) : say.unflagged(st.current + 1)}\n`);
        return {};
      }
      case 'answer': {
        const text = line.slice('answer'.length).trim();
        if (!text) {
          io.err(`${messages(o.lang).practice.answerUsage}\n`);
          return { exitCode: 2 };
        }
        recordAnswer(session, text);
        st.tasks[st.current]!.worked = true;
        persist();
        io.out(`${say.answerRecorded(st.current + 1, text)}\n`);
        return {};
      }
      case 'submit': {
        if (rest.length) return undefined;
        const a = await io.ask(say.askSubmit);
        if (a === null || !/^y(es)?$/i.test(a.trim())) return {};
        await finish(io, say.submitted);
        return { quit: true };
      }
      case 'quit':
        if (rest.length) return undefined;
        st.tasks[st.current]!.spentMs += o.realNow() - st.openedAt;
        st.openedAt = o.realNow();
        persist();
        io.out(`${say.goesOn(clockText(timeLeft(st, o.realNow())))}\n`);
        return { quit: true };
      default:
        return undefined;
    }
  };

  const timer = async (io: MetaIo): Promise<{ stop?: boolean }> => {
    const now = o.realNow();
    if (timeLeft(st, now) <= 0) {
      await finish(io, say.timeUp);
      return { stop: true };
    }
    const alert = dueAlert(st, now);
    if (alert !== undefined) {
      for (const m of ALERT_MINUTES) if (m >= alert) st.alerts.push(m);
      o.store.save(st);
      io.out(o.c.yellow(`${say.alert(alert)}\n`));
    }
    return {};
  };

  show();
  o.live?.save(taskRecord(), session);
  const lines = o.lines(() => session);
  const tick = o.ticking
    ? setInterval(() => {
        if (timeLeft(st, o.realNow()) <= 0 || dueAlert(st, o.realNow()) !== undefined) lines.wake();
      }, 1000)
    : undefined;
  tick?.unref();
  try {
    // a one-shot `cka-lab kubectl`'s change to the task shows in the next command or meta-command
    // (a session with jobs keeps them and takes over the other process's cluster, as practice's does)
    const refresh = (): void => {
      const changed = o.live?.refresh();
      if (!changed) return;
      if (session.hasJobs()) session.adopt(changed);
      else session = changed;
    };
    const status = await runRepl(() => session, lines, o.io, {
      promptPrefix: () => `[${clockText(timeLeft(st, o.realNow()))}] `,
      beforePrompt: timer,
      gate: timer,
      meta: async (line, io) => {
        refresh();
        try {
          return await meta(line, io);
        } finally {
          o.live?.after(taskRecord(), session);
        }
      },
      beforeCommand: refresh,
      holdPause: () => o.live?.pause(),
      // time runs out while a job holds the terminal: the terminal closes (SIGHUP), and the
      // prompt that follows is the timer's (time-up grading)
      holdEnds: () => timeLeft(st, o.realNow()) <= 0,
      // the session keeps its held job and takes over the cluster another process wrote
      holdResume: () => {
        const changed = o.live?.refresh();
        if (changed) session.adopt(changed);
      },
      afterCommand: () => {
        st.tasks[st.current]!.worked = true;
        persist();
        o.live?.after(taskRecord(), session);
      },
    });
    if (!finished) {
      // end of input without quit or submit: keep the exam as it is (it resumes next time)
      st.tasks[st.current]!.spentMs += o.realNow() - st.openedAt;
      st.openedAt = o.realNow();
      persist();
    }
    return finished ? 0 : status;
  } finally {
    if (tick) clearInterval(tick);
    lines.close();
    o.live?.close();
  }
}

/** Grade every task on its own frozen state (a pinned clock at the time it was last saved). */
export async function gradeExam(o: Pick<ExamOptions, 'state' | 'library' | 'lang'>): Promise<TaskResult[]> {
  const out: TaskResult[] = [];
  for (let i = 0; i < o.state.tasks.length; i++) {
    const t = o.state.tasks[i]!;
    const scenario = o.library.get(t.scenario);
    if (!scenario) continue;
    const inst = instantiate(scenario, t.seed);
    const frozen = Session.fromJSON(t.session, new ManualClock(t.session.cluster.now), CONTROLLERS);
    const report = await grade(inst, frozen, { lang: o.lang });
    // the report is in the task's points already (grade.ts shareTenths): one number everywhere
    out.push({ index: i + 1, scenario, inst, report, points: report.score, weight: report.max, seconds: Math.round(t.spentMs / 1000), flagged: t.flagged, attempted: taskWorked(t) });
  }
  return out;
}

export function totals(results: readonly TaskResult[]): { points: number; max: number; percent: number; passed: boolean } {
  const points = Math.round(10 * results.reduce((a, r) => a + r.points, 0)) / 10;
  const max = results.reduce((a, r) => a + r.weight, 0);
  const percent = max > 0 ? Math.round((1000 * points) / max) / 10 : 0;
  return { points, max, percent, passed: percent >= PASS_PERCENT };
}

function minSec(seconds: number): string {
  return clockText(seconds * 1000);
}

export function examReport(results: readonly TaskResult[], c: ChalkInstance, lang: Lang): string {
  const m = messages(lang);
  const table = new Table({
    head: [...m.exam.reportHead],
    style: { head: [], border: [], compact: true },
  });
  for (const r of results)
    table.push([
      `${r.index}${r.flagged ? ' ⚑' : ''}`,
      textFor(r.scenario.title, lang),
      r.scenario.domain,
      `${r.points}/${r.weight}`,
      `${r.report.checks.filter((x) => x.ok && !x.waiting).length}/${r.report.checks.length}`,
      r.attempted ? minSec(r.seconds) : m.notAttempted,
      `${r.scenario.minutes}:00`,
    ]);
  const t = totals(results);
  const lines = [table.toString(), ''];
  for (const r of results) {
    lines.push(m.exam.task(r.index, textFor(r.scenario.title, lang)));
    // the exam is over: the report shows what each failed check expected
    lines.push(gradeView(r.report, c, { lang, reveal: true }).trimEnd().replace(/^/gm, '  '));
  }
  lines.push('', m.exam.total(t.points, t.max, t.percent, t.passed ? c.green(m.pass) : c.red(m.fail), PASS_PERCENT), '');
  return `${lines.join('\n')}\n`;
}

export function reviewText(results: readonly TaskResult[], lang: Lang): string {
  const m = messages(lang).exam;
  const missed = results.filter((r) => r.report.score < r.report.max);
  if (missed.length === 0) return `${m.reviewComplete}\n`;
  const parts = [m.reviewHeading];
  for (const r of missed) parts.push('', `${m.task(r.index, textFor(r.scenario.title, lang))} [${r.scenario.id}]`, solutionView(r.inst, lang).trimEnd());
  return `${parts.join('\n')}\n`;
}

export function examRecord(st: ExamState, results: readonly TaskResult[], endedAt: number): ExamRecord {
  const t = totals(results);
  return {
    id: st.id,
    startedAt: st.startedAt,
    endedAt,
    minutes: st.minutes,
    tasks: results.map((r) => ({
      scenario: r.scenario.id,
      domain: r.scenario.domain,
      score: r.points,
      max: r.weight,
      seconds: r.seconds,
      targetMinutes: r.scenario.minutes,
      flagged: r.flagged,
      ...(r.attempted ? {} : { attempted: false }),
    })),
    score: t.points,
    max: t.max,
    percent: t.percent,
    passed: t.passed,
  };
}

function taskList(o: ExamOptions, current: number): string {
  const rows = o.state.tasks.map((t, i) => {
    const s = o.library.get(t.scenario);
    const title = s ? textFor(s.title, o.lang) : t.scenario;
    return `${i === current ? '*' : ' '} ${String(i + 1).padStart(2)} ${t.flagged ? '⚑' : ' '} ${title} ${messages(o.lang).exam.listFacts(s?.domain ?? '?', String(s?.weight ?? '?'))}`;
  });
  return `${rows.join('\n')}\n`;
}
