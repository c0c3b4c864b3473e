/**
 * The pod conditions the kubelet owns and the ones it leaves alone, and what readiness gates do
 * to the pod's Ready condition.
 *
 * kubernetes v1.35 pkg/kubelet/types/pod_status.go PodConditionByKubelet: the kubelet owns
 * PodScheduled, Ready, Initialized, ContainersReady, PodResizeInProgress, PodResizePending and
 * (feature PodReadyToStartContainersCondition, on by default) PodReadyToStartContainers. Every
 * other condition — a readiness gate's, set by a controller through the status subresource — is
 * someone else's: kubelet_pods.go generateAPIPodStatus starts the new status with the API pod's
 * conditions the kubelet does not own, in their order, then appends its own, and
 * status/status_manager.go mergePodStatus keeps the same order (the others first). A status patch
 * that adds a condition is therefore not undone by the next sync.
 *
 * status/generate.go GeneratePodReadyCondition: when the containers are ready, Ready is True only
 * if each of spec.readinessGates has a condition of its type with status True; otherwise False
 * with reason ReadinessGatesNotReady and one message per unmet gate, joined with ", ".
 */
import type { Cluster } from '../cluster.js';
import type { Pod, PodCondition } from '../api/types.js';
import { goQuote } from '../../util/go-quote.js';
import { sameJSON } from '../../util/json-copy.js';

const BY_KUBELET = new Set(['PodScheduled', 'Ready', 'Initialized', 'ContainersReady', 'PodResizeInProgress', 'PodResizePending', 'PodReadyToStartContainers']);

/** Whether the kubelet owns (and rewrites at every sync) a condition of this type. */
export function conditionByKubelet(type: string): boolean {
  return BY_KUBELET.has(type);
}

/** The conditions of `previous` the kubelet does not own, in their order, then the kubelet's own. */
export function withForeignConditions(previous: readonly PodCondition[] | undefined, kubelet: readonly PodCondition[]): PodCondition[] {
  return [...(previous ?? []).filter((c) => !conditionByKubelet(c.type)), ...kubelet.filter((c) => conditionByKubelet(c.type))];
}

/**
 * Why the pod's readiness gates hold Ready at False given its conditions, or undefined when every
 * gate's condition is True (GeneratePodReadyCondition's messages, in spec order).
 */
export function readinessGatesMessage(pod: Pod, conditions: readonly PodCondition[]): string | undefined {
  const gates = Array.isArray(pod.spec.readinessGates) ? (pod.spec.readinessGates as { conditionType?: unknown }[]) : [];
  const unmet: string[] = [];
  for (const g of gates) {
    const type = typeof g?.conditionType === 'string' ? g.conditionType : '';
    const c = conditions.find((x) => x.type === type);
    if (!c) unmet.push(`corresponding condition of pod readiness gate ${goQuote(type)} does not exist.`);
    else if (c.status !== 'True') unmet.push(`the status of pod readiness gate ${goQuote(type)} is not "True", but ${c.status}`);
  }
  return unmet.length > 0 ? unmet.join(', ') : undefined;
}

/**
 * The kubelet's own conditions as its status manager last set them, else the API pod's. Upstream
 * (pkg/kubelet/status/status_manager.go updateStatusInternal) takes the old status from its cache
 * (`podStatuses`), and from the API pod only before it has one; updateLastTransitionTime keeps a
 * condition's lastTransitionTime unless its status changed, and mergePodStatus writes the
 * kubelet-owned conditions from that cache. So a status patch that drops or rewrites them (a
 * `--type=merge` list of conditions replaces the whole list) gets them back with their old
 * times, not the time of the next sync.
 */
export function previousOwnConditions(c: Cluster, uid: string, api: PodCondition[] | undefined): PodCondition[] | undefined {
  const cached = c.state.kubeletConditions?.[uid];
  if (!cached) return api;
  return Object.entries(cached).map(([type, v]) => {
    const sp = v.indexOf(' ');
    return { type, status: v.slice(0, sp) as PodCondition['status'], lastTransitionTime: v.slice(sp + 1) };
  });
}

/** Remember the kubelet-owned conditions the kubelet just set (the status manager's cache). */
export function cacheOwnConditions(c: Cluster, uid: string, conditions: readonly PodCondition[]): void {
  const own: Record<string, string> = {};
  for (const x of conditions) if (conditionByKubelet(x.type) && x.lastTransitionTime) own[x.type] = `${x.status} ${x.lastTransitionTime}`;
  const cache = (c.state.kubeletConditions ??= {});
  if (!sameJSON(cache[uid], own)) cache[uid] = own;
}

/** The pod is gone (or its status is final): its cached conditions go too. */
export function forgetOwnConditions(c: Cluster, uid: string): void {
  if (c.state.kubeletConditions?.[uid]) delete c.state.kubeletConditions[uid];
}
