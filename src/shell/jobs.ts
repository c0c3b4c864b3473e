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
 */
import type { Held } from './commands/types.js';

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
  if (!j.ended) return 'Running';
  if (j.ended.signal) return SIGNAL_TEXT[j.ended.signal] ?? `Signal ${j.ended.status - 128}`;
  return j.ended.status === 0 ? 'Done' : `Exit ${j.ended.status}`;
}

export class JobTable {
  /** Jobs paused in a sleep with their list's continuation in memory (job-clock.ts): they end by running on. */
  readonly live = new Set<JobData>();

  constructor(
    readonly jobs: JobData[] = [],
    /** The next process id to hand out (a fixed start: same commands, same pids). */
    private nextPid = 4300,
  ) {}

  start(text: string): JobData {
    const n = this.listed().reduce((m, j) => Math.max(m, j.n), 0) + 1;
    const job: JobData = { n, pid: this.nextPid, text };
    this.nextPid += 2;
    this.jobs.push(job);
    return job;
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

  /** `+` for the newest job, `-` for the one before it. */
  private mark(j: JobData): string {
    const shown = this.listed();
    const i = shown.indexOf(j);
    if (i === shown.length - 1) return '+';
    return i === shown.length - 2 ? '-' : ' ';
  }

  /** One line as `jobs` (and the end-of-job notice) prints it; `-l` adds the pid. */
  line(j: JobData, long = false): string {
    const status = statusText(j).padEnd(STATUS_WIDTH, ' ');
    return `[${j.n}]${this.mark(j)}  ${long ? `${j.pid} ` : ''}${status}${j.text}${j.ended ? '' : ' &'}\n`;
  }

  /** `jobs [-l] [-p]`: every job; the ended ones are reported now and forgotten. */
  list(opts: { long?: boolean; pids?: boolean } = {}): string {
    const shown = this.listed();
    const out = shown.map((j) => (opts.pids ? `${j.pid}\n` : this.line(j, opts.long))).join('');
    this.forget(shown.filter((j) => j.ended));
    return out;
  }

  /** The notices bash prints before the next prompt: the jobs that ended (not `late`), then forgotten. */
  notices(): string {
    const ended = this.listed().filter((j) => j.ended && !j.ended.late);
    const out = ended.map((j) => this.line(j)).join('');
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
  }

  private forget(ended: JobData[]): void {
    for (const j of ended) this.jobs.splice(this.jobs.indexOf(j), 1);
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
    if (s === '' || s === '%' || s === '+') hit = last;
    else if (s === '-') hit = jobs[jobs.length - 2] ?? last;
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
  }

  byPid(pid: number): JobData | undefined {
    return this.jobs.find((j) => j.pid === pid && !j.ended);
  }

  toJSON(): { jobs: JobData[]; nextPid: number } {
    return { jobs: this.jobs.map((j) => ({ ...j })), nextPid: this.nextPid };
  }
}
