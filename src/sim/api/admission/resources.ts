/**
 * Resource lists as the admission plugins and the quota controller add and compare them
 * (k8s.io/apimachinery resource.Quantity Add/Cmp, pkg/quota/v1/resources.go). Values are exact
 * nano-units; a sum keeps the format of its first term, as Quantity.Add does.
 */
import { formatQuantity, parseQuantity, type Quantity } from '../quantity.js';
import type { Container, Pod } from '../types.js';

export type ResourceList = Record<string, string>;

export function q(v: string | number | undefined): Quantity {
  try {
    return parseQuantity(String(v ?? '0').trim());
  } catch {
    return { nano: 0n, format: 'DecimalSI' };
  }
}

/** Quantity.MilliValue(): rounded up, as requestLimitEnforcedValues compares. */
export function milli(v: string | undefined): bigint {
  const n = q(v).nano;
  return n >= 0n ? (n + 999_999n) / 1_000_000n : n / 1_000_000n;
}

export function addQ(a: string | undefined, b: string | undefined): string {
  if (a === undefined) return b === undefined ? '0' : formatQuantity(q(b));
  if (b === undefined) return formatQuantity(q(a));
  const qa = q(a);
  return formatQuantity({ nano: qa.nano + q(b).nano, format: qa.nano === 0n ? q(b).format : qa.format });
}

export function cmpQ(a: string | undefined, b: string | undefined): number {
  const d = q(a).nano - q(b).nano;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** quota.Add: every key of either list, values summed. */
export function addList(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = addQ(out[k], v);
  return out;
}

/** The init containers that run to completion before the app (not native sidecars). */
function plainInit(pod: Pod): Container[] {
  return (pod.spec.initContainers ?? []).filter((c) => c['restartPolicy'] !== 'Always');
}

/**
 * resourcehelper.PodRequests/PodLimits without overhead: the containers' (and sidecars') sum,
 * raised to any init container's larger value.
 */
export function podTotal(pod: Pod, which: 'requests' | 'limits'): ResourceList {
  let sum: ResourceList = {};
  const sidecars = (pod.spec.initContainers ?? []).filter((c) => c['restartPolicy'] === 'Always');
  for (const c of [...pod.spec.containers, ...sidecars]) sum = addList(sum, c.resources?.[which] ?? {});
  for (const c of plainInit(pod)) {
    for (const [k, v] of Object.entries(c.resources?.[which] ?? {})) {
      if (sum[k] === undefined || cmpQ(v, sum[k]) > 0) sum[k] = formatQuantity(q(v));
    }
  }
  return sum;
}
