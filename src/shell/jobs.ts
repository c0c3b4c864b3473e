/**
 * bash's job table for an interactive shell (bash jobs.c): `LIST &` starts job N and prints
 * `[N] PID` to stderr; `jobs` lists `[N]+  Running                 TEXT &`; a job that ended is
 * reported once, after the next command's output (`[N]+  Done                    TEXT`,
 * `Exit 1`, `Terminated`) and then forgotten; job numbers start again at 1 when the table empties.
 * `+` marks the current job (the newest), `-` the previous one. Formats recorded from bash 5.2 in a
 * terminal (`script -qc "bash --norc -i"`).
 *
 * Most background lists finish while they start (the simulation runs them at once); a process that
 * keeps running (`kubectl port-forward … &`) stays Running and holds what it `holds` until it ends.
 *
 * Stopped jobs (Ctrl-Z on a command the terminal holds, Session.foreground): `[N]+  Stopped` with
 * no `&`; `+`/`-` follow bash's current and previous job (jobs.c set_current_job, reset_current):
 * a stopped job stays current over newer running ones, and the marks move only when a job starts,
 * stops, continues or is forgotten, not when it dies. Texts recorded from bash 5.2.15 on a pty
 * (testdata/job-control*.txt).
 */
import { LIVE, type Held, type PIPE, type PipeRest } from './commands/types.js';
import type { LineBudget } from './budget.js';
import type { RunOutput } from './interpreter.js';

/** In memory only, as LIVE: a saved session's JSON leaves it out. */
export const LIST_REST = Symbol('list-rest');

/** What is left of a list once its held first pipeline ended with `status` (148: stopped). */
export type ListRest = (status: number, budget: LineBudget) => Promise<RunOutput>;

export interface JobData {
  n: number;
  pid: number;
  /** The command as bash prints it (make_command_string), without the `&`. */
  text: string;
  /** Still running: what the process holds (listening sockets, the pod it forwards to). */
  holds?: Held;
  /** Still running until the simulated clock reaches `at` (`sleep 30 &`), then ends with `status`. */
  until?: { at: number; status: number };
  /**
   * How it ended: exit status, or the signal (name without SIG) that ended it. `late`: it ended
   * during this line by the line's own doing (a `kill`, a list that finished as it started), which
   * bash reaps only after the next line; a job that ends on its own is reported at this line's end.
   */
  ended?: { status: number; signal?: string; late?: true };
  /** `disown`: no longer listed or reported, though the process runs on. */
  disowned?: true;
  /** Stopped (SIGTSTP) at simulated time `at`: a sleep's end moves on by the time it stood still. */
  stopped?: { at: number };
  /** Held by the terminal (Session.foreground): it is no one's background job and ends without a notice. */
  foreground?: true;
  /**
   * A notice due before the next prompt that is not its end: `kill %N` of a stopped job shows it
   * once more as Stopped (bash clears J_NOTIFIED in kill_pid; it dies only once continued).
   */
  notice?: string;
  /**
   * Stopped by `kill -STOP`/`-TSTP`/`-TTIN`/`-TTOU` from a line: bash learns of it from SIGCHLD
   * after that line's prompt, so `[N]+  Stopped  TEXT` (after a newline) comes at the end of the
   * next line (`next`, then `now`), unless `jobs` shows it first or it is continued before.
   * Recorded from bash 5.2.15 (testdata/job-control-signals.txt).
   */
  stopNotice?: 'next' | 'now';
  /** Simulated milliseconds it stood stopped in all (a paused list's sleep ends that much later: JobClock). */
  stoppedMs?: number;
  /** A pipeline the terminal held: its later members, which read what its first one writes (Session.pipeOutput). */
  [PIPE]?: PipeRest;
  /** The first pipeline of a list the terminal held: what is left of the list, run when it ends or stops (Interpreter.runHolding). */
  [LIST_REST]?: ListRest;
}


