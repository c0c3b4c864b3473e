/**
 * A pod's QoS class (pkg/apis/core/v1/helper/qos ComputePodQOS), which the API server records in
 * status.qosClass when the pod is created. Only cpu and memory count: no requests or limits at
 * all is BestEffort; every container limiting both, with the summed requests equal to the summed
 * limits, is Guaranteed; anything else Burstable. Zero quantities are ignored.
 */
import type { Pod } from './types.js';

const UNIT: Record<string, number> = { '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, Pi: 1024 ** 5 };

function amount(q: string | number | undefined): number {
  if (typeof q === 'number') return q;
  const m = /^([+-]?\d*\.?\d+)(?:[eE]([+-]?\d+))?([a-zA-Z]*)$/.exec((q ?? '').trim());
  if (!m) return 0;
  return Number(m[1]) * 10 ** Number(m[2] ?? 0) * (UNIT[m[3] ?? ''] ?? 0);
}

export function computePodQOS(pod: Pod): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let guaranteed = true;
  for (const c of [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])]) {
    for (const [k, v] of Object.entries(c.resources?.requests ?? {})) {
      if ((k === 'cpu' || k === 'memory') && amount(v) > 0) requests.set(k, (requests.get(k) ?? 0) + amount(v));
    }
    const limited = new Set<string>();
    for (const [k, v] of Object.entries(c.resources?.limits ?? {})) {
      if ((k === 'cpu' || k === 'memory') && amount(v) > 0) {
        limited.add(k);
        limits.set(k, (limits.get(k) ?? 0) + amount(v));
      }
    }
    if (!limited.has('cpu') || !limited.has('memory')) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed && requests.size === limits.size && [...limits].every(([k, v]) => Math.abs((requests.get(k) ?? -1) - v) < 1e-9)) return 'Guaranteed';
  return 'Burstable';
}
