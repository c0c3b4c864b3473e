/**
 * One scheduling cycle (pkg/scheduler/schedule_one.go schedulePod): PreFilter, Filter on every
 * node, Score the feasible ones; and the FitError text a failure becomes
 * (pkg/scheduler/framework/types.go FitError.Error):
 *
 *   0/3 nodes are available: <PreFilterMsg>.                    when a PreFilter failed, else
 *   0/3 nodes are available: <count> <reason>, <count> <reason>.  the histogram, sorted as strings
 *   … then " " + the PostFilter (preemption) message, which carries its own final period.
 */
import type { Pod } from '../api/types.js';
import type { NodeInfo, SchedulingContext, Status } from './types.js';
import { FILTERS, SCORERS } from './plugins/index.js';

export interface Diagnosis {
  numAllNodes: number;
  /** The failing PreFilter's message: every node failed with it. */
  preFilterMsg?: string;
  preFilterStatus?: Status;
  /** Filter verdict per node name. */
  nodeStatus: Map<string, Status>;
}

export type CycleResult = { feasible: NodeInfo[]; scores: number[] } | { diagnosis: Diagnosis };

/** Run the filters of one node in order; the first failure is the node's status. */
export function runFilters(ctx: SchedulingContext, pod: Pod, ni: NodeInfo): Status | undefined {
  for (const p of FILTERS) {
    const s = p.filter(ctx, pod, ni);
    if (s) return s;
  }
  return undefined;
}

export function findNodesThatFit(ctx: SchedulingContext, pod: Pod): CycleResult {
  const nodeStatus = new Map<string, Status>();
  for (const p of FILTERS) {
    const s = p.preFilter?.(ctx, pod);
    if (s) {
      for (const ni of ctx.nodes) nodeStatus.set(ni.node.metadata.name, s);
      return { diagnosis: { numAllNodes: ctx.nodes.length, preFilterMsg: s.reasons.join(', '), preFilterStatus: s, nodeStatus } };
    }
  }
  const feasible: NodeInfo[] = [];
  for (const ni of ctx.nodes) {
    const s = runFilters(ctx, pod, ni);
    if (s) nodeStatus.set(ni.node.metadata.name, s);
    else feasible.push(ni);
  }
  if (feasible.length === 0) return { diagnosis: { numAllNodes: ctx.nodes.length, nodeStatus } };
  return { feasible, scores: prioritize(ctx, pod, feasible) };
}

/** Weighted sum of the normalized plugin scores (prioritizeNodes). A single feasible node is not scored. */
export function prioritize(ctx: SchedulingContext, pod: Pod, feasible: NodeInfo[]): number[] {
  if (feasible.length === 1) return [0];
  const total = feasible.map(() => 0);
  for (const p of SCORERS) {
    const s = p.score(ctx, pod, feasible);
    for (let i = 0; i < total.length; i++) total[i]! += (s[i] ?? 0) * p.weight;
  }
  return total;
}

/** The FitError message; `postFilterMsg` is the preemption PostFilter's status message, if any. */
export function fitErrorMessage(d: Diagnosis, postFilterMsg?: string): string {
  let msg = `0/${d.numAllNodes} nodes are available:`;
  if (d.preFilterMsg) msg += ` ${d.preFilterMsg}.`;
  else {
    const counts = new Map<string, number>();
    for (const s of d.nodeStatus.values()) for (const r of s.reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
    // sortReasonsHistogram: sort.Strings over "<count> <reason>" (so "10 …" sorts before "2 …")
    const parts = [...counts.entries()].map(([r, n]) => `${n} ${r}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (parts.length > 0) msg += ` ${parts.join(', ')}.`;
  }
  if (postFilterMsg) msg += ` ${postFilterMsg}`;
  return msg;
}
