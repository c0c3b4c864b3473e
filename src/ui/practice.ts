/**
 * Practice mode: one task at a time in the shell, with the meta-commands of the issue:
 * `task` (show it again), `hint` (next tier), `check` (grade now: ✓/✗ per check, a failure saying
 * what is wrong but not the expected value), `solution` (asks first; marks the attempt assisted;
 * shows the reference solution and what each check expects), `answer TEXT` (for "find the …" tasks),
 * `reset` (fresh setup and a new attempt), `next` / `skip` (move on; skip records nothing), `quit`.
 * An attempt is recorded when the learner leaves a task (or resets it) after checking it at least
 * once, graded on the state they left (never on the commands typed).
 */
import type { ChalkInstance } from 'chalk';
import { grade, instantiate, recordAnswer, setupSession, type Instance, type Lang, type LoadedScenario } from '../scenario/index.js';
import type { Editor, Session } from '../shell/session.js';
import type { ProgressStore } from '../app/progress.js';
import type { TaskRecord } from '../app/sessions.js';
import type { TaskSessionStore } from './task-store.js';
import { WallClock } from '../app/wallclock.js';
import { runRepl, type MetaIo, type MetaOutcome, type ReplIo } from './repl.js';
import type { LineSource } from './input.js';
import { gradeView, hintView, solutionView, taskPanel } from './panel.js';
import { messages } from './messages.js';

export const PRACTICE_META = ['task', 'hint', 'check', 'solution', 'answer', 'reset', 'next', 'skip', 'quit'];

export interface PracticeOptions {
  /** Tasks in the order `next` walks them; practice starts at `start`. */
  tasks: readonly LoadedScenario[];
  start: number;
  seed: number;
  lang: Lang;
  c: ChalkInstance;
  io: ReplIo;
  lines: (session: () => Session) => LineSource;
  progress: ProgressStore;
  realNow: () => number;
  editor?: Editor;
  /** `check` mode records attempts as self-checks and stops after the last task. */
  mode?: 'practice' | 'check';
  /** Called with each recorded attempt's percent (self-check summaries). */
  onRecorded?: (scenario: LoadedScenario, percent: number, score: number, max: number) => void;
  /** Where the task's session lives while practice runs (cli/practice.ts); none keeps it in memory only. */
  store?: TaskSessionStore;
}


interface Current {
  scenario: LoadedScenario;
  /** The parameter draw (a resumed task keeps its own). */
  seed: number;
  inst: Instance;
  session: Session;
  startedAt: number;
  hints: number;
  assisted: boolean;
  checked: boolean;
}

