/**
 * The DefaultPreemption PostFilter (pkg/scheduler/framework/plugins/defaultpreemption,
 * pkg/scheduler/framework/preemption/preemption.go): when no node fits, look for a node where
 * evicting pods of lower priority makes the pod fit, evict as few and as unimportant pods as
 * possible, and nominate the node. The message of a preemption that cannot help becomes the
 * "preemption: …" tail of the FailedScheduling event:
 *
 * - preemptionPolicy: Never → "not eligible due to preemptionPolicy=Never."
 * - nodes that failed UnschedulableAndUnresolvable (taints, affinity, cordon, a request larger
 *   than the node) are not tried: "Preemption is not helpful for scheduling";
 * - a tried node without lower-priority pods: "No preemption victims found for incoming pod";
 * - a tried node where the pod does not fit even without them: the filter's own reason.
 *
 * PodDisruptionBudgets are not consulted (the simulation has none to violate).
 */
import type { Pod } from '../api/types.js';
import type { Diagnosis } from './framework.js';
import { fitErrorMessage, runFilters } from './framework.js';
import { withPods } from './resources.js';
import type { NodeInfo, SchedulingContext, Status } from './types.js';

export function podPriority(p: Pod): number {
  return p.spec.priority ?? 0;
}

function startTime(p: Pod): string {
  return p.status?.startTime ?? p.metadata.creationTimestamp ?? '';
}

/** util.MoreImportantPod: higher priority first, then the one running longer. */
function moreImportant(a: Pod, b: Pod): number {
  const d = podPriority(b) - podPriority(a);
  if (d !== 0) return d;
  const sa = startTime(a);
  const sb = startTime(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** A pod being deleted because the scheduler preempted it (DisruptionTarget, PreemptionByScheduler). */
export function terminatingByPreemption(p: Pod): boolean {
  if (!p.metadata.deletionTimestamp) return false;
  return (p.status?.conditions ?? []).some((c) => c.type === 'DisruptionTarget' && c.status === 'True' && c.reason === 'PreemptionByScheduler');
}

export interface PreemptionOutcome {
  /** Set when preemption found a node: the pod is nominated there and the victims are evicted. */
  nominatedNode?: string;
  victims: Pod[];
  /** The PostFilter message ("preemption: …") when it could not help. */
  message?: string;
}

function withNode(ctx: SchedulingContext, ni: NodeInfo): SchedulingContext {
  return { ...ctx, nodes: ctx.nodes.map((x) => (x.node.metadata.name === ni.node.metadata.name ? ni : x)) };
}

/** SelectVictimsOnNode: the fewest, least important lower-priority pods whose removal lets the pod fit. */
function selectVictims(ctx: SchedulingContext, pod: Pod, ni: NodeInfo): { victims: Pod[] } | { status: Status } {
  const prio = podPriority(pod);
  const potential = ni.pods.filter((p) => podPriority(p) < prio).sort(moreImportant);
  if (potential.length === 0) return { status: { plugin: 'DefaultPreemption', code: 'UnschedulableAndUnresolvable', reasons: ['No preemption victims found for incoming pod'] } };
  let kept = ni.pods.filter((p) => !potential.includes(p));
  const fits = (pods: Pod[]): Status | undefined => {
    const trial = withPods(ni, pods);
    return runFilters(withNode(ctx, trial), pod, trial);
  };
  const without = fits(kept);
  if (without) return { status: without };
  const victims: Pod[] = [];
  for (const p of potential) {
    if (fits([...kept, p])) victims.push(p);
    else kept = [...kept, p];
  }
  return { victims };
}

function highest(victims: Pod[]): number {
  return Math.max(...victims.map(podPriority));
}

/** pickOneNodeForPreemption: lowest top priority, lowest priority sum, fewest victims, latest-started top victim. */
function better(a: { victims: Pod[] }, b: { victims: Pod[] }): boolean {
  const ha = highest(a.victims);
  const hb = highest(b.victims);
  if (ha !== hb) return ha < hb;
  const sa = a.victims.reduce((s, p) => s + podPriority(p), 0);
  const sb = b.victims.reduce((s, p) => s + podPriority(p), 0);
  if (sa !== sb) return sa < sb;
  if (a.victims.length !== b.victims.length) return a.victims.length < b.victims.length;
  const ta = a.victims.filter((p) => podPriority(p) === ha).map(startTime).sort()[0] ?? '';
  const tb = b.victims.filter((p) => podPriority(p) === hb).map(startTime).sort()[0] ?? '';
  return ta > tb;
}

export function preempt(ctx: SchedulingContext, pod: Pod, d: Diagnosis): PreemptionOutcome {
  if (pod.spec.preemptionPolicy === 'Never') return { victims: [], message: 'preemption: not eligible due to preemptionPolicy=Never.' };
  const nominated = pod.status?.nominatedNodeName;
  if (nominated && d.nodeStatus.get(nominated)?.code !== 'UnschedulableAndUnresolvable') {
    const ni = ctx.nodes.find((n) => n.node.metadata.name === nominated);
    if (ni?.pods.some((p) => podPriority(p) < podPriority(pod) && terminatingByPreemption(p)))
      return { victims: [], message: 'preemption: not eligible due to a terminating pod on the nominated node.' };
  }
  const tried = new Map<string, Status>();
  let best: { node: string; victims: Pod[] } | undefined;
  for (const ni of ctx.nodes) {
    const s = d.nodeStatus.get(ni.node.metadata.name);
    if (!s || s.code !== 'Unschedulable') continue;
    const r = selectVictims(ctx, pod, ni);
    if ('status' in r) tried.set(ni.node.metadata.name, r.status);
    else if (r.victims.length === 0) tried.set(ni.node.metadata.name, { plugin: 'DefaultPreemption', code: 'UnschedulableAndUnresolvable', reasons: [`expected at least one victim pod on node "${ni.node.metadata.name}"`] });
    else if (!best || better(r, best)) best = { node: ni.node.metadata.name, victims: r.victims };
  }
  if (best) return { nominatedNode: best.node, victims: best.victims };
  // nodes not tried get the absent-node status "Preemption is not helpful for scheduling"
  const statuses = new Map(tried);
  for (const ni of ctx.nodes) {
    if (!statuses.has(ni.node.metadata.name))
      statuses.set(ni.node.metadata.name, { plugin: 'DefaultPreemption', code: 'UnschedulableAndUnresolvable', reasons: ['Preemption is not helpful for scheduling'] });
  }
  return { victims: [], message: `preemption: ${fitErrorMessage({ numAllNodes: ctx.nodes.length, nodeStatus: statuses })}` };
}
