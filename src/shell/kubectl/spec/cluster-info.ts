/**
 * `kubectl cluster-info`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const clusterInfoSpec: CommandSpec = {
  name: "cluster-info",
  short: "Display cluster information",
  long: `Display addresses of the control plane and services with label kubernetes.io/cluster-service=true. To further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.`,
  example: `  # Print the address of the control plane and cluster services
  kubectl cluster-info`,
  usage: "kubectl cluster-info [flags] [options]",
  commands: [
    {
      name: "dump",
      short: "Dump relevant information for debugging and diagnosis",
      long: `Dump cluster information out suitable for debugging and diagnosing cluster problems.  By default, dumps everything to stdout. You can optionally specify a directory with --output-directory.  If you specify a directory, Kubernetes will build a set of files in that directory.  By default, only dumps things in the current namespace and 'kube-system' namespace, but you can switch to a different namespace with the --namespaces flag, or specify --all-namespaces to dump all namespaces.

 The command also dumps the logs of all of the pods in the cluster; these logs are dumped into different directories based on namespace and pod name.`,
      example: `  # Dump current cluster state to stdout
  kubectl cluster-info dump
  
  # Dump current cluster state to /path/to/cluster-state
  kubectl cluster-info dump --output-directory=/path/to/cluster-state
  
  # Dump all namespaces to stdout
  kubectl cluster-info dump --all-namespaces
  
  # Dump a set of namespaces to /path/to/cluster-state
  kubectl cluster-info dump --namespaces default,kube-system --output-directory=/path/to/cluster-state`,
      usage: "kubectl cluster-info dump [flags] [options]",
      flags: [
        { name: "all-namespaces", short: "A", type: "bool", defValue: "false", usage: "If true, dump all namespaces.  If true, --namespaces is ignored." },
        F.allowMissingTemplateKeys,
        { name: "namespaces", type: "stringSlice", defValue: "[]", usage: "A comma separated list of namespaces to dump." },
        { name: "output", short: "o", type: "string", defValue: "'json'", usage: "Output format. One of: (json, yaml, kyaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file)." },
        { name: "output-directory", type: "string", defValue: "''", usage: "Where to output the files.  If empty or '-' uses stdout, otherwise creates a directory hierarchy in that directory" },
        { name: "pod-running-timeout", type: "string", defValue: "20s", usage: "The length of time (like 5s, 2m, or 3h, higher than zero) to wait until at least one pod is running" },
        F.showManagedFields,
        F.template,
      ],
    },
  ],
};
