/**
 * PodTopologySpread (pkg/scheduler/framework/plugins/podtopologyspread). Filter enforces the
 * DoNotSchedule constraints: placing the pod in a node's domain must not make that domain exceed
 * the least-populated eligible domain by more than maxSkew (Unschedulable); a node without the
 * topology label fails UnschedulableAndUnresolvable. Score (weight 2) prefers emptier domains for
 * ScheduleAnyway constraints, and for pods without constraints applies the cluster defaults
 * (maxSkew 3 by kubernetes.io/hostname, 5 by topology.kubernetes.io/zone) over the pods of the
 * same ReplicaSet, StatefulSet or Service, which is what spreads a Deployment's replicas.
 */
import type { LabelSelector, Node, Pod } from '../../api/types.js';
import { matchLabelSelector } from '../../api/selectors.js';
import type { FilterPlugin, NodeInfo, SchedulingContext, ScorePlugin, TopologySpreadConstraint } from '../types.js';
import { MAX_NODE_SCORE, spreadConstraintsOf, status } from '../types.js';
import { podMatchesNodeSelectorAndAffinity } from './node-affinity.js';
import { tolerates } from './taint-toleration.js';

export const ERR_REASON_CONSTRAINTS = "node(s) didn't match pod topology spread constraints";
export const ERR_REASON_NODE_LABEL = `${ERR_REASON_CONSTRAINTS} (missing required label)`;

function hasLabel(n: Node, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(n.metadata.labels ?? {}, key);
}

/** Nodes whose pods count for the constraints (nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore by default). */
function eligible(ctx: SchedulingContext, pod: Pod, cs: TopologySpreadConstraint[], requireAll: boolean): NodeInfo[] {
  return ctx.nodes.filter((ni) => {
    if (requireAll && !cs.every((c) => hasLabel(ni.node, c.topologyKey))) return false;
    if (cs.some((c) => (c.nodeAffinityPolicy ?? 'Honor') === 'Honor') && !podMatchesNodeSelectorAndAffinity(pod, ni.node)) return false;
    if (cs.some((c) => c.nodeTaintsPolicy === 'Honor') && (ni.node.spec.taints ?? []).some((t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerates(pod.spec.tolerations, t))) return false;
    return true;
  });
}

function matching(pod: Pod, ni: NodeInfo, selector: LabelSelector | undefined): number {
  const ns = pod.metadata.namespace ?? 'default';
  return ni.pods.filter((p) => !p.metadata.deletionTimestamp && (p.metadata.namespace ?? 'default') === ns && matchLabelSelector(selector, p.metadata.labels ?? {})).length;
}

/** Matching pods per domain value of the constraint's key. */
function domainCounts(pod: Pod, nodes: NodeInfo[], c: TopologySpreadConstraint): Map<string, number> {
  const counts = new Map<string, number>();
  for (const ni of nodes) {
    const v = ni.node.metadata.labels?.[c.topologyKey];
    if (v === undefined) continue;
    counts.set(v, (counts.get(v) ?? 0) + matching(pod, ni, c.labelSelector));
  }
  return counts;
}

export const podTopologySpread: FilterPlugin & ScorePlugin = {
  name: 'PodTopologySpread',
  weight: 2,
  filter(ctx, pod, ni) {
    const cs = spreadConstraintsOf(pod).filter((c) => c.whenUnsatisfiable === 'DoNotSchedule');
    if (cs.length === 0) return undefined;
    if (!cs.every((c) => hasLabel(ni.node, c.topologyKey))) return status(this.name, 'UnschedulableAndUnresolvable', ERR_REASON_NODE_LABEL);
    const nodes = eligible(ctx, pod, cs, true);
    for (const c of cs) {
      const counts = domainCounts(pod, nodes, c);
      let min = counts.size === 0 ? 0 : Math.min(...counts.values());
      if (c.minDomains && counts.size < c.minDomains) min = 0;
      const self = matchLabelSelector(c.labelSelector, pod.metadata.labels ?? {}) ? 1 : 0;
      const here = counts.get(ni.node.metadata.labels![c.topologyKey]!) ?? 0;
      if (here + self - min > c.maxSkew) return status(this.name, 'Unschedulable', ERR_REASON_CONSTRAINTS);
    }
    return undefined;
  },
  score(ctx, pod, feasible) {
    const explicit = spreadConstraintsOf(pod);
    let cs = explicit.filter((c) => c.whenUnsatisfiable === 'ScheduleAnyway');
    const systemDefaulted = explicit.length === 0;
    if (systemDefaulted) {
      const selector = ctx.defaultSpreadSelector(pod);
      cs = selector
        ? [
            { maxSkew: 3, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: selector },
            { maxSkew: 5, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: selector },
          ]
        : [];
    }
    if (cs.length === 0) return feasible.map(() => 0);
    const nodes = eligible(ctx, pod, cs, !systemDefaulted);
    const ignored = feasible.map((ni) => !systemDefaulted && !cs.every((c) => hasLabel(ni.node, c.topologyKey)));
    const raw = feasible.map((ni, i) => {
      if (ignored[i]) return 0;
      let s = 0;
      for (const c of cs) {
        const v = ni.node.metadata.labels?.[c.topologyKey];
        if (v === undefined) continue;
        // hostname domains are counted over the feasible nodes only, as upstream's PreScore does
        const counts = domainCounts(pod, c.topologyKey === 'kubernetes.io/hostname' ? feasible : nodes, c);
        s += (counts.get(v) ?? 0) * Math.log(counts.size + 2) + (c.maxSkew - 1);
      }
      return s;
    });
    const live = raw.filter((_, i) => !ignored[i]);
    const min = Math.min(...live);
    const max = Math.max(...live);
    return raw.map((s, i) => (ignored[i] ? 0 : max === 0 ? MAX_NODE_SCORE : Math.trunc((MAX_NODE_SCORE * (max + min - s)) / max)));
  },
};
