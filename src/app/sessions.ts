/**
 * Saved shell sessions: `<data>/sessions/<name>.json`, one per named session, rewritten atomically
 * after every command so quitting or a crash loses nothing. The file records which fixture and
 * seed built the cluster, the session (cluster snapshot, shell frames, history, aliases) and the
 * real time of the save, so a resumed session's clock carries on as if the cluster had kept
 * running (simulated time follows wall time, including the time away).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Session, type SessionData, type SessionOptions } from '../shell/session.js';
import { CONTROLLERS } from '../sim/controllers/index.js';
import { readJsonVersioned, writeJsonAtomic, type ReadResult } from './jsonfile.js';
import { WallClock } from './wallclock.js';

export const SESSION_FILE_SCHEMA = 1;

export interface SessionFile {
  schema: number;
  name: string;
  fixture: string;
  seed: number;
  /** Real time of the last save (ms since epoch). */
  savedAt: number;
  session: SessionData;
}

export interface OpenedSession {
  session: Session;
  clock: WallClock;
  file: SessionFile;
  /** True when it was read from disk rather than created. */
  resumed: boolean;
}

function checkShape(v: unknown): string | undefined {
  const f = v as Partial<SessionFile>;
  if (typeof f.name !== 'string' || typeof f.fixture !== 'string' || typeof f.seed !== 'number' || typeof f.savedAt !== 'number')
    return 'missing name, fixture, seed or savedAt';
  const s = f.session as Partial<SessionData> | undefined;
  if (!s || typeof s !== 'object' || !s.cluster || !Array.isArray(s.frames) || !Array.isArray(s.history)) return 'missing session data';
  return undefined;
}

export class SessionStore {
  constructor(
    readonly dir: string,
    private readonly realNow: () => number = () => Date.now(),
  ) {}

  path(name: string): string {
    return join(this.dir, 'sessions', `${name}.json`);
  }

  read(name: string): ReadResult<SessionFile> {
    return readJsonVersioned<SessionFile>(this.path(name), SESSION_FILE_SCHEMA, checkShape, this.realNow());
  }

  save(name: string, fixture: string, seed: number, session: Session): SessionFile {
    const file: SessionFile = { schema: SESSION_FILE_SCHEMA, name, fixture, seed, savedAt: this.realNow(), session: session.toJSON() };
    writeJsonAtomic(this.path(name), file);
    return file;
  }

  /** Rebuild a session from its file on a wall-following clock that includes the time away. */
  revive(file: SessionFile, opts: SessionOptions = {}): OpenedSession {
    const away = Math.max(0, this.realNow() - file.savedAt);
    const clock = new WallClock(file.session.cluster.now + away, this.realNow);
    const session = Session.fromJSON(file.session, clock, CONTROLLERS, opts);
    session.cluster.catchUp();
    return { session, clock, file, resumed: true };
  }

  /** The most recently saved session's name, if any. */
  mostRecent(): string | undefined {
    const dir = join(this.dir, 'sessions');
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
    } catch {
      return undefined;
    }
    let best: { name: string; mtime: number } | undefined;
    for (const n of names) {
      const mtime = statSync(join(dir, n)).mtimeMs;
      if (!best || mtime > best.mtime || (mtime === best.mtime && n < best.name)) best = { name: n.slice(0, -5), mtime };
    }
    return best?.name;
  }
}
