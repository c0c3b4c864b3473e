/**
 * `cka-lab shell [--fixture NAME|PATH] [--seed N] [--session NAME]`: a free sandbox. Opens the
 * named session (default `default`) or creates it from the fixture, then runs the REPL, saving
 * the session after every command so it survives quit and crash.
 */
import { appendHistory } from '../app/history-file.js';
import { validSessionName } from '../app/paths.js';
import { SessionBusy, type SavedMark } from '../app/sessions.js';
import { WallClock } from '../app/wallclock.js';
import { Session, type SessionOptions } from '../shell/session.js';
import { runRepl } from '../ui/repl.js';
import type { LineSource } from '../ui/input.js';
import { CliError, type CliIo } from './io.js';
import { editorFor, envOf, lineSource, type Env } from './context.js';
import { resolveLang } from '../scenario/lang.js';
import { messages, type Messages } from '../ui/messages.js';

/** The session notices' words: `shell` and the one-shot `kubectl` have no --lang, so the environment's language. */
function say(io: CliIo): Messages['session'] {
  return messages(resolveLang(undefined, io.env)).session;
}

export const DEFAULT_SEED = 1;

export interface ShellOptions {
  fixture?: string;
  seed?: number;
  session: string;
}

export interface OpenResult {
  session: Session;
  fixture: string;
  seed: number;
  resumed: boolean;
}

/**
 * Open a saved session or create it; reports (and sets aside) a corrupt session file. The
 * fixtures (app/fixtures.ts: the builder, the prebuilt snapshots, the add-ons' manifests) are
 * loaded only to create one: a resumed session's first prompt and a one-shot kubectl spent
 * ~1-1.5 ms of CPU initializing those modules for nothing.
 */
export async function openSession(env: Env, o: ShellOptions, opts: SessionOptions): Promise<OpenResult> {
  if (!validSessionName(o.session)) throw new CliError(say(env.io).invalidName(o.session), 2);
  const read = env.sessions.read(o.session);
  let previous: { fixture: string; seed: number } | undefined;
  if (read.status === 'ok') {
    const f = read.data;
    if ((o.fixture !== undefined && o.fixture !== f.fixture) || (o.seed !== undefined && o.seed !== f.seed))
      throw new CliError(say(env.io).exists(o.session, f.fixture, f.seed), 2);
    try {
      const opened = env.sessions.revive(f, opts);
      return { session: opened.session, fixture: f.fixture, seed: f.seed, resumed: true };
    } catch (e) {
      // never a stack trace: the file is kept aside for a bug report, and a new session starts
      const movedTo = env.sessions.quarantine(o.session);
      previous = { fixture: f.fixture, seed: f.seed };
      env.io.stderr.write(`cka-lab: ${say(env.io).notResumed(o.session, e instanceof Error ? e.message : String(e), movedTo)}\n`);
    }
  } else if (read.status === 'corrupt')
    env.io.stderr.write(`cka-lab: ${say(env.io).notRead(o.session, read.reason, read.movedTo)}\n`);
  const { DEFAULT_FIXTURE, FixtureNotFound, fixtureFile, loadCluster } = await import('../app/fixtures.js');
  const fixture = o.fixture ?? previous?.fixture ?? DEFAULT_FIXTURE;
  const seed = o.seed ?? previous?.seed ?? DEFAULT_SEED;
  let file: string;
  try {
    file = fixtureFile(fixture, env.io.cwd);
  } catch (e) {
    if (e instanceof FixtureNotFound) throw new CliError(e.message, 2);
    throw e;
  }
  const cluster = loadCluster(file, seed, (start) => new WallClock(start, env.io.realNow));
  const session = new Session(cluster, opts);
  env.sessions.save(o.session, fixture, seed, session);
  return { session, fixture, seed, resumed: false };
}

export async function shellCommand(o: ShellOptions, io: CliIo): Promise<number> {
  const env = envOf(io);
  const ref: { lines?: LineSource } = {};
  const editor = editorFor(env, () => ref.lines);
  const opts: SessionOptions = editor ? { editor } : {};
  const opened = await withSessionLock(env, o.session, () => openSession(env, o, opts));
  let session = opened.session;
  // a new shell process: the saved shell's jobs ended with it (a one-shot's reload below keeps
  // this process's own: Session.adopt)
  if (opened.resumed) session.endSavedJobs();
  // the saved file as this shell last wrote or read it: a different stamp before a command means
  // a one-shot `cka-lab kubectl` changed the session meanwhile, and the shell picks that up
  let stamp = env.sessions.stamp(o.session);
  let release: (() => void) | undefined;
  // open in this shell: a one-shot `cka-lab kubectl` elsewhere works on this session
  const unmark = env.sessions.markOpen(o.session, { mode: 'shell' });
  // what the last save wrote: a command that changed nothing is not written (saveAfterCommand)
  let mark: SavedMark | undefined;
  const lines = (ref.lines = lineSource(env, () => session));
  if (io.isTTY) {
    const s = say(io);
    io.stderr.write(`cka-lab shell: ${(opened.resumed ? s.resumed : s.created)(o.session, opened.fixture, opened.seed)}\n`);
  }
  try {
    // take the session's lock; another command (a one-shot kubectl) wrote the file meanwhile: its
    // cluster is taken over (by the session itself while it has jobs, a held one among them)
    const takeSession = (): void => {
      release?.();
      release = env.sessions.lock(o.session);
      if (env.sessions.stamp(o.session) === stamp) return;
      const read = env.sessions.read(o.session);
      if (read.status === 'ok') {
        // another command (a one-shot kubectl, which keeps no history) wrote the file: the
        // history this shell has not written yet carries over
        const history = session.history;
        const revived = env.sessions.revive(read.data, opts).session;
        // this shell's background jobs live in this process: the session keeps them and takes
        // over the file's cluster (a revived session would have lost the paused lists)
        if (session.hasJobs()) session.adopt(revived);
        else session = revived;
        if (history.length > session.history.length) session.history.splice(0, session.history.length, ...history);
        mark = undefined;
      }
    };
    return await runRepl(() => session, lines, io, {
      beforeCommand: takeSession,
      holdPause: () => {
        release?.();
        release = undefined;
      },
      holdResume: takeSession,
      afterCommand: (line) => {
        try {
          mark = env.sessions.saveAfterCommand(o.session, opened.fixture, opened.seed, session, mark);
          stamp = env.sessions.stamp(o.session);
          env.sessions.touchOpen(o.session);
        } finally {
          release?.();
          release = undefined;
        }
        if (io.isTTY) appendHistory(env.historyPath, line);
      },
    });
  } finally {
    release?.();
    unmark();
    lines.close();
    // the history of the last commands, if they changed nothing else, is written as the shell ends
    // (unless another command wrote the file since: its changes win over those lines)
    if (mark?.pending)
      withSessionLock(env, o.session, () => {
        if (env.sessions.stamp(o.session) === stamp) env.sessions.save(o.session, opened.fixture, opened.seed, session);
      });
  }
}

/** Run `fn` holding the session's lock, with kubectl-like wording when another command holds it too long. */
export function withSessionLock<T>(env: Env, name: string, fn: () => T): T {
  if (!validSessionName(name)) throw new CliError(say(env.io).invalidName(name), 2);
  let release: () => void;
  try {
    release = env.sessions.lock(name);
  } catch (e) {
    if (e instanceof SessionBusy) throw new CliError(e.message, 1);
    throw e;
  }
  let result: T;
  try {
    result = fn();
  } catch (e) {
    release();
    throw e;
  }
  if (result instanceof Promise) return result.finally(release) as T;
  release();
  return result;
}
