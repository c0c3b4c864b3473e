/**
 * NodeResourcesBalancedAllocation (pkg/scheduler/framework/plugins/noderesources/
 * balanced_allocation.go, weight 1): prefers the node where cpu and memory would be used in
 * similar fractions after placing the pod: (1 - standard deviation of the fractions) × 100, over
 * the actual requests.
 */
import type { ScorePlugin } from '../types.js';
import { MAX_NODE_SCORE } from '../types.js';
import { podRequest } from '../resources.js';

export const balancedAllocation: ScorePlugin = {
  name: 'NodeResourcesBalancedAllocation',
  weight: 1,
  score(_ctx, pod, feasible) {
    const req = podRequest(pod);
    return feasible.map((ni) => {
      const frac = (used: number, cap: number): number => (cap === 0 ? 0 : Math.min(1, used / cap));
      const cpu = frac(ni.requested.milliCPU + req.milliCPU, ni.allocatable.milliCPU);
      const mem = frac(ni.requested.memory + req.memory, ni.allocatable.memory);
      const std = Math.abs(cpu - mem) / 2;
      return Math.trunc((1 - std) * MAX_NODE_SCORE);
    });
  },
};
