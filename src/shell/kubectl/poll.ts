/**
 * Waiting on the simulated clock, the way kubectl's watches wait on the real one
 * (client-go tools/watch UntilWithSync under a context with a deadline): check, and if the
 * condition does not hold yet, move time to the cluster's next timed event (nothing can change
 * in between: controllers only run when something they watch changed) or to the deadline,
 * whichever comes first. A wait therefore costs exactly the simulated time it would take for
 * real, and never more than its timeout.
 */
import type { KubectlEnv } from './context.js';
import { BudgetExceeded, DeadlineReached } from '../budget.js';

/**
 * Poll `check` until it returns a value other than undefined or the clock reaches `deadline`.
 * The shell line's budget of simulated time caps the wait: a timeout beyond it
 * (`--timeout=2000000h`) ends the line there, as Ctrl-C would, the clock moved only that far;
 * a `timeout N` around the command kills it at its deadline (DeadlineReached).
 */
export function pollUntil<T>(env: Pick<KubectlEnv, 'cluster' | 'budget'>, deadline: number, check: () => T | undefined): T | undefined {
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
 * pollUntil that stops at the times the shell's paused background jobs wake (shell/job-clock.ts:
 * `sleep 5 && kubectl scale … &` before `kubectl wait` or `rollout status`): `flush` writes what
 * the wait printed so far, the job runs at its time, and the wait goes on seeing what it did.
 */
export async function pollUntilJobs<T>(env: Pick<KubectlEnv, 'cluster' | 'budget' | 'jobs'>, deadline: number, check: () => T | undefined, flush?: () => void): Promise<T | undefined> {
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
    const r = pollUntil(env, at, check);
    if (r !== undefined) return r;
  }
  return pollUntil(env, deadline, check);
}
