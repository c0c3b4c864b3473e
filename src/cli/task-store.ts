/**
 * The practice (self-check, exam) task's session on disk, as `sessions/practice.json`
 * (`check.json`, `exam.json`), rewritten after every command under the session's lock the way `cka-lab shell`
 * keeps its own: a one-shot `cka-lab kubectl` from another terminal finds it open
 * (`practice.json.open`) and works on it, and practice picks that change up before its next
 * command. A practice that ended without quitting left its open mark behind: the next practice
 * goes on with that task where it was left.
 */
import type { TaskRecord } from '../app/sessions.js';
import type { Session, SessionOptions } from '../shell/session.js';
import type { LoadedScenario } from '../scenario/index.js';
import type { TaskSessionStore } from '../ui/task-store.js';
import type { Env } from './context.js';

export function taskSessionStore(env: Env, mode: 'practice' | 'check' | 'exam', tasks: readonly LoadedScenario[], opts: SessionOptions): TaskSessionStore {
  // a second practice beside a running one keeps its own file, so neither picks up the other's task
  const name = env.sessions.openSessions().some((o) => o.name === mode) ? `${mode}-${process.pid}` : mode;
  const fixtureOf = (id: string): string => tasks.find((t) => t.id === id)?.fixture ?? 'unknown';
  // read before marking the session ours: a mark whose process is gone is a crashed practice
  // (an exam resumes from its own record, app/exam-store.ts)
  const resumable = mode !== 'exam' && env.sessions.abandoned(name) ? resumableTask(env, name, opts) : undefined;
  let unmark = env.sessions.markOpen(name, { mode });
  let markedTask: string | undefined;
  let stamp: string | undefined;
  let release: (() => void) | undefined;
  const write = (task: TaskRecord, session: Session): void => {
    env.sessions.save(name, fixtureOf(task.scenario), task.seed, session, task);
    stamp = env.sessions.stamp(name);
    if (markedTask !== task.scenario) {
      unmark = env.sessions.markOpen(name, { mode, task: task.scenario });
      markedTask = task.scenario;
    }
  };
  return {
    ...(resumable ? { resumable } : {}),
    save(task, session) {
      // inside a command (a meta-command's reset or next) the lock is already ours
      if (release) return write(task, session);
      const free = env.sessions.lock(name);
      try {
        write(task, session);
      } finally {
        free();
      }
    },
    refresh() {
      release?.();
      release = env.sessions.lock(name);
      if (env.sessions.stamp(name) === stamp) return undefined;
      const read = env.sessions.read(name);
      if (read.status !== 'ok') return undefined;
      stamp = env.sessions.stamp(name);
      return env.sessions.revive(read.data, opts).session;
    },
    pause() {
      release?.();
      release = undefined;
    },
    after(task, session) {
      try {
        write(task, session);
      } finally {
        release?.();
        release = undefined;
      }
    },
    close() {
      release?.();
      release = undefined;
      unmark();
    },
  };
}

/** The crashed practice's task and session, when its file is readable and names a task. */
function resumableTask(env: Env, name: string, opts: SessionOptions): { task: TaskRecord; session: Session } | undefined {
  const read = env.sessions.read(name);
  if (read.status !== 'ok') return undefined;
  const t = read.data.task;
  if (!t || typeof t.scenario !== 'string' || typeof t.seed !== 'number') return undefined;
  try {
    const task: TaskRecord = {
      scenario: t.scenario,
      seed: t.seed,
      startedAt: Number(t.startedAt) || 0,
      hints: Number(t.hints) || 0,
      assisted: t.assisted === true,
      checked: t.checked === true,
    };
    const session = env.sessions.revive(read.data, opts).session;
    // the crashed process's jobs ended with it (Session.endSavedJobs)
    session.endSavedJobs();
    return { task, session };
  } catch {
    return undefined;
  }
}
