/**
 * `kubectl label`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const labelSpec: CommandSpec = {
  name: "label",
  short: "Update the labels on a resource",
  long: `Update the labels on a resource.

  *  A label key and value must begin with a letter or number, and may contain letters, numbers, hyphens, dots, and underscores, up to 63 characters each.
  *  Optionally, the key can begin with a DNS subdomain prefix and a single '/', like example.com/my-app.
  *  If --overwrite is true, then existing labels can be overwritten, otherwise attempting to overwrite a label will result in an error.
  *  If --resource-version is specified, then updates will use this resource version, otherwise the existing resource-version will be used.`,
  example: `  # Update pod 'foo' with the label 'unhealthy' and the value 'true'
  kubectl label pods foo unhealthy=true
  
  # Update pod 'foo' with the label 'status' and the value 'unhealthy', overwriting any existing value
  kubectl label --overwrite pods foo status=unhealthy
  
  # Update all pods in the namespace
  kubectl label pods --all status=unhealthy
  
  # Update a pod identified by the type and name in "pod.json"
  kubectl label -f pod.json status=unhealthy
  
  # Update pod 'foo' only if the resource is unchanged from version 1
  kubectl label pods foo status=unhealthy --resource-version=1
  
  # Update pod 'foo' by removing a label named 'bar' if it exists
  # Does not require the --overwrite flag
  kubectl label pods foo bar-`,
  usage: "kubectl label [--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version] [options]",
  flags: [
    F.all,
    F.allNamespaces2,
    F.allowMissingTemplateKeys,
    F.dryRun,
    { name: "field-manager", type: "string", defValue: "'kubectl-label'", usage: "Name of the manager used to track field ownership." },
    F.fieldSelector,
    { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "Filename, directory, or URL to files identifying the resource to update the labels" },
    F.kustomize,
    { name: "list", type: "bool", defValue: "false", usage: "If true, display the labels for a given resource." },
    { name: "local", type: "bool", defValue: "false", usage: "If true, label will NOT contact api-server but run locally." },
    F.output,
    { name: "overwrite", type: "bool", defValue: "false", usage: "If true, allow labels to be overwritten, otherwise reject label updates that overwrite existing labels." },
    F.recursive,
    { name: "resource-version", type: "string", defValue: "''", usage: "If non-empty, the labels update will only succeed if this is the current resource-version for the object. Only valid when specifying a single resource." },
    F.selector,
    F.showManagedFields,
    F.template,
    { name: "record", type: "bool", defValue: "false", usage: "Record current kubectl command in the resource annotation. If set to false, do not record the command. If set to true, record the command. If not set, default to updating the existing annotation value only if one already exists.", deprecated: "--record will be removed in the future" },
  ],
};
