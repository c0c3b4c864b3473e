/** Test helpers that watch the kubelet work (kubelet-quiet.test.ts, kubelet-tick.test.ts). */
import type { Cluster } from '../sim/cluster.js';

/**
 * How many pods the kubelet syncs while `fn` runs: it brackets every pod's sync with two calls of
 * Cluster.earliestWakeAsked (kubelet.ts reconcile), and nothing else calls it.
 */
export function podSyncs(c: Cluster, fn: () => void): number {
  const orig = c.earliestWakeAsked.bind(c);
  let calls = 0;
  c.earliestWakeAsked = (): number => {
    calls++;
    return orig();
  };
  try {
    fn();
  } finally {
    c.earliestWakeAsked = orig;
  }
  return calls / 2;
}
