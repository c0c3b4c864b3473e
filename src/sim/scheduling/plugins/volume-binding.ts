/**
 * VolumeBinding (pkg/scheduler/framework/plugins/volumebinding): in PreFilter every claim the pod
 * mounts must exist, and with immediate binding be Bound, otherwise the pod fails before any node
 * is tried; in Filter a node must satisfy the nodeAffinity of the volumes already bound
 * (ErrReasonNodeConflict, `node(s) had volume node affinity conflict`), and a delayed-binding
 * (WaitForFirstConsumer) claim of a class without a provisioner needs a free volume that could bind
 * on the node (ErrReasonBindConflict, `node(s) didn't find available persistent volumes to bind`).
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
    const conflict = ctx.volumeConflict(pod, ni.node);
    return conflict === undefined ? undefined : status(this.name, 'UnschedulableAndUnresolvable', conflict);
  },
};