/** strsignal(3) texts (glibc) bash prints for a job a signal ended. */
const SIGNAL_TEXT: Record<string, string> = {
  HUP: 'Hangup',
  INT: 'Interrupt',
  QUIT: 'Quit',
  ABRT: 'Aborted',
  KILL: 'Killed',
  USR1: 'User defined signal 1',
  SEGV: 'Segmentation fault',
  USR2: 'User defined signal 2',
  PIPE: 'Broken pipe',
  ALRM: 'Alarm clock',
  TERM: 'Terminated',
};

/** bash prints the status in a 24-column field (jobs.c pretty_print_job, print_job's `%-*s`). */
const STATUS_WIDTH = 24;

function statusText(j: JobData): string {
  if (!j.ended) return j.stopped ? 'Stopped' : 'Running';
  if (j.ended.signal) return SIGNAL_TEXT[j.ended.signal] ?? `Signal ${j.ended.status - 128}`;
  return j.ended.status === 0 ? 'Done' : `Exit ${j.ended.status}`;
}

export class JobTable {
  /** Jobs paused in a sleep with their list's continuation in memory (job-clock.ts): they end by running on. */
  readonly live = new Set<JobData>();

  /** bash's current (`+`) and previous (`-`) job (jobs.c js.j_current, js.j_previous). */
  private current: JobData | undefined;
  private previous: JobData | undefined;

  constructor(
    readonly jobs: JobData[] = [],
    /** The next process id to hand out (a fixed start: same commands, same pids). */
    private nextPid = 4300,
  ) {
    this.resetCurrent();
  }

  /**
   * A new job: in the background (`LIST &`, the current job becomes the newest running one unless
   * a stopped job is current), or held by the terminal (`foreground`: the marks stay as they are).
   */
  start(text: string, foreground = false): JobData {
    const n = this.listed().reduce((m, j) => Math.max(m, j.n), 0) + 1;
    const job: JobData = { n, pid: this.nextPid, text, ...(foreground ? { foreground: true as const } : {}) };
    this.nextPid += 2;
    this.jobs.push(job);
    if (!foreground) this.resetCurrent();
    return job;
  }

  /** The pid the next job will get (a command the terminal may hold learns it before its job exists). */
  peekPid(): number {
    return this.nextPid;
  }

  /**
   * Whether bash still sees the job alive: one that ended by this line's own doing (`late`: a
   * `kill`) is reaped after the next line, so until then it counts as running or stopped.
   */
  private alive(j: JobData): boolean {
    return !j.ended || j.ended.late === true;
  }

  private isStopped(j: JobData | undefined): boolean {
    return !!j && this.alive(j) && !!j.stopped && this.jobs.includes(j);
  }

  private isRunning(j: JobData): boolean {
    return this.alive(j) && !j.stopped && !j.foreground;
  }

  /** The newest job in a state older than `than` (jobs.c most_recent_job_in_state). */
  private newest(test: (j: JobData) => boolean, than?: JobData): JobData | undefined {
    const shown = this.listed();
    const end = than ? shown.indexOf(than) : shown.length;
    for (let i = end - 1; i >= 0; i--) if (test(shown[i]!)) return shown[i];
    return undefined;
  }

  /** jobs.c set_current_job: `j` becomes current; the previous job is made useful. */
  private setCurrent(j: JobData): void {
    if (this.current !== j) {
      this.previous = this.current;
      this.current = j;
    }
    if (this.previous !== j && this.previous && this.listed().includes(this.previous) && this.isStopped(this.previous)) return;
    if (this.isStopped(j)) {
      const older = this.newest((x) => this.isStopped(x), j);
      if (older) {
        this.previous = older;
        return;
      }
    }
    const running = this.isRunning(j) ? this.newest((x) => this.isRunning(x), j) : this.newest((x) => this.isRunning(x));
    this.previous = running ?? j;
  }