export async function runPractice(o: PracticeOptions): Promise<number> {
  const say = messages(o.lang);
  let index = o.start;
  const open = async (i: number, seed = o.seed): Promise<Current> => {
    const scenario = o.tasks[i]!;
    const inst = instantiate(scenario, seed);
    const session = await setupSession(inst, { clock: new WallClock(0, o.realNow), ...(o.editor ? { editor: o.editor } : {}) });
    return { scenario, seed, inst, session, startedAt: o.realNow(), hints: 0, assisted: false, checked: false };
  };
  const taskOf = (c: Current): TaskRecord => ({ scenario: c.scenario.id, seed: c.seed, startedAt: c.startedAt, hints: c.hints, assisted: c.assisted, checked: c.checked });
  const resumed = resumeFrom(o);
  let cur: Current;
  if (resumed) {
    index = resumed.index;
    cur = resumed.cur;
    o.io.stderr.write(`cka-lab: ${say.practice.resumed(o.mode ?? 'practice', cur.scenario.id)}\n`);
  } else cur = await open(index);
  o.store?.save(taskOf(cur), cur.session);
  const show = (): void => void o.io.stdout.write(taskPanel(cur.inst, { lang: o.lang, c: o.c, workstation: cur.session.cluster.meta.workstation }));

  const record = async (): Promise<void> => {
    if (!cur.checked) return;
    const r = await grade(cur.inst, cur.session, { lang: o.lang });
    const now = o.realNow();
    o.progress.update((p) =>
      p.attempts.push({
        scenario: cur.scenario.id,
        domain: cur.scenario.domain,
        topics: [...cur.scenario.topics],
        mode: o.mode ?? 'practice',
        startedAt: cur.startedAt,
        endedAt: now,
        seconds: Math.round((now - cur.startedAt) / 1000),
        targetMinutes: cur.scenario.minutes,
        score: r.score,
        max: r.max,
        assisted: cur.assisted,
      }),
    );
    o.onRecorded?.(cur.scenario, r.percent, r.score, r.max);
  };

  const move = async (io: MetaIo, keep: boolean): Promise<MetaOutcome> => {
    if (keep) await record();
    if (index + 1 >= o.tasks.length) {
      io.out(o.mode === 'check' ? '' : `${say.practice.noMoreTasks}\n`);
      return { quit: true };
    }
    index++;
    cur = await open(index);
    o.store?.save(taskOf(cur), cur.session);
    show();
    return {};
  };

  const meta = async (line: string, io: MetaIo): Promise<MetaOutcome | undefined> => {
    const [word, ...rest] = line.split(/\s+/);
    switch (word) {
      case 'task':
        if (rest.length) return undefined;
        show();
        return {};
      case 'hint':
        io.out(hintView(cur.inst, cur.hints, o.lang));
        cur.hints = Math.min(cur.hints + 1, cur.inst.resolved.hints.length);
        return {};
      case 'check': {
        if (rest.length) return undefined;
        const r = await grade(cur.inst, cur.session, { lang: o.lang });
        cur.checked = true;
        // until the learner has asked for the solution, a failed check says what is wrong, not what is right
        io.out(gradeView(r, o.c, { lang: o.lang, reveal: cur.assisted }));
        return { exitCode: r.score === r.max ? 0 : 1 };
      }
      case 'solution': {
        const a = await io.ask(say.practice.askSolution);
        if (a !== null && /^y(es)?$/i.test(a.trim())) {
          cur.assisted = true;
          io.out(solutionView(cur.inst, o.lang));
          // the expected values, now that the learner asked for them
          const r = await grade(cur.inst, cur.session, { lang: o.lang });
          io.out(`\n${say.expectations}\n${gradeView(r, o.c, { lang: o.lang, reveal: true })}`);
        }
        return {};
      }
      case 'answer': {
        const text = line.slice('answer'.length).trim();
        if (!text) {
          io.err(`${say.practice.answerUsage}\n`);
          return { exitCode: 2 };
        }
        recordAnswer(cur.session, text);
        io.out(`${say.practice.answerRecorded(text)}\n`);
        return {};
      }
      case 'reset':
        if (rest.length) return undefined;
        // a reset ends the attempt (recorded, graded on the state it left, if it was checked) and
        // starts a new one; hints and a solution already seen stay seen, so the retry stays assisted
        await record();
        cur = { ...(await open(index, cur.seed)), hints: cur.hints, assisted: cur.assisted };
        o.store?.save(taskOf(cur), cur.session);
        io.out(`${say.practice.reset}\n`);
        show();
        return {};
      case 'next':
        return rest.length ? undefined : move(io, true);
      case 'skip':
        return rest.length ? undefined : move(io, false);
      case 'quit':
        if (rest.length) return undefined;
        await record();
        return { quit: true, exitCode: 0 };
      default:
        return undefined;
    }
  };

  show();
  const lines = o.lines(() => cur.session);
  try {
    let quitByMeta = false;
    // another process's change to the session shows in the next command or meta-command; this
    // process's jobs (a paused list's continuation, a watch) live in its memory only, so a session
    // with jobs keeps them and takes over the cluster the other process wrote, as the shell's does
    const refresh = (): void => {
      const changed = o.store?.refresh();
      if (!changed) return;
      if (cur.session.hasJobs()) cur.session.adopt(changed);
      else cur.session = changed;
    };
    const status = await runRepl(() => cur.session, lines, o.io, {
      meta: async (line, io) => {
        refresh();
        let m: MetaOutcome | undefined;
        try {
          m = await meta(line, io);
        } finally {
          o.store?.after(taskOf(cur), cur.session);
        }
        if (m?.quit) quitByMeta = true;
        return m;
      },
      beforeCommand: refresh,
      afterCommand: () => o.store?.after(taskOf(cur), cur.session),
      holdPause: () => o.store?.pause(),
      // the session keeps its held job and takes over the cluster another process wrote
      holdResume: () => {
        const changed = o.store?.refresh();
        if (changed) cur.session.adopt(changed);
      },
    });
    if (!quitByMeta) await record();
    return status;
  } finally {
    lines.close();
    o.store?.close();
  }
}

/** The crashed practice's task, when it is one of the tasks this practice walks. */
function resumeFrom(o: PracticeOptions): { index: number; cur: Current } | undefined {
  const r = o.store?.resumable;
  if (!r) return undefined;
  const index = o.tasks.findIndex((t) => t.id === r.task.scenario);
  if (index < 0) return undefined;
  const scenario = o.tasks[index]!;
  const { startedAt, hints, assisted, checked } = r.task;
  return { index, cur: { scenario, seed: r.task.seed, inst: instantiate(scenario, r.task.seed), session: r.session, startedAt, hints, assisted, checked } };
}
