/**
 * A pod's QoS class (pkg/apis/core/helper/qos GetPodQOS, set in status.qosClass when the pod is
 * created): BestEffort when no container asks for CPU or memory, Guaranteed when every container
 * (init containers too) has CPU and memory limits and its requests equal them (an unset request
 * defaults to the limit), Burstable otherwise.
 */
import type { Container, Pod } from '../api/types.js';
import { quantityValue } from './quantity.js';

const QOS_RESOURCES = ['cpu', 'memory'];

export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

function nonZero(q: string | undefined): boolean {
  const v = quantityValue(q);
  return v !== undefined && v !== 0;
}

export function podQosClass(pod: Pod): QosClass {
  const all: Container[] = [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
  let any = false;
  let guaranteed = true;
  for (const ct of all) {
    const req = ct.resources?.requests ?? {};
    const lim = ct.resources?.limits ?? {};
    for (const r of QOS_RESOURCES) {
      if (nonZero(req[r]) || nonZero(lim[r])) any = true;
      if (!nonZero(lim[r])) guaranteed = false;
      else if (req[r] !== undefined && quantityValue(req[r]) !== quantityValue(lim[r])) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
