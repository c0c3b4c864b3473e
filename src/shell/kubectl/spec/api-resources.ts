/**
 * `kubectl api-resources`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const apiResourcesSpec: CommandSpec = {
  name: "api-resources",
  short: "Print the supported API resources on the server",
  long: `Print the supported API resources on the server.`,
  example: `  # Print the supported API resources
  kubectl api-resources
  
  # Print the supported API resources with more information
  kubectl api-resources -o wide
  
  # Print the supported API resources sorted by a column
  kubectl api-resources --sort-by=name
  
  # Print the supported namespaced resources
  kubectl api-resources --namespaced=true
  
  # Print the supported non-namespaced resources
  kubectl api-resources --namespaced=false
  
  # Print the supported API resources with a specific APIGroup
  kubectl api-resources --api-group=rbac.authorization.k8s.io`,
  usage: "kubectl api-resources [flags] [options]",
  flags: [
    { name: "api-group", type: "string", defValue: "''", usage: "Limit to resources in the specified API group." },
    { name: "cached", type: "bool", defValue: "false", usage: "Use the cached list of resources if available." },
    { name: "categories", type: "stringSlice", defValue: "[]", usage: "Limit to resources that belong to the specified categories." },
    { name: "namespaced", type: "bool", defValue: "true", usage: "If false, non-namespaced resources will be returned, otherwise returning namespaced resources by default." },
    F.noHeaders,
    { name: "output", short: "o", type: "string", defValue: "''", usage: "Output format. One of: (json, yaml, kyaml, name, wide)." },
    F.showManagedFields,
    { name: "sort-by", type: "string", defValue: "''", usage: "If non-empty, sort list of resources using specified field. The field can be either 'name' or 'kind'." },
    { name: "verbs", type: "stringSlice", defValue: "[]", usage: "Limit to resources that support the specified verbs." },
  ],
};
