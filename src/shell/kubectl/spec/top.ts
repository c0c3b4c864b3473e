/**
 * `kubectl top`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const topSpec: CommandSpec = {
  name: "top",
  short: "Display resource (CPU/memory) usage",
  long: `Display resource (CPU/memory) usage.

 This command provides a view of recent resource consumption for nodes and pods. It fetches metrics from the Metrics Server, which aggregates this data from the kubelet on each node. The Metrics Server must be installed and running in the cluster for this command to work.

 The metrics shown are specifically optimized for Kubernetes autoscaling decisions, such as those made by the Horizontal Pod Autoscaler (HPA) and Vertical Pod Autoscaler (VPA). Because of this, the values may not match those from standard OS tools like 'top', as the metrics are designed to provide a stable signal for autoscalers rather than for pinpoint accuracy.

 When to use this command:

  *  For on-the-fly spot-checks of resource usage (e.g. identify which pods are consuming the most resources at a glance, or get a quick sense of the load on your nodes)
  *  Understand current resource consumption patterns
  *  Validate the behavior of your HPA or VPA configurations by seeing the metrics they use for scaling decisions.

 It is not intended to be a replacement for full-featured monitoring solutions. Its primary design goal is to provide a low-overhead signal for autoscalers, not to be a perfectly accurate monitoring tool. For high-accuracy reporting, historical analysis, dashboarding, or alerting, you should use a dedicated monitoring solution.`,
  usage: "kubectl top [flags] [options]",
  bare: { stream: "stderr", exitCode: 1 },
  commands: [
    {
      name: "node",
      short: "Display resource (CPU/memory) usage of nodes",
      aliases: ["nodes","no"],
      long: `Display resource (CPU/memory) usage of nodes.

 The top-node command allows you to see the resource consumption of nodes.`,
      example: `  # Show metrics for all nodes
  kubectl top node
  
  # Show metrics for a given node
  kubectl top node NODE_NAME`,
      usage: "kubectl top node [NAME | -l label] [options]",
      flags: [
        { name: "no-headers", type: "bool", defValue: "false", usage: "If present, print output without headers" },
        F.selector,
        { name: "show-capacity", type: "bool", defValue: "false", usage: "Print node resources based on Capacity instead of Allocatable(default) of the nodes." },
        { name: "show-swap", type: "bool", defValue: "false", usage: "Print node resources related to swap memory." },
        { name: "sort-by", type: "string", defValue: "''", usage: "If non-empty, sort nodes list using specified field. The field can be either 'cpu' or 'memory'." },
        { name: "use-protocol-buffers", type: "bool", defValue: "true", usage: "Enables using protocol-buffers to access Metrics API." },
      ],
    },
    {
      name: "pod",
      short: "Display resource (CPU/memory) usage of pods",
      aliases: ["pods","po"],
      long: `Display resource (CPU/memory) usage of pods.

 The 'top pod' command allows you to see the resource consumption of pods.

 Due to the metrics pipeline delay, they may be unavailable for a few minutes since pod creation.`,
      example: `  # Show metrics for all pods in the default namespace
  kubectl top pod
  
  # Show metrics for all pods in the given namespace
  kubectl top pod --namespace=NAMESPACE
  
  # Show metrics for a given pod and its containers
  kubectl top pod POD_NAME --containers
  
  # Show metrics for the pods defined by label name=myLabel
  kubectl top pod -l name=myLabel`,
      usage: "kubectl top pod [NAME | -l label] [options]",
      flags: [
        F.allNamespaces,
        { name: "containers", type: "bool", defValue: "false", usage: "If present, print usage of containers within a pod." },
        F.fieldSelector,
        { name: "no-headers", type: "bool", defValue: "false", usage: "If present, print output without headers." },
        F.selector,
        { name: "show-swap", type: "bool", defValue: "false", usage: "Print pod resources related to swap memory." },
        { name: "sort-by", type: "string", defValue: "''", usage: "If non-empty, sort pods list using specified field. The field can be either 'cpu' or 'memory'." },
        { name: "sum", type: "bool", defValue: "false", usage: "Print the sum of the resource usage" },
        { name: "use-protocol-buffers", type: "bool", defValue: "true", usage: "Enables using protocol-buffers to access Metrics API." },
      ],
    },
  ],
};