  /** jobs.c reset_current: keep a stopped current job, else the previous stopped one, the newest stopped, the newest running. */
  private resetCurrent(): void {
    const shown = this.listed();
    let pick: JobData | undefined;
    if (this.current && shown.includes(this.current) && this.isStopped(this.current)) pick = this.current;
    else if (this.previous && shown.includes(this.previous) && this.isStopped(this.previous)) pick = this.previous;
    else pick = this.newest((x) => this.isStopped(x)) ?? this.newest((x) => this.isRunning(x));
    if (pick) this.setCurrent(pick);
    else if (!this.current || !shown.includes(this.current) || !this.previous || !shown.includes(this.previous)) {
      // no stopped or running job: bash has none current (js.j_current = NO_JOB)
      this.current = this.previous = undefined;
    }
  }

  /** Ctrl-Z: the job stops and becomes the current one (jobs.c waitchld → set_current_job). */
  stop(j: JobData, now: number): void {
    if (j.ended || j.stopped) return;
    j.stopped = { at: now };
    delete j.foreground;
    j.holds?.[LIVE]?.pause?.(true);
    this.setCurrent(j);
  }

  /**
   * `kill -STOP %N` (or -TSTP, -TTIN, -TTOU) from a line: the process stops now, but bash learns
   * of it (waitchld: the job becomes current, its notice is due) only after the line: a `kill
   * -CONT` on the same line leaves no trace (recorded in testdata/job-control-signals.txt).
   */
  stopBySignal(j: JobData, now: number): void {
    if (j.ended || j.stopped) return;
    j.stopped = { at: now };
    j.holds?.[LIVE]?.pause?.(true);
    j.stopNotice = 'next';
  }

  /** bash reaps the stops signalled from the line before (stopBySignal): the job becomes current, its notice due. */
  private reapStops(): void {
    for (const j of this.jobs) {
      if (j.stopNotice !== 'next') continue;
      j.stopNotice = 'now';
      if (j.stopped && !j.ended) this.setCurrent(j);
    }
  }

  /**
   * `bg`/`fg`/`kill -CONT`: a stopped job runs on; a sleep's end moves by the time it stood still.
   * `kill -CONT` leaves the marks as they are (recorded: `[1]+  Running` stays current).
   */
  cont(j: JobData, now: number, foreground = false, keepMarks = false): void {
    const st = j.stopped;
    if (st) {
      delete j.stopped;
      delete j.stopNotice;
      j.holds?.[LIVE]?.pause?.(false);
      const still = Math.max(0, now - st.at);
      j.stoppedMs = (j.stoppedMs ?? 0) + still;
      if (j.until) j.until = { ...j.until, at: j.until.at + still };
    }
    if (keepMarks) delete j.foreground;
    else if (foreground) {
      j.foreground = true;
      this.setCurrent(j);
    } else {
      delete j.foreground;
      this.resetCurrent();
    }
  }

  /** The job the terminal holds ended (Ctrl-C, its end): bash deletes a foreground job without a notice. */
  drop(j: JobData): void {
    if (this.jobs.includes(j)) this.forget([j]);
  }

  /** Whether any job is stopped (`exit` then warns, Session). */
  hasStopped(): boolean {
    return this.jobs.some((j) => !j.ended && !!j.stopped && !j.disowned);
  }

  /** The pid the next process would get, for a background list in a shell without job control. */
  takePid(): number {
    const p = this.nextPid;
    this.nextPid += 2;
    return p;
  }

  running(): JobData[] {
    return this.jobs.filter((j) => !j.ended);
  }

  /** The jobs `jobs` shows (not disowned ones). */
  listed(): JobData[] {
    return this.jobs.filter((j) => !j.disowned);
  }

  /** `+` for the current job, `-` for the previous one (jobs.c pretty_print_job). */
  mark(j: JobData): string {
    if (j === this.current) return '+';
    return j === this.previous ? '-' : ' ';
  }

  /** One line as `jobs` (and the end-of-job notice) prints it; `-l` adds the pid. */
  line(j: JobData, long = false): string {
    const status = statusText(j).padEnd(STATUS_WIDTH, ' ');
    return `[${j.n}]${this.mark(j)}  ${long ? `${j.pid} ` : ''}${status}${j.text}${j.ended || j.stopped ? '' : ' &'}\n`;
  }

