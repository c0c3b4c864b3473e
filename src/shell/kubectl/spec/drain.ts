/**
 * `kubectl drain`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const drainSpec: CommandSpec = {
  name: "drain",
  short: "Drain node in preparation for maintenance",
  long: `Drain node in preparation for maintenance.

 The given node will be marked unschedulable to prevent new pods from arriving. 'drain' evicts the pods if the API server supports https://kubernetes.io/docs/concepts/workloads/pods/disruptions/ eviction https://kubernetes.io/docs/concepts/workloads/pods/disruptions/ . Otherwise, it will use normal DELETE to delete the pods. The 'drain' evicts or deletes all pods except mirror pods (which cannot be deleted through the API server).  If there are daemon set-managed pods, drain will not proceed without --ignore-daemonsets, and regardless it will not delete any daemon set-managed pods, because those pods would be immediately replaced by the daemon set controller, which ignores unschedulable markings.  If there are any pods that are neither mirror pods nor managed by a replication controller, replica set, daemon set, stateful set, or job, then drain will not delete any pods unless you use --force.  --force will also allow deletion to proceed if the managing resource of one or more pods is missing.

 'drain' waits for graceful termination. You should not operate on the machine until the command completes.

 When you are ready to put the node back into service, use kubectl uncordon, which will make the node schedulable again.

https://kubernetes.io/images/docs/kubectl_drain.svg Workflowhttps://kubernetes.io/images/docs/kubectl_drain.svg`,
  example: `  # Drain node "foo", even if there are pods not managed by a replication controller, replica set, job, daemon set, or stateful set on it
  kubectl drain foo --force
  
  # As above, but abort if there are pods not managed by a replication controller, replica set, job, daemon set, or stateful set, and use a grace period of 15 minutes
  kubectl drain foo --grace-period=900`,
  usage: "kubectl drain NODE [options]",
  flags: [
    F.chunkSize,
    { name: "delete-emptydir-data", type: "bool", defValue: "false", usage: "Continue even if there are pods using emptyDir (local data that will be deleted when the node is drained)." },
    { name: "disable-eviction", type: "bool", defValue: "false", usage: "Force drain to use delete, even if eviction is supported. This will bypass checking PodDisruptionBudgets, use with caution." },
    F.dryRun,
    { name: "force", type: "bool", defValue: "false", usage: "Continue even if there are pods that do not declare a controller." },
    { name: "grace-period", type: "int", defValue: "-1", usage: "Period of time in seconds given to each pod to terminate gracefully. If negative, the default value specified in the pod will be used." },
    { name: "ignore-daemonsets", type: "bool", defValue: "false", usage: "Ignore DaemonSet-managed pods." },
    { name: "pod-selector", type: "string", defValue: "''", usage: "Label selector to filter pods on the node" },
    F.selector,
    { name: "skip-wait-for-delete-timeout", type: "int", defValue: "0", usage: "If pod DeletionTimestamp older than N seconds, skip waiting for the pod.  Seconds must be greater than 0 to skip." },
    { name: "timeout", type: "string", defValue: "0s", usage: "The length of time to wait before giving up, zero means infinite" },
  ],
};
