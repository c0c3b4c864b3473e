/**
 * Waiting on the simulated clock, the way kubectl's watches wait on the real one
 * (client-go tools/watch UntilWithSync under a context with a deadline): check, and if the
 * condition does not hold yet, move time to the cluster's next timed event (nothing can change
 * in between: controllers only run when something they watch changed) or to the deadline,
 * whichever comes first. A wait therefore costs exactly the simulated time it would take for
 * real, and never more than its timeout.
 *
 * This is the one place a foreground wait moves the clock (`kubectl wait`, `rollout status`,
 * `delete`'s and `drain`'s waits, `run --rm`, `replace --force`, `logs -f` under `timeout`,
 * `debug`/`attach`, helm's `--wait` and hook waits, `watch`): it stops at the times the shell's
 * paused background jobs wake (shell/job-clock.ts), so `sleep 5 && kubectl scale … &` runs at its
 * time in the middle of any of them, and its output comes in clock order with theirs. (The
 * shell's own `sleep`, `wait` and `fg` go through Session.runClockTo; `kubectl get -w` keeps its
 * own loop, which stops at the same times.)
 */
import type { Cluster } from '../../sim/cluster.js';
import { BudgetExceeded, DeadlineReached, type LineBudget } from '../budget.js';

/** What a wait needs: the cluster, the line's budget, and the shell's paused jobs (ShellContext.jobs). */
export interface WaitEnv {
  cluster: Cluster;
  budget?: LineBudget;
  jobs?: { next(): number | undefined; runDue(): Promise<void> };
}

/**
 * Move the clock event by event until `check` returns a value other than undefined or the clock
 * reaches `deadline`, paying no attention to jobs (pollUntil calls it between their times).
 * The shell line's budget of simulated time caps the wait: a timeout beyond it
 * (`--timeout=2000000h`) ends the line there, as Ctrl-C would, the clock moved only that far;
 * a `timeout N` around the command kills it at its deadline (DeadlineReached).
 */
function advanceUntil<T>(env: WaitEnv, deadline: number, check: () => T | undefined): T | undefined {
  const cluster = env.cluster;
  const start = cluster.now();
  const cap = env.budget ? start + env.budget.timeLeft() : Infinity;
  const until = Math.min(deadline, cap);
  const charge = (): void => env.budget?.time(Math.max(0, cluster.now() - start));
  for (let guard = 0; guard < 100_000; guard++) {
    env.budget?.step();
    const r = check();
    if (r !== undefined) {
      charge();
      return r;
    }
    const now = cluster.now();
    if (now >= until) break;
    const next = cluster.nextWakeup();
    cluster.advanceTo(next === undefined ? until : Math.min(Math.max(next, now), until));
  }
  const bound = env.budget?.deadlineBinds() ?? false;
  charge();
  if (until < deadline) throw bound ? new DeadlineReached() : new BudgetExceeded('time');
  return undefined;
}

/**
 * Poll `check` until it returns a value other than undefined or the clock reaches `deadline`
 * (then undefined), stopping at each time a paused background job wakes before the deadline:
 * `flush` writes what the wait printed so far (ShellContext.emit), the job runs at its time,
 * and the wait goes on seeing what it did.
 */
export async function pollUntil<T>(env: WaitEnv, deadline: number, check: () => T | undefined, flush?: () => void): Promise<T | undefined> {
  const jobs = env.jobs;
  for (let guard = 0; jobs && guard < 10_000; guard++) {
    const at = jobs.next();
    if (at === undefined || at >= deadline) break;
    if (at <= env.cluster.now()) {
      const r = check();
      if (r !== undefined) return r;
      flush?.();
      await jobs.runDue();
      continue;
    }
    const r = advanceUntil(env, at, check);
    if (r !== undefined) return r;
  }
  return advanceUntil(env, deadline, check);
}
