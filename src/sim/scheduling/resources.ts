/**
 * Resource accounting as the scheduler does it (pkg/scheduler/framework/types.go Resource,
 * k8s.io/component-helpers/resource PodRequests): a pod requests the sum of its containers'
 * requests, or an init container's when that is larger (init containers run one at a time); a
 * restartable (sidecar) init container adds to the sum. CPU is counted in millicores, memory and
 * storage in bytes.
 */
import type { Container, Node, Pod } from '../api/types.js';
import type { NodeInfo, Resources } from './types.js';

const SUFFIX: Record<string, number> = {
  '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, Pi: 1024 ** 5, Ei: 1024 ** 6,
};

/** A resource.Quantity as a number (NaN when it does not parse): `1.5`, `250m`, `128Mi`, `1e3`. */
export function quantityValue(q: string | number | undefined): number {
  if (typeof q === 'number') return q;
  const m = /^([+-]?\d*\.?\d+)(?:[eE]([+-]?\d+))?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/.exec((q ?? '').trim());
  if (!m) return Number.NaN;
  return Number(m[1]) * 10 ** Number(m[2] ?? 0) * (SUFFIX[m[3] ?? ''] ?? Number.NaN);
}

/** Quantity.MilliValue(): rounded up, as the API does. */
export function milliValue(q: string | number | undefined): number {
  const v = quantityValue(q);
  return Number.isNaN(v) ? 0 : Math.ceil(Math.round(v * 1e6) / 1e3);
}

/** Quantity.Value(): rounded up to an integer. */
export function intValue(q: string | number | undefined): number {
  const v = quantityValue(q);
  return Number.isNaN(v) ? 0 : Math.ceil(Math.round(v * 1e3) / 1e3);
}

/** schedutil.DefaultMilliCPURequest and DefaultMemoryRequest (pkg/scheduler/util/pod_resources.go). */
export const DEFAULT_MILLI_CPU = 100;
export const DEFAULT_MEMORY = 200 * 1024 * 1024;

export function zero(): Resources {
  return { milliCPU: 0, memory: 0, ephemeralStorage: 0, pods: 0 };
}

function containerRequest(c: Container, nonZero: boolean): Resources {
  const r = c.resources?.requests ?? {};
  const cpu = r['cpu'] !== undefined ? milliValue(r['cpu']) : nonZero ? DEFAULT_MILLI_CPU : 0;
  const mem = r['memory'] !== undefined ? intValue(r['memory']) : nonZero ? DEFAULT_MEMORY : 0;
  return { milliCPU: cpu, memory: mem, ephemeralStorage: intValue(r['ephemeral-storage']), pods: 0 };
}

function add(a: Resources, b: Resources): Resources {
  return { milliCPU: a.milliCPU + b.milliCPU, memory: a.memory + b.memory, ephemeralStorage: a.ephemeralStorage + b.ephemeralStorage, pods: a.pods + b.pods };
}

function max(a: Resources, b: Resources): Resources {
  return { milliCPU: Math.max(a.milliCPU, b.milliCPU), memory: Math.max(a.memory, b.memory), ephemeralStorage: Math.max(a.ephemeralStorage, b.ephemeralStorage), pods: Math.max(a.pods, b.pods) };
}

/**
 * The pod's request. `nonZero` applies the scoring defaults to containers that request no CPU or
 * memory (the NonZeroRequested of a NodeInfo), which keeps "empty" pods from piling onto one node.
 */
export function podRequest(pod: Pod, nonZero = false): Resources {
  let sum = zero();
  for (const c of pod.spec.containers ?? []) sum = add(sum, containerRequest(c, nonZero));
  let sidecars = zero();
  let initMax = zero();
  for (const c of pod.spec.initContainers ?? []) {
    const r = containerRequest(c, nonZero);
    if (c['restartPolicy'] === 'Always') {
      sidecars = add(sidecars, r);
      initMax = max(initMax, sidecars);
    } else initMax = max(initMax, add(r, sidecars));
  }
  return max(add(sum, sidecars), initMax);
}

export function allocatable(node: Node): Resources {
  const a = node.status?.allocatable ?? node.status?.capacity ?? {};
  return { milliCPU: milliValue(a['cpu']), memory: intValue(a['memory']), ephemeralStorage: intValue(a['ephemeral-storage']), pods: intValue(a['pods']) };
}

/** Build the snapshot's NodeInfo for a node from the pods assigned to it. */
export function nodeInfo(node: Node, pods: Pod[]): NodeInfo {
  let requested = zero();
  let nonZeroRequested = zero();
  for (const p of pods) {
    requested = add(requested, podRequest(p));
    nonZeroRequested = add(nonZeroRequested, podRequest(p, true));
  }
  requested.pods = pods.length;
  nonZeroRequested.pods = pods.length;
  return { node, pods, requested, nonZeroRequested, allocatable: allocatable(node) };
}

/** The NodeInfo with one pod more (the scheduler's "assume") or less (preemption's dry run). */
export function withPods(ni: NodeInfo, pods: Pod[]): NodeInfo {
  return nodeInfo(ni.node, pods);
}
