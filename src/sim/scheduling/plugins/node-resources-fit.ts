/**
 * NodeResourcesFit (pkg/scheduler/framework/plugins/noderesources/fit.go): the pod's requests must
 * fit in the node's allocatable minus what the pods already there request, and one more pod must
 * fit in `pods`. Reasons in upstream order: "Too many pods", "Insufficient cpu", "Insufficient
 * memory", "Insufficient ephemeral-storage". Since kubernetes#131345 (v1.34) a request larger than
 * the whole allocatable is UnschedulableAndUnresolvable (evicting pods cannot help).
 *
 * Score (weight 1) is the default LeastAllocated strategy over cpu and memory (weights 1, 1),
 * counting containers without requests at 100m / 200Mi (leastAllocatedScore).
 */
import type { FilterPlugin, NodeInfo, ScorePlugin, Status } from '../types.js';
import { MAX_NODE_SCORE } from '../types.js';
import { podRequest } from '../resources.js';
import type { Pod } from '../../api/types.js';

export function fitsRequest(pod: Pod, ni: NodeInfo): Status | undefined {
  const req = podRequest(pod);
  const reasons: string[] = [];
  let unresolvable = false;
  if (ni.pods.length + 1 > ni.allocatable.pods) reasons.push('Too many pods');
  const check = (want: number, alloc: number, used: number, name: string): void => {
    if (want > 0 && want > alloc - used) {
      reasons.push(`Insufficient ${name}`);
      if (want > alloc) unresolvable = true;
    }
  };
  if (req.milliCPU !== 0 || req.memory !== 0 || req.ephemeralStorage !== 0) {
    check(req.milliCPU, ni.allocatable.milliCPU, ni.requested.milliCPU, 'cpu');
    check(req.memory, ni.allocatable.memory, ni.requested.memory, 'memory');
    check(req.ephemeralStorage, ni.allocatable.ephemeralStorage, ni.requested.ephemeralStorage, 'ephemeral-storage');
  }
  if (reasons.length === 0) return undefined;
  return { plugin: 'NodeResourcesFit', code: unresolvable ? 'UnschedulableAndUnresolvable' : 'Unschedulable', reasons };
}

function leastAllocated(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

export const nodeResourcesFit: FilterPlugin & ScorePlugin = {
  name: 'NodeResourcesFit',
  weight: 1,
  filter(_ctx, pod, ni) {
    return fitsRequest(pod, ni);
  },
  score(_ctx, pod, feasible) {
    const req = podRequest(pod, true);
    return feasible.map((ni) => {
      const cpu = leastAllocated(ni.nonZeroRequested.milliCPU + req.milliCPU, ni.allocatable.milliCPU);
      const mem = leastAllocated(ni.nonZeroRequested.memory + req.memory, ni.allocatable.memory);
      return Math.trunc((cpu + mem) / 2);
    });
  },
};
