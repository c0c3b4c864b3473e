/**
 * The order of background jobs on the simulated clock. `sleep 5 && kubectl scale deploy web
 * --replicas=3 &` starts job 1: the list runs at once up to its `sleep`, and there it pauses; the
 * rest runs when the simulated clock reaches the sleep's end, whoever moves the clock: the wall
 * while the learner types (Session.exec syncs the REPL's wall clock up to each job's time in
 * turn, so what the job does happens at its time), a foreground `sleep`, `wait` or `fg`, or a
 * foreground `kubectl get -w`,
 * which prints its rows up to that time first, so the job's output and the watch's rows come in
 * clock order, as two processes writing to one terminal would.
 *
 * A paused job is a coroutine of the interpreter that started it (Interpreter.background and
 * pauseJob): only one list runs at a time, handing control back and forth, so the simulation stays
 * deterministic. This table only orders the pauses (earliest wake first, then the order they
 * paused in) and resumes them; the Session runs the clock between them (Session.runClockTo).
 *
 * Limits: a pause lives in memory. A new shell process starts without the saved jobs
 * (Session.endSavedJobs); a shell that reloads its file after a one-shot `cka-lab kubectl` wrote
 * it keeps its own session, jobs and paused lists, and takes over the file's cluster
 * (Session.adopt, cli/shell.ts).
 * The shell's own clock moves (`sleep`, `wait`, `fg`, a new line), `kubectl get -w`, and every
 * other foreground wait (kubectl/poll.ts pollUntil: `kubectl wait`, `rollout status`, `delete`'s
 * and `drain`'s waits, `logs -f` under `timeout`, helm's --wait and hook waits, `watch`) stop at
 * a job's time.
 */
import type { JobData, JobTable } from './jobs.js';
import type { LineBudget } from './budget.js';
import type { OutputChunk } from './interpreter.js';

/** Where a resumed job's terminal output goes, and the allowance of the line it runs in. */
export interface ResumeIo {
  terminal: (chunk: OutputChunk) => void;
  budget: LineBudget;
}

export interface Pause {
  /** The simulated time the job's sleep ends. */
  at: number;
  job: JobData;
  table: JobTable;
  /** Run the job on from its sleep until it pauses again or ends. */
  resume: (io: ResumeIo) => Promise<void>;
}

/** A pause as the clock keeps it: the order it came in, and how long its job had stood stopped by then. */
type Paused = Pause & { seq: number; stoodStill: number };

export class JobClock {
  private pauses: Paused[] = [];
  private seq = 0;

  add(p: Pause): void {
    this.pauses.push({ ...p, seq: this.seq++, stoodStill: p.job.stoppedMs ?? 0 });
    p.table.live.add(p.job);
  }

  /**
   * When a pause's sleep ends: later by the time its job stood stopped since it paused (`kill
   * -STOP %1`, then `kill -CONT %1`); a stopped job's never comes until it is continued.
   */
  private wakeAt(p: Paused): number | undefined {
    if (p.job.stopped) return undefined;
    return p.at + (p.job.stoppedMs ?? 0) - p.stoodStill;
  }

  /** A pause whose job has since ended (`kill %1`, a hangup) never resumes. */
  private prune(): void {
    this.pauses = this.pauses.filter((p) => {
      if (!p.job.ended) return true;
      p.table.live.delete(p.job);
      return false;
    });
  }

  /** When the next paused job wakes, if any job is paused. */
  next(): number | undefined {
    this.prune();
    let at: number | undefined;
    for (const p of this.pauses) {
      const w = this.wakeAt(p);
      if (w !== undefined && (at === undefined || w < at)) at = w;
    }
    return at;
  }

  /** Whether `job` is paused here (it has a continuation to run). */
  paused(job: JobData): Pause | undefined {
    this.prune();
    return this.pauses.find((p) => p.job === job);
  }

  /**
   * Resume every job whose sleep ended by `now`, earliest first (ties in the order they paused),
   * each until it pauses again or ends; a job that pauses again within `now` runs again.
   */
  async runDue(now: number, io: ResumeIo): Promise<boolean> {
    let ran = false;
    for (let guard = 0; guard < 10_000; guard++) {
      this.prune();
      const due = this.pauses
        .map((p) => ({ p, at: this.wakeAt(p) }))
        .filter((x): x is { p: Paused; at: number } => x.at !== undefined && x.at <= now)
        .sort((a, b) => a.at - b.at || a.p.seq - b.p.seq)[0]?.p;
      if (!due) break;
      this.pauses.splice(this.pauses.indexOf(due), 1);
      due.table.live.delete(due.job);
      ran = true;
      await due.resume(io);
    }
    return ran;
  }
}
