import type { TaskRecord } from '../app/sessions.js';
import type { Session } from '../shell/session.js';

/**
 * The task's session kept on disk while practice, a self-check or an exam runs, as the shell keeps
 * its own (cli/task-store.ts): a one-shot `cka-lab kubectl` from another terminal works on it
 * (under the session's lock), and a practice that crashes loses neither the cluster nor the
 * attempt (hints, assisted, checked).
 */
export interface TaskSessionStore {
  /** A practice that ended without quitting (a crash): its task and session, to go on with. */
  resumable?: { task: TaskRecord; session: Session };
  /** The task was set up (or reset) or its progress changed: write it. */
  save(task: TaskRecord, session: Session): void;
  /** Before a line runs: lock the session; the session another process changed meanwhile, if it did. */
  refresh(): Session | undefined;
  /** After the line: write the session and release the lock. */
  after(task: TaskRecord, session: Session): void;
  /** While a job holds the terminal, between ticks: release the lock without writing (refresh takes it again). */
  pause(): void;
  close(): void;
}