  /** `jobs [-l] [-p]`: every job; the ended ones are reported now and forgotten, a stop it shows is no longer news. */
  list(opts: { long?: boolean; pids?: boolean } = {}): string {
    this.reapStops();
    const shown = this.listed();
    for (const j of shown) delete j.stopNotice;
    const out = shown.map((j) => (opts.pids ? `${j.pid}\n` : this.line(j, opts.long))).join('');
    this.forget(shown.filter((j) => j.ended));
    return out;
  }

  /** The notices bash prints before the next prompt: the jobs that ended (not `late`), then forgotten. */
  notices(): string {
    let out = '';
    const ended: JobData[] = [];
    for (const j of this.listed()) {
      if (j.notice !== undefined) {
        out += j.notice;
        delete j.notice;
      } else if (j.stopNotice === 'now' && j.stopped && !j.ended) out += `\n${this.line(j)}`;
      if (j.stopNotice === 'now') delete j.stopNotice;
      if (j.ended && !j.ended.late && !j.foreground) {
        out += this.line(j);
        ended.push(j);
      }
    }
    this.forget(ended);
    return out;
  }

  /** Called with what an ending job held, so its owner can release it (the session closes its sockets). */
  onEnd: ((j: JobData, held: Held) => void) | undefined;

  /** The job's process ended: with an exit status, or by signal `signal` numbered `status - 128`. */
  end(j: JobData, status: number, signal?: string, late = false): void {
    j.ended = { status, ...(signal ? { signal } : {}), ...(late ? { late: true as const } : {}) };
    const held = j.holds;
    delete j.holds;
    delete j.until;
    if (held) this.onEnd?.(j, held);
    if (j.disowned) this.forget([j]);
  }

  /** Forget every job without a notice (a new shell process starts with an empty table). */
  clear(): void {
    this.jobs.splice(0);
    this.live.clear();
    this.current = this.previous = undefined;
  }

  /** Jobs leave the table (jobs.c delete_job: the marks are reset when they pointed at one). */
  private forget(ended: JobData[]): void {
    for (const j of ended) {
      const i = this.jobs.indexOf(j);
      if (i >= 0) this.jobs.splice(i, 1);
    }
    if (ended.some((j) => j === this.current || j === this.previous)) this.resetCurrent();
  }

  /** A job leaves the table without a notice (`wait`, `fg`, `disown` of one that ended). */
  remove(j: JobData): void {
    this.forget([j]);
  }

  /**
   * A job spec (bash jobs.c get_job_spec): %N, %%, %+, %-, %STRING (the command starts with it),
   * %?STRING (contains it). Returns the job, or bash's complaint.
   */
  find(spec: string): JobData | string {
    const s = spec.startsWith('%') ? spec.slice(1) : spec;
    const jobs = this.listed();
    const last = jobs[jobs.length - 1];
    let hit: JobData | undefined;
    const cur = this.current && jobs.includes(this.current) ? this.current : last;
    if (s === '' || s === '%' || s === '+') hit = cur;
    else if (s === '-') hit = (this.previous && jobs.includes(this.previous) ? this.previous : undefined) ?? jobs[jobs.length - 2] ?? cur;
    else if (/^\d+$/.test(s)) hit = jobs.find((j) => j.n === Number(s));
    else {
      const contains = s.startsWith('?');
      const want = contains ? s.slice(1) : s;
      const all = jobs.filter((j) => (contains ? j.text.includes(want) : j.text.startsWith(want)));
      if (all.length > 1) return `${spec}: ambiguous job spec`;
      hit = all[0];
    }
    return hit ?? `${spec}: no such job`;
  }

  /** A new line starts: the jobs that ended late are reported at its end. */
  newLine(): void {
    for (const j of this.jobs) if (j.ended) delete j.ended.late;
    this.reapStops();
  }

  byPid(pid: number): JobData | undefined {
    return this.jobs.find((j) => j.pid === pid && !j.ended);
  }

  toJSON(): { jobs: JobData[]; nextPid: number } {
    return { jobs: this.jobs.map((j) => ({ ...j })), nextPid: this.nextPid };
  }
}
