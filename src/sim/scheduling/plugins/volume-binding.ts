/**
 * VolumeBinding (pkg/scheduler/framework/plugins/volumebinding): in PreFilter every claim the pod
 * mounts must exist, and with immediate binding be Bound, otherwise the pod fails before any node
 * is tried; in Filter a node must satisfy the nodeAffinity of the volumes already bound
 * (ErrReasonNodeConflict, `node(s) had volume node affinity conflict`). Delayed-binding
 * (WaitForFirstConsumer) claims do not block.
 */
import type { FilterPlugin } from '../types.js';
import { status } from '../types.js';

export const volumeBinding: FilterPlugin = {
  name: 'VolumeBinding',
  preFilter(ctx, pod) {
    for (const v of pod.spec.volumes ?? []) {
      const name = v.persistentVolumeClaim?.claimName;
      if (!name) continue;
      const problem = ctx.claimProblem(pod.metadata.namespace ?? 'default', name);
      if (problem !== undefined) return status(this.name, 'UnschedulableAndUnresolvable', problem);
    }
    return undefined;
  },
  filter(ctx, pod, ni) {
    if (!ctx.volumeNodeAffinityOk(pod, ni.node)) return status(this.name, 'UnschedulableAndUnresolvable', 'node(s) had volume node affinity conflict');
    return undefined;
  },
};
