/**
 * The scheduling framework's shapes (k8s.io/kube-scheduler/framework): a snapshot of each node with
 * the pods assigned to it, a plugin's verdict on a node (a Status with a code and reasons), and the
 * pod-spec fields the plugins read that the API types keep open (affinity, topology spread).
 */
import type { LabelSelector, Labels, Node, Pod } from '../api/types.js';

/** Compute resources the scheduler accounts (framework.Resource): milli-CPU, bytes, pod count. */
export interface Resources {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  pods: number;
}

/** framework.NodeInfo: the node, its pods, what they request and what the node can give. */
export interface NodeInfo {
  node: Node;
  pods: Pod[];
  requested: Resources;
  /** Requests with the scoring defaults for containers that set none (100m CPU, 200Mi memory). */
  nonZeroRequested: Resources;
  allocatable: Resources;
}

/**
 * fwk.Code. `UnschedulableAndUnresolvable` tells the preemption PostFilter that evicting pods from
 * the node cannot help ("Preemption is not helpful for scheduling").
 */
export type Code = 'Unschedulable' | 'UnschedulableAndUnresolvable';

export interface Status {
  code: Code;
  reasons: string[];
  plugin: string;
}

/** What the plugins may look up beyond the nodes (all read-only). */
export interface SchedulingContext {
  nodes: NodeInfo[];
  /** A namespace's labels, for namespaceSelector in pod affinity terms. */
  namespaceLabels(ns: string): Labels | undefined;
  /**
   * Why a claim the pod mounts blocks scheduling before any node is tried (VolumeBinding
   * PreFilter): missing, or unbound with immediate binding; undefined when it does not.
   */
  claimProblem(ns: string, name: string): string | undefined;
  /** Why the pod's claims cannot use this node (VolumeBinding's reasons), or undefined when they can. */
  volumeConflict(pod: Pod, node: Node): string | undefined;
  /** The label selector of the pod's owning ReplicaSet/StatefulSet, or of the Services selecting it (default spreading). */
  defaultSpreadSelector(pod: Pod): LabelSelector | undefined;
}

export interface FilterPlugin {
  readonly name: string;
  /** PreFilter: a failure here fails every node with one message (FitError's PreFilterMsg). */
  preFilter?(ctx: SchedulingContext, pod: Pod): Status | undefined;
  filter(ctx: SchedulingContext, pod: Pod, node: NodeInfo): Status | undefined;
}

export interface ScorePlugin {
  readonly name: string;
  /** The weight in the default profile (pkg/scheduler/apis/config/v1/default_plugins.go). */
  readonly weight: number;
  /** Raw scores for the feasible nodes, already normalized to 0..100 (MaxNodeScore). */
  score(ctx: SchedulingContext, pod: Pod, feasible: NodeInfo[]): number[];
}

// ---------------------------------------------------------------------------------------------
// Pod spec fields the scheduler reads (k8s.io/api/core/v1 types.go)

export interface NodeSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  namespaces?: string[];
  topologyKey: string;
}

export interface WeightedPodAffinityTerm {
  weight: number;
  podAffinityTerm: PodAffinityTerm;
}

export interface Affinity {
  nodeAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] };
    preferredDuringSchedulingIgnoredDuringExecution?: { weight: number; preference: NodeSelectorTerm }[];
  };
  podAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
    preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
  };
  podAntiAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
    preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
  };
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
  labelSelector?: LabelSelector;
  minDomains?: number;
  nodeAffinityPolicy?: 'Honor' | 'Ignore';
  nodeTaintsPolicy?: 'Honor' | 'Ignore';
  matchLabelKeys?: string[];
}

export function affinityOf(pod: Pod): Affinity | undefined {
  return pod.spec['affinity'] as Affinity | undefined;
}

export function spreadConstraintsOf(pod: Pod): TopologySpreadConstraint[] {
  return (pod.spec['topologySpreadConstraints'] as TopologySpreadConstraint[] | undefined) ?? [];
}

export function status(plugin: string, code: Code, ...reasons: string[]): Status {
  return { plugin, code, reasons };
}

/** framework.MaxNodeScore. */
export const MAX_NODE_SCORE = 100;

/**
 * helper.DefaultNormalizeScore (pkg/scheduler/framework/plugins/helper/normalize_score.go): scale to
 * 0..100 by the highest score; `reverse` flips it (fewer is better). All zero: 0, or 100 reversed.
 */
export function defaultNormalize(scores: number[], reverse: boolean): number[] {
  const max = Math.max(0, ...scores);
  if (max === 0) return scores.map(() => (reverse ? MAX_NODE_SCORE : 0));
  return scores.map((s) => {
    const v = Math.trunc((MAX_NODE_SCORE * s) / max);
    return reverse ? MAX_NODE_SCORE - v : v;
  });
}
