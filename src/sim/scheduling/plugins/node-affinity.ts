/**
 * NodeAffinity (pkg/scheduler/framework/plugins/nodeaffinity, component-helpers
 * scheduling/corev1/nodeaffinity): Filter requires spec.nodeSelector and the required node
 * affinity terms (ORed; expressions within a term ANDed) to match the node; Score sums the
 * weights of the preferred terms that match (weight 2).
 */
import type { Node, Pod } from '../../api/types.js';
import type { FilterPlugin, NodeSelectorRequirement, NodeSelectorTerm, ScorePlugin } from '../types.js';
import { affinityOf, defaultNormalize, status } from '../types.js';

export const ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";

function matchRequirement(r: NodeSelectorRequirement, value: string | undefined): boolean {
  const has = value !== undefined;
  const vals = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return has && vals.includes(value);
    case 'NotIn':
      return !has || !vals.includes(value);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || vals.length !== 1) return false;
      const a = Number.parseInt(value, 10);
      const b = Number.parseInt(vals[0]!, 10);
      if (Number.isNaN(a) || Number.isNaN(b)) return false;
      return r.operator === 'Gt' ? a > b : a < b;
    }
  }
  return false;
}

/** A term matches when all its expressions and fields match; a term with neither matches nothing. */
export function matchNodeSelectorTerm(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  if (!exprs.every((r) => matchRequirement(r, Object.prototype.hasOwnProperty.call(labels, r.key) ? labels[r.key] : undefined))) return false;
  return fields.every((r) => matchRequirement(r, r.key === 'metadata.name' ? node.metadata.name : undefined));
}

/** GetRequiredNodeAffinity(pod).Match(node): nodeSelector AND (any required term). */
export function podMatchesNodeSelectorAndAffinity(pod: Pod, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const required = affinityOf(pod)?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return (required.nodeSelectorTerms ?? []).some((t) => matchNodeSelectorTerm(t, node));
}

export const nodeAffinity: FilterPlugin & ScorePlugin = {
  name: 'NodeAffinity',
  weight: 2,
  filter(_ctx, pod, ni) {
    return podMatchesNodeSelectorAndAffinity(pod, ni.node) ? undefined : status(this.name, 'UnschedulableAndUnresolvable', ERR_REASON_POD);
  },
  score(_ctx, pod, feasible) {
    const preferred = affinityOf(pod)?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
    const raw = feasible.map((ni) => preferred.reduce((sum, p) => sum + (p.weight && matchNodeSelectorTerm(p.preference, ni.node) ? p.weight : 0), 0));
    return defaultNormalize(raw, false);
  },
};
