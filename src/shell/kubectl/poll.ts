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
