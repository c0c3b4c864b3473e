/**
 * Saved shell sessions: `<data>/sessions/<name>.json`, one per named session, saved after every
 * command that changed something so quitting or a crash loses nothing. The file records which
 * fixture and seed built the cluster, the session (cluster snapshot, shell frames, history,
 * aliases) and the real time of the save, so a resumed session's clock carries on as if the
 * cluster had kept running (simulated time follows wall time, including the time away).
 *
 * The shell's saves after a command append to a journal (`<name>.json.journal`) instead of
 * rewriting the whole file: one line per save holding the edits since the previous one
 * (app/json-delta.ts), made durable before the next command. Each line names the full write it
 * follows (SessionFile.base) and its place in the chain, so lines left by an older file are
 * ignored, and a line a crash tore is dropped, never the lines before it. A full write (every
 * one-shot command, the shell's first save, a journal grown past half the file) starts a new file
 * and removes the journal: the compaction.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Session, type SessionData, type SessionOptions } from '../shell/session.js';
import { CONTROLLERS } from '../sim/controllers/index.js';
import { appendDurable, corruptStamp, processAlive, readJsonText, readJsonVersioned, removeOrphanTemps, writeJsonAtomic, type ReadResult } from './jsonfile.js';
import { applyDelta, diffJSON } from './json-delta.js';
import { WallClock } from './wallclock.js';
import { validClockTime } from '../util/clock.js';
import { sameJSON, toPlainJSON } from '../util/json-copy.js';
import { runsWithoutReplayPoints, type ContainerRunsState } from '../sim/runtime/processes.js';

export const SESSION_FILE_SCHEMA = 1;

export interface SessionFile {
  schema: number;
  name: string;
  fixture: string;
  seed: number;
  /** Real time of the last save (ms since epoch). */
  savedAt: number;
  session: SessionData;
  /** A practice, self-check or exam task's progress, when the session is that task's (ui/practice.ts). */
  task?: TaskRecord;
  /**
   * This full write's identity: the journal's lines name the write they follow (a file written
   * before journals existed has none, and no journal applies to it).
   */
  base?: string;
}

/** One line of `<name>.json.journal`: the edits of `session` since the line before it (or the full write). */
interface JournalRecord {
  /** SessionFile.base of the full write the chain starts from. */
  base: string;
  /** Its place in the chain: 1 for the first line after the full write. */
  n: number;
  /** Real time of this save (ms since epoch): the file's savedAt once applied. */
  savedAt: number;
  ops: unknown;
}

/** Where a practice (or self-check) attempt stands, saved with its session so a crash loses none of it. */
export interface TaskRecord {
  scenario: string;
  seed: number;
  /** Real time the attempt began (ms since epoch). */
  startedAt: number;
  hints: number;
  assisted: boolean;
  checked: boolean;
}

/**
 * A session a REPL has open now (`<name>.json.open`): which process and mode, so a one-shot
 * `cka-lab kubectl` in another terminal works on the practice task (or shell) the learner is in.
 */
export interface OpenMark {
  pid: number;
  mode: 'shell' | 'practice' | 'check' | 'exam';
  /** The task a practice or self-check session is for. */
  task?: string;
}

/** A session open in a running REPL, with the real time of its last command (file times). */
export interface OpenSession {
  name: string;
  mark: OpenMark;
  usedAt: number;
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
  // a clock past the year 9999 or not a number (an old `sleep 99999999999999999999`) poisons every
  // later command: certificates expire, dates cannot be written; the file is set aside instead
  // (JSON writes NaN and Infinity as null; a snapshot without a clock fails later, when revived)
  const now = (s.cluster as { now?: unknown }).now;
  if ((typeof now === 'number' || now === null) && !validClockTime(now)) return `the cluster's clock is not a valid time (${String(now)})`;
  if (!Number.isFinite(f.savedAt)) return 'savedAt is not a valid time';
  return undefined;
}

