/**
 * Waiting on the simulated clock, the way kubectl's watches wait on the real one
 * (client-go tools/watch UntilWithSync under a context with a deadline): check, and if the
 * condition does not hold yet, move time to the cluster's next timed event (nothing can change
 * in between: controllers only run when something they watch changed) or to the deadline,
 * whichever comes first. A wait therefore costs exactly the simulated time it would take for
 * real, and never more than its timeout.
 */
import type { KubectlEnv } from './context.js';

/** Poll `check` until it returns a value other than undefined or the clock reaches `deadline`. */
export function pollUntil<T>(env: KubectlEnv, deadline: number, check: () => T | undefined): T | undefined {
  const cluster = env.cluster;
  for (let guard = 0; guard < 100_000; guard++) {
    const r = check();
    if (r !== undefined) return r;
    const now = cluster.now();
    if (now >= deadline) return undefined;
    const next = cluster.nextWakeup();
    cluster.advanceTo(next === undefined ? deadline : Math.min(Math.max(next, now), deadline));
  }
  return undefined;
}
