/**
 * The budget of one command line. Real bash runs `while true; do :; done` until Ctrl-C; the
 * simulator has to answer, so every line gets one shared allowance, and whatever exhausts it ends
 * the line the way Ctrl-C would (status 130) with one message that names the simulator's limit:
 *
 * - steps: interpreter steps (simple commands, loop turns, function calls, pipeline members,
 *   command substitutions) plus the cycles of sed and awk scripts, all charged to one counter, so
 *   nested loops cannot multiply their limits; sized to about a second of CPU;
 * - output: characters written by the line, in total, to the terminal, pipes and files, so
 *   `seq 1 100000000000 | tail -1` stops with a message instead of a silently wrong answer;
 * - simulated time: what `sleep`, `kubectl wait` and friends may move the cluster's clock in one
 *   line. A wait past it moves the clock not at all and ends the line;
 * - interruption: an AbortSignal (the REPL's SIGINT) checked at every step and every await.
 */

/** Steps one line may take (a `:` loop turn costs two; about a second of CPU on a busy machine). */
export const LINE_STEPS = 200_000;

/** Characters one line may write, summed over every stream (`seq 1 1000000` is 6.6 MiB). */
export const LINE_OUTPUT = 16 * 1024 * 1024;

/** Regular expression work (thread steps of util/regex) that costs one step. */
export const REGEX_WORK_PER_STEP = 32;

/** Simulated time one line may consume: a week, enough to watch a weekly CronJob fire. */
export const LINE_SIM_MS = 7 * 24 * 3600 * 1000;

export type BudgetReason = 'steps' | 'output' | 'time' | 'interrupt' | 'patience' | 'deadline';

/**
 * Thrown through the interpreter and commands to end the line; caught once, at its top.
 * `patience`: a command that would wait on for what cannot happen while it waits (a deletion held
 * by finalizers) is ended as the learner would end it, with the command's own explanation.
 */
export class BudgetExceeded extends Error {
  constructor(
    readonly reason: BudgetReason,
    detail?: string,
  ) {
    super(detail ?? budgetMessage(reason));
  }
}

/** What the learner reads on stderr when a line is stopped (after the `^C` bash's terminal echoes). */
export function budgetMessage(reason: BudgetReason): string {
  switch (reason) {
    case 'steps':
      return `cka-lab: line stopped after ${LINE_STEPS} steps (simulator limit; bash would run until Ctrl-C)`;
    case 'output':
      return `cka-lab: line stopped after writing ${LINE_OUTPUT / (1024 * 1024)} MiB (simulator limit; bash would run until Ctrl-C)`;
    case 'time':
      return `cka-lab: line stopped: it would wait past ${LINE_SIM_MS / 86_400_000} days of simulated time (simulator limit; bash would wait until Ctrl-C)`;
    case 'interrupt':
    case 'patience':
    case 'deadline':
      return '';
  }
}

/**
 * Thrown when a command waiting on the clock reaches the deadline of a `timeout` around it: the
 * command is killed there (timeout.ts turns it into status 124). A subclass of BudgetExceeded so
 * that it passes through the interpreter's command boundaries as the line's limits do.
 */
export class DeadlineReached extends BudgetExceeded {
  /** What the killed command had written by then (a command that prints as it waits sets it). */
  stdout = '';
  constructor() {
    super('deadline');
  }
}

/** Exit status of a line ended by its budget or by Ctrl-C: 128 + SIGINT, as bash reports it. */
export const INTERRUPTED_STATUS = 130;

export class LineBudget {
  private stepCount = 0;
  private written = 0;
  private waited = 0;
  /** `timeout` deadlines in force, as values of `waited` (innermost last). */
  private deadlines: number[] = [];

  constructor(
    readonly signal?: AbortSignal,
    readonly limits: { steps: number; output: number; simMs: number } = { steps: LINE_STEPS, output: LINE_OUTPUT, simMs: LINE_SIM_MS },
  ) {}

  get steps(): number {
    return this.stepCount;
  }

  /** Charge `n` steps; throws when the line is over its allowance or was interrupted. */
  step(n = 1): void {
    this.stepCount += n;
    if (this.stepCount > this.limits.steps) throw new BudgetExceeded('steps');
    if (this.signal?.aborted) throw new BudgetExceeded('interrupt');
  }

  /** Charge `chars` characters of output. */
  output(chars: number): void {
    this.written += chars;
    if (this.written > this.limits.output) throw new BudgetExceeded('output');
  }

  /** Whether `chars` more characters would still fit (for commands that build output in a loop). */
  outputLeft(): number {
    return Math.max(0, this.limits.output - this.written);
  }

  /**
   * Charge simulated time about to pass (`sleep`); throws, charging nothing, when it would go past
   * the allowance or is not a finite number.
   */
  time(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0 || this.waited + ms > this.limits.simMs) throw new BudgetExceeded('time');
    this.waited += ms;
  }

  /** Simulated time still allowed in this line, or before the nearest `timeout` deadline. */
  timeLeft(): number {
    let left = this.limits.simMs - this.waited;
    for (const d of this.deadlines) left = Math.min(left, d - this.waited);
    return Math.max(0, left);
  }

  /** Simulated time charged so far (sleep, waits, watches). */
  get waitedMs(): number {
    return this.waited;
  }

  /** Run `fn` with a deadline `ms` of simulated time from now (the `timeout` command). */
  async withDeadline<T>(ms: number, fn: () => Promise<T>): Promise<T> {
    this.deadlines.push(this.waited + ms);
    try {
      return await fn();
    } finally {
      this.deadlines.pop();
    }
  }

  /** Whether a `timeout` deadline, not the line's own allowance, is what ends a wait now. */
  deadlineBinds(): boolean {
    return this.deadlines.some((d) => d - this.waited < this.limits.simMs - this.waited);
  }

  /** A meter for util/regex searches that charges their work to this budget as it happens. */
  regexMeter(): { work: number } {
    let work = 0;
    const charge = (n: number): void => this.step(n / REGEX_WORK_PER_STEP);
    return {
      get work(): number {
        return work;
      },
      set work(v: number) {
        const d = v - work;
        work = v;
        if (d > 0) charge(d);
      },
    };
  }

  /** Throw if the line was interrupted. */
  checkInterrupt(): void {
    if (this.signal?.aborted) throw new BudgetExceeded('interrupt');
  }
}