/** What SessionStore.saveAfterCommand last wrote, to tell whether the next command changed anything. */
export interface SavedMark {
  /**
   * What was saved, without the clock reading and the history, as plain data that shares the
   * store's frozen objects (Cluster.snapshot): kept and compared in place of its 12 MB of text at
   * 10,000 Services, since an unchanged object compares by identity.
   */
  seen: unknown;
  /** The simulated clock's lead over the wall at that save. */
  lead: number;
  /** The file's stamp after the write (another process's write changes it). */
  stamp: string | undefined;
  /** History lines in the file. */
  history: number;
  /** Commands ran since that added history lines only: the next write is owed. */
  pending: boolean;
  /** The session as the file and its journal hold it now, when this process wrote it: the next save appends the edits since. */
  disk?: DiskState;
}

/** What is on disk after a save of this process: the data (plain JSON, sharing frozen objects) and its journal's extent. */
interface DiskState {
  data: SessionData;
  base: string;
  baseBytes: number;
  records: number;
  journalBytes: number;
}

/** The journal may grow to this share of the full file before a save writes the whole file again. */
const JOURNAL_SHARE = 0.5;
/** …and to at least this many bytes, so a small session is not rewritten every few commands. */
const JOURNAL_MIN_BYTES = 256 * 1024;

/** Another process held the session for longer than a command should take. */
export class SessionBusy extends Error {}

