/**
 * The default profile's plugins in the order kube-scheduler runs them
 * (pkg/scheduler/apis/config/v1/default_plugins.go): Filter stops at a node's first failure, so
 * the order decides which reason a node contributes to the FailedScheduling message.
 */
import type { FilterPlugin, ScorePlugin } from '../types.js';
import { nodeUnschedulable } from './node-unschedulable.js';
import { taintToleration } from './taint-toleration.js';
import { nodeAffinity } from './node-affinity.js';
import { nodePorts } from './node-ports.js';
import { nodeResourcesFit } from './node-resources-fit.js';
import { volumeBinding } from './volume-binding.js';
import { podTopologySpread } from './pod-topology-spread.js';
import { interPodAffinity } from './inter-pod-affinity.js';
import { balancedAllocation } from './balanced-allocation.js';

/** NodeName is absent: the scheduler never sees a pod that names its node. */
export const FILTERS: readonly FilterPlugin[] = [
  nodeUnschedulable,
  taintToleration,
  nodeAffinity,
  nodePorts,
  nodeResourcesFit,
  volumeBinding,
  podTopologySpread,
  interPodAffinity,
];

/** ImageLocality is not modelled (nodes' image lists are not tracked by size). */
export const SCORERS: readonly ScorePlugin[] = [taintToleration, nodeAffinity, nodeResourcesFit, podTopologySpread, interPodAffinity, balancedAllocation];
