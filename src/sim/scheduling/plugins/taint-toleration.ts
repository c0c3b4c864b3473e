/**
 * TaintToleration (pkg/scheduler/framework/plugins/tainttoleration): Filter rejects a node with a
 * NoSchedule or NoExecute taint the pod does not tolerate; Score prefers nodes with fewer
 * untolerated PreferNoSchedule taints (weight 3).
 *
 * Since kubernetes#134740 (v1.35, cherry-picked to v1.34) the reason no longer names the taint:
 * "node(s) had untolerated taint(s)" (the key and value went to the scheduler's log).
 */
import type { Taint, Toleration } from '../../api/types.js';
import type { FilterPlugin, ScorePlugin } from '../types.js';
import { defaultNormalize, status } from '../types.js';

export const ERR_REASON_UNTOLERATED = 'node(s) had untolerated taint(s)';

/** Toleration.ToleratesTaint (k8s.io/api/core/v1/toleration.go). */
export function toleratesTaint(t: Toleration, taint: Pick<Taint, 'key' | 'value' | 'effect'>): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  if (t.operator === 'Exists') return true;
  if (!t.key) return false;
  return (t.value ?? '') === (taint.value ?? '');
}

export function tolerates(tolerations: Toleration[] | undefined, taint: Pick<Taint, 'key' | 'value' | 'effect'>): boolean {
  return (tolerations ?? []).some((t) => toleratesTaint(t, taint));
}

export const taintToleration: FilterPlugin & ScorePlugin = {
  name: 'TaintToleration',
  weight: 3,
  filter(_ctx, pod, ni) {
    const untolerated = (ni.node.spec.taints ?? []).find((t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerates(pod.spec.tolerations, t));
    return untolerated ? status(this.name, 'UnschedulableAndUnresolvable', ERR_REASON_UNTOLERATED) : undefined;
  },
  score(_ctx, pod, feasible) {
    const preferTolerations = (pod.spec.tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
    const counts = feasible.map((ni) => (ni.node.spec.taints ?? []).filter((t) => t.effect === 'PreferNoSchedule' && !tolerates(preferTolerations, t)).length);
    return defaultNormalize(counts, true);
  },
};