/** How long a command waits for another process's command on the same session. */
const LOCK_WAIT_MS = 20_000;
/** A lock older than this is a leftover of a process that died without cleaning up. */
const LOCK_STALE_MS = 10 * 60_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export class SessionStore {
  constructor(
    readonly dir: string,
    private readonly realNow: () => number = () => Date.now(),
  ) {}

  path(name: string): string {
    return join(this.dir, 'sessions', `${name}.json`);
  }

  /** The journal of edits since the file's last full write. */
  journalPath(name: string): string {
    return `${this.path(name)}.journal`;
  }

  /**
   * Take the session's exclusive lock (`<name>.json.lock`, created with O_EXCL, holding our pid):
   * one command at a time reads, changes and writes a session, so concurrent one-shot commands
   * and an open shell never overwrite each other's work. A lock whose process is gone, or that is
   * older than any command, is removed. Returns the release function.
   */
  lock(name: string, waitMs = LOCK_WAIT_MS): () => void {
    const path = `${this.path(name)}.lock`;
    mkdirSync(join(this.dir, 'sessions'), { recursive: true });
    const deadline = Date.now() + waitMs;
    for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
      try {
        const fd = openSync(path, 'wx', 0o600);
        writeSync(fd, String(process.pid));
        closeSync(fd);
        let released = false;
        return () => {
          if (released) return;
          released = true;
          try {
            unlinkSync(path);
          } catch {
            // already gone: nothing to release
          }
        };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      if (this.staleLock(path)) continue;
      if (Date.now() > deadline) throw new SessionBusy(`session "${name}" is busy: another cka-lab command has held it for ${Math.round(waitMs / 1000)} s (remove ${path} if no cka-lab is running)`);
      sleepSync(delay);
    }
  }

  private staleLock(path: string): boolean {
    try {
      const pid = Number(readFileSync(path, 'utf8'));
      const age = Date.now() - statSync(path).mtimeMs;
      if ((Number.isInteger(pid) && pid > 0 && pid !== process.pid && !processAlive(pid)) || age > LOCK_STALE_MS) {
        unlinkSync(path);
        return true;
      }
    } catch {
      return true; // vanished between the attempt and the check: try again
    }
    return false;
  }

  /**
   * What identifies the saved session's current content cheaply (size and modification time of
   * the file and of its journal): another process's save changes it.
   */
  stamp(name: string): string | undefined {
    try {
      const st = statSync(this.path(name));
      const base = `${st.mtimeMs}:${st.size}`;
      try {
        const j = statSync(this.journalPath(name));
        return `${base}+${j.mtimeMs}:${j.size}`;
      } catch {
        return base;
      }
    } catch {
      return undefined;
    }
  }

  /** The saved session: the file with its journal's edits applied. */
  read(name: string): ReadResult<SessionFile> {
    removeOrphanTemps(join(this.dir, 'sessions'));
    const r = readJsonVersioned<SessionFile>(this.path(name), SESSION_FILE_SCHEMA, checkShape, this.realNow());
    if (r.status === 'corrupt') this.journalAside(name, r.movedTo);
    if (r.status !== 'ok') return r;
    const { file, applied } = this.withJournal(name, r.data);
    const reason = applied > 0 ? checkShape(file) : undefined;
    if (!reason) return { status: 'ok', data: file };
    // the journal's edits made a file that cannot be resumed (a clock past the year 9999): set
    // aside, the file and its journal together, as a file that was so on its own would be
    const movedTo = this.quarantine(name);
    return { status: 'corrupt', reason, movedTo };
  }

  /**
   * `file` with the edits of its journal's valid lines applied in order: a line that does not parse
   * (torn by a crash), belongs to another full write or is out of order is skipped. Should a line's
   * edits not fit (a journal damaged otherwise), the file is read again and only the lines before
   * it are applied: the last state that is whole, never a half-edited one.
   */
  private withJournal(name: string, file: SessionFile): { file: SessionFile; applied: number } {
    let text: string;
    try {
      text = readFileSync(this.journalPath(name), 'utf8');
    } catch {
      return { file, applied: 0 };
    }
    if (typeof file.base !== 'string') return { file, applied: 0 };
    const records = journalRecords(text, file.base);
    const apply = (f: SessionFile, upTo: number): { file: SessionFile; applied: number } => {
      for (let i = 0; i < upTo; i++) {
        f.session = applyDelta(f.session, records[i]!.ops) as SessionData;
        f.savedAt = records[i]!.savedAt;
      }
      return { file: f, applied: upTo };
    };
    for (let i = 0; i < records.length; i++) {
      try {
        file.session = applyDelta(file.session, records[i]!.ops) as SessionData;
        file.savedAt = records[i]!.savedAt;
      } catch {
        // the lines before the one that does not fit, on a fresh parse of the file
        return apply(JSON.parse(readJsonText(this.path(name))) as SessionFile, i);
      }
    }
    return { file, applied: records.length };
  }

  /** Move a journal beside its file's set-aside copy (`<movedTo>.journal`), if there is one. */
  private journalAside(name: string, movedTo: string): void {
    try {
      renameSync(this.journalPath(name), `${movedTo}.journal`);
    } catch {
      // no journal
    }
  }

  save(name: string, fixture: string, seed: number, session: Session, task?: TaskRecord): SessionFile {
    return this.write(name, fixture, seed, session.toJSON({ persist: true }), task).file;
  }

  /** A full write: a new file (a new `base`), and the journal of the old one removed. */
  private write(name: string, fixture: string, seed: number, data: SessionData, task?: TaskRecord): { file: SessionFile; bytes: number } {
    const file: SessionFile = { schema: SESSION_FILE_SCHEMA, name, fixture, seed, savedAt: this.realNow(), session: data, ...(task ? { task } : {}), base: randomBytes(8).toString('hex') };
    const bytes = writeJsonAtomic(this.path(name), file);
    // (a crash before this leaves a journal of the old base, which reading ignores)
    try {
      unlinkSync(this.journalPath(name));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    return { file, bytes };
  }

  /** Mark the session open by this process until the returned function runs (or the process ends). */
  markOpen(name: string, mark: Omit<OpenMark, 'pid'>): () => void {
    const path = `${this.path(name)}.open`;
    mkdirSync(join(this.dir, 'sessions'), { recursive: true });
    writeJsonAtomic(path, { pid: process.pid, ...mark });
    let done = false;
    return () => {
      if (done) return;
      done = true;
      try {
        // only our own mark: a later REPL on the same session may have replaced it
        if ((JSON.parse(readFileSync(path, 'utf8')) as OpenMark).pid === process.pid) unlinkSync(path);
      } catch {
        // already gone
      }
    };
  }

  /** Note that the REPL holding `name` open just ran a command (a shell skips saves that change nothing). */
  touchOpen(name: string): void {
    try {
      // a file time, as the saves' own (the real clock, not the session's)
      const now = new Date();
      utimesSync(`${this.path(name)}.open`, now, now);
    } catch {
      // no mark: nothing to note
    }
  }

  /** The open mark of a session whose process is gone: a REPL that ended without closing (a crash). */
  abandoned(name: string): OpenMark | undefined {
    const mark = this.readMark(name);
    return mark && mark.pid !== process.pid && !processAlive(mark.pid) ? mark : undefined;
  }

  private readMark(name: string): OpenMark | undefined {
    try {
      const m = JSON.parse(readFileSync(`${this.path(name)}.open`, 'utf8')) as Partial<OpenMark>;
      return typeof m.pid === 'number' && Number.isInteger(m.pid) && (m.mode === 'shell' || m.mode === 'practice' || m.mode === 'check' || m.mode === 'exam')
        ? { pid: m.pid, mode: m.mode, ...(typeof m.task === 'string' ? { task: m.task } : {}) }
        : undefined;
    } catch {
      return undefined;
    }
  }

  /** Sessions open in a running REPL, the most recently used first. */
  openSessions(): OpenSession[] {
    const dir = join(this.dir, 'sessions');
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith('.json.open') && !n.startsWith('.'));
    } catch {
      return [];
    }
    const out: OpenSession[] = [];
    for (const n of names) {
      const name = n.slice(0, -'.json.open'.length);
      const mark = this.readMark(name);
      if (!mark || !processAlive(mark.pid)) continue;
      let usedAt: number;
      try {
        // the last command: its save, or the mark a shell touches when a command changed nothing
        usedAt = Math.max(statSync(this.path(name)).mtimeMs, statSync(`${this.path(name)}.open`).mtimeMs, this.journalTime(name));
      } catch {
        continue;
      }
      out.push({ name, mark, usedAt });
    }
    return out.sort((a, b) => b.usedAt - a.usedAt || (a.name < b.name ? -1 : 1));
  }

  /**
   * The shell's save after a command: written only when something a resumed session would see
   * changed since `last` (what the previous call returned), so a read-only command costs no write
   * and no fsync. Compared: the whole session except the clock reading and the shell history;
   * the clock counts through its lead over the wall (a resumed clock continues from the file's
   * time plus the real time since its save, so while the lead stands, the file's time is still
   * right), within a second. History lines of commands that changed nothing wait for the next
   * write (`pending`): the shell writes them when it ends (a crash loses only those lines).
   */
  saveAfterCommand(name: string, fixture: string, seed: number, session: Session, last: SavedMark | undefined): SavedMark {
    const live = session.toJSON({ persist: true });
    // plain data that nothing changes later (the written tree is kept to diff the next save with)
    const data: SessionData = { ...live, frames: toPlainJSON(live.frames) as SessionData['frames'], aliases: toPlainJSON(live.aliases) as SessionData['aliases'] };
    // the frames and aliases are the live shell's (copied: a later command changes them in place);
    // the cluster's snapshot is a fresh copy already, apart from frozen objects nothing changes
    const cluster = data.cluster as typeof data.cluster & { state: { containerRuns?: ContainerRunsState } };
    // …and the running scripts' replay points, which follow the clock (runsWithoutReplayPoints)
    const state = { ...cluster.state, containerRuns: runsWithoutReplayPoints(cluster.state.containerRuns) };
    const seen = { fixture, seed, version: data.version, frames: data.frames, aliases: data.aliases, cluster: { ...cluster, now: 0, state } };
    const lead = data.cluster.now - this.realNow();
    const stamp = this.stamp(name);
    if (last && Math.abs(last.lead - lead) < 1000 && last.stamp === stamp && sameJSON(last.seen, seen))
      return { ...last, pending: last.pending || data.history.length !== last.history };
    const disk = last?.disk && last.stamp === stamp ? this.appendJournal(name, last.disk, data) : undefined;
    if (disk) return { seen, lead, stamp: this.stamp(name), history: data.history.length, pending: false, disk };
    const { file, bytes } = this.write(name, fixture, seed, data);
    return { seen, lead, stamp: this.stamp(name), history: data.history.length, pending: false, disk: { data, base: file.base!, baseBytes: bytes, records: 0, journalBytes: 0 } };
  }

  /**
   * Append the edits from what is on disk to `data` as the journal's next line; undefined (nothing
   * written) when the journal would grow past its share of the file: the caller writes it whole.
   */
  private appendJournal(name: string, disk: DiskState, data: SessionData): DiskState | undefined {
    const record: JournalRecord = { base: disk.base, n: disk.records + 1, savedAt: this.realNow(), ops: diffJSON(disk.data, data) };
    const line = `${JSON.stringify(record)}\n`;
    const bytes = Buffer.byteLength(line);
    if (disk.journalBytes + bytes > Math.max(JOURNAL_MIN_BYTES, disk.baseBytes * JOURNAL_SHARE)) return undefined;
    appendDurable(this.journalPath(name), line);
    return { data, base: disk.base, baseBytes: disk.baseBytes, records: record.n, journalBytes: disk.journalBytes + bytes };
  }

  /** The journal's modification time, 0 without one. */
  private journalTime(name: string): number {
    try {
      return statSync(this.journalPath(name)).mtimeMs;
    } catch {
      return 0;
    }
  }

  /**
   * Set a session file aside as `<file>.corrupt-<timestamp>` when it parsed but could not be
   * revived (an object no code can handle, a snapshot from an incompatible version).
   */
  quarantine(name: string): string {
    const movedTo = `${this.path(name)}.corrupt-${corruptStamp(this.realNow())}`;
    renameSync(this.path(name), movedTo);
    this.journalAside(name, movedTo);
    return movedTo;
  }

  /**
   * Rebuild a session from its file on a wall-following clock that includes the time away. The
   * file's data was parsed for this call alone, so the session takes it over without a copy.
   */
  revive(file: SessionFile, opts: SessionOptions = {}): OpenedSession {
    const away = Math.max(0, this.realNow() - file.savedAt);
    const clock = new WallClock(file.session.cluster.now + away, this.realNow);
    const session = Session.fromJSON(file.session, clock, CONTROLLERS, opts, true);
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
      const mtime = Math.max(statSync(join(dir, n)).mtimeMs, this.journalTime(n.slice(0, -5)));
      if (!best || mtime > best.mtime || (mtime === best.mtime && n < best.name)) best = { name: n.slice(0, -5), mtime };
    }
    return best?.name;
  }
}

/** The journal's lines that continue the chain from the full write `base`, in order. */
function journalRecords(text: string, base: string): JournalRecord[] {
  const out: JournalRecord[] = [];
  const lines = text.split('\n');
  // what follows the last newline is a line whose write did not finish
  lines.pop();
  for (const line of lines) {
    if (line === '') continue;
    let r: Partial<JournalRecord>;
    try {
      r = JSON.parse(line) as Partial<JournalRecord>;
    } catch {
      continue; // torn by a crash mid-write: the process that wrote it never went on from it
    }
    if (typeof r !== 'object' || r === null || r.base !== base || r.n !== out.length + 1 || typeof r.savedAt !== 'number' || !Number.isFinite(r.savedAt) || !Array.isArray(r.ops)) continue;
    out.push(r as JournalRecord);
  }
  return out;
}
