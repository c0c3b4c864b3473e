/**
 * VolumeBinding's PreFilter (pkg/scheduler/framework/plugins/volumebinding): every claim the pod
 * mounts must exist, and with immediate binding be Bound; otherwise the pod fails before any node
 * is tried, with one message for all of them.
 */
import type { FilterPlugin } from '../types.js';
import { status } from '../types.js';

export const volumeBinding: FilterPlugin = {
  name: 'VolumeBinding',
  preFilter(ctx, pod) {
    for (const v of pod.spec.volumes ?? []) {
      const name = v.persistentVolumeClaim?.claimName;
      if (!name) continue;
      const phase = ctx.claimPhase(pod.metadata.namespace ?? 'default', name);
      if (phase === undefined) return status(this.name, 'UnschedulableAndUnresolvable', `persistentvolumeclaim "${name}" not found`);
      if (phase !== 'Bound') return status(this.name, 'UnschedulableAndUnresolvable', 'pod has unbound immediate PersistentVolumeClaims');
    }
    return undefined;
  },
  filter() {
    return undefined;
  },
};
