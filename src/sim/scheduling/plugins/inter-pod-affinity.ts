/**
 * InterPodAffinity (pkg/scheduler/framework/plugins/interpodaffinity): required pod affinity and
 * anti-affinity in topology domains (nodes sharing the value of topologyKey), both the incoming
 * pod's terms and those of pods already placed. Filter order and codes as upstream:
 *   affinity not met               → UnschedulableAndUnresolvable "node(s) didn't match pod affinity rules"
 *   its anti-affinity violated     → Unschedulable "node(s) didn't match pod anti-affinity rules"
 *   an existing pod's anti-affinity → Unschedulable "node(s) didn't satisfy existing pods anti-affinity rules"
 * A pod whose affinity matches itself may go first when no pod anywhere matches its terms yet.
 * Score (weight 2): preferred terms of the pod and of existing pods, summed per domain.
 */
import type { Node, Pod } from '../../api/types.js';
import { matchLabelSelector } from '../../api/selectors.js';
import type { FilterPlugin, PodAffinityTerm, SchedulingContext, ScorePlugin } from '../types.js';
import { MAX_NODE_SCORE, affinityOf, status } from '../types.js';

export const ERR_REASON_AFFINITY = "node(s) didn't match pod affinity rules";
export const ERR_REASON_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
export const ERR_REASON_EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";

/** AffinityTerm.Matches: the term's namespaces (the owner's own when none are named) and selector. */
export function termMatches(ctx: SchedulingContext, owner: Pod, term: PodAffinityTerm, target: Pod): boolean {
  const ns = target.metadata.namespace ?? 'default';
  const names = term.namespaces ?? [];
  let inScope: boolean;
  if (names.length === 0 && !term.namespaceSelector) inScope = ns === (owner.metadata.namespace ?? 'default');
  else inScope = names.includes(ns) || (!!term.namespaceSelector && matchLabelSelector(term.namespaceSelector, ctx.namespaceLabels(ns) ?? {}));
  return inScope && matchLabelSelector(term.labelSelector, target.metadata.labels ?? {});
}

function sameDomain(a: Node, b: Node, key: string): boolean {
  const la = a.metadata.labels ?? {};
  const lb = b.metadata.labels ?? {};
  return Object.prototype.hasOwnProperty.call(la, key) && Object.prototype.hasOwnProperty.call(lb, key) && la[key] === lb[key];
}

/** Every placed pod with its node. */
function placed(ctx: SchedulingContext): { pod: Pod; node: Node }[] {
  return ctx.nodes.flatMap((ni) => ni.pods.filter((p) => !p.metadata.deletionTimestamp).map((pod) => ({ pod, node: ni.node })));
}

export const interPodAffinity: FilterPlugin & ScorePlugin = {
  name: 'InterPodAffinity',
  weight: 2,
  filter(ctx, pod, ni) {
    const aff = affinityOf(pod);
    const all = placed(ctx);
    const required = aff?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
    if (required.length > 0) {
      const ok = required.every((t) => all.some((e) => sameDomain(e.node, ni.node, t.topologyKey) && termMatches(ctx, pod, t, e.pod)));
      if (!ok) {
        const hasLabels = required.every((t) => Object.prototype.hasOwnProperty.call(ni.node.metadata.labels ?? {}, t.topologyKey));
        const noneAnywhere = !all.some((e) => required.some((t) => termMatches(ctx, pod, t, e.pod)));
        const selfMatch = required.every((t) => termMatches(ctx, pod, t, pod));
        if (!(hasLabels && noneAnywhere && selfMatch)) return status(this.name, 'UnschedulableAndUnresolvable', ERR_REASON_AFFINITY);
      }
    }
    const anti = aff?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
    if (anti.some((t) => all.some((e) => sameDomain(e.node, ni.node, t.topologyKey) && termMatches(ctx, pod, t, e.pod))))
      return status(this.name, 'Unschedulable', ERR_REASON_ANTI_AFFINITY);
    for (const e of all) {
      const terms = affinityOf(e.pod)?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
      if (terms.some((t) => sameDomain(e.node, ni.node, t.topologyKey) && termMatches(ctx, e.pod, t, pod)))
        return status(this.name, 'Unschedulable', ERR_REASON_EXISTING_ANTI_AFFINITY);
    }
    return undefined;
  },
  score(ctx, pod, feasible) {
    const aff = affinityOf(pod);
    const all = placed(ctx);
    const raw = feasible.map((ni) => {
      let s = 0;
      for (const e of all) {
        for (const w of aff?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
          if (sameDomain(e.node, ni.node, w.podAffinityTerm.topologyKey) && termMatches(ctx, pod, w.podAffinityTerm, e.pod)) s += w.weight;
        for (const w of aff?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
          if (sameDomain(e.node, ni.node, w.podAffinityTerm.topologyKey) && termMatches(ctx, pod, w.podAffinityTerm, e.pod)) s -= w.weight;
        const theirs = affinityOf(e.pod);
        // hardPodAffinityWeight (default 1): an existing pod's required affinity attracts pods it matches
        for (const t of theirs?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [])
          if (sameDomain(e.node, ni.node, t.topologyKey) && termMatches(ctx, e.pod, t, pod)) s += 1;
        for (const w of theirs?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
          if (sameDomain(e.node, ni.node, w.podAffinityTerm.topologyKey) && termMatches(ctx, e.pod, w.podAffinityTerm, pod)) s += w.weight;
        for (const w of theirs?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
          if (sameDomain(e.node, ni.node, w.podAffinityTerm.topologyKey) && termMatches(ctx, e.pod, w.podAffinityTerm, pod)) s -= w.weight;
      }
      return s;
    });
    const min = Math.min(...raw);
    const max = Math.max(...raw);
    return raw.map((s) => (max - min > 0 ? Math.trunc((MAX_NODE_SCORE * (s - min)) / (max - min)) : 0));
  },
};
