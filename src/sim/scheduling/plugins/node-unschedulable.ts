/**
 * NodeUnschedulable (pkg/scheduler/framework/plugins/nodeunschedulable): a cordoned node
 * (spec.unschedulable) takes only pods that tolerate node.kubernetes.io/unschedulable:NoSchedule.
 */
import type { FilterPlugin } from '../types.js';
import { status } from '../types.js';
import { tolerates } from './taint-toleration.js';

export const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';

export const nodeUnschedulable: FilterPlugin = {
  name: 'NodeUnschedulable',
  filter(_ctx, pod, ni) {
    if (!ni.node.spec.unschedulable) return undefined;
    if (tolerates(pod.spec.tolerations, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' })) return undefined;
    return status(this.name, 'UnschedulableAndUnresolvable', ERR_REASON_UNSCHEDULABLE);
  },
};
