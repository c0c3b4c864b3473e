/**
 * `kubectl annotate`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const annotateSpec: CommandSpec = {
  name: "annotate",
  short: "Update the annotations on a resource",
  long: `Update the annotations on one or more resources.

 All Kubernetes objects support the ability to store additional data with the object as annotations. Annotations are key/value pairs that can be larger than labels and include arbitrary string values such as structured JSON. Tools and system extensions may use annotations to store their own data.

 Attempting to set an annotation that already exists will fail unless --overwrite is set. If --resource-version is specified and does not match the current resource version on the server the command will fail.

Use "kubectl api-resources" for a complete list of supported resources.`,
  example: `  # Update pod 'foo' with the annotation 'description' and the value 'my frontend'
  # If the same annotation is set multiple times, only the last value will be applied
  kubectl annotate pods foo description='my frontend'
  
  # Update a pod identified by type and name in "pod.json"
  kubectl annotate -f pod.json description='my frontend'
  
  # Update pod 'foo' with the annotation 'description' and the value 'my frontend running nginx', overwriting any existing value
  kubectl annotate --overwrite pods foo description='my frontend running nginx'
  
  # Update all pods in the namespace
  kubectl annotate pods --all description='my frontend running nginx'
  
  # Update pod 'foo' only if the resource is unchanged from version 1
  kubectl annotate pods foo description='my frontend running nginx' --resource-version=1
  
  # Update pod 'foo' by removing an annotation named 'description' if it exists
  # Does not require the --overwrite flag
  kubectl annotate pods foo description-`,
  usage: "kubectl annotate [--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version] [options]",
  flags: [
    { name: "all", type: "bool", defValue: "false", usage: "Select all resources, in the namespace of the specified resource types." },
    F.allNamespaces2,
    F.allowMissingTemplateKeys,
    F.dryRun,
    { name: "field-manager", type: "string", defValue: "'kubectl-annotate'", usage: "Name of the manager used to track field ownership." },
    F.fieldSelector,
    { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "Filename, directory, or URL to files identifying the resource to update the annotation" },
    F.kustomize,
    { name: "list", type: "bool", defValue: "false", usage: "If true, display the annotations for a given resource." },
    F.local,
    F.output,
    { name: "overwrite", type: "bool", defValue: "false", usage: "If true, allow annotations to be overwritten, otherwise reject annotation updates that overwrite existing annotations." },
    F.recursive,
    { name: "resource-version", type: "string", defValue: "''", usage: "If non-empty, the annotation update will only succeed if this is the current resource-version for the object. Only valid when specifying a single resource." },
    F.selector,
    F.showManagedFields,
    F.template,
    { name: "record", type: "bool", defValue: "false", usage: "Record current kubectl command in the resource annotation. If set to false, do not record the command. If set to true, record the command. If not set, default to updating the existing annotation value only if one already exists.", deprecated: "--record will be removed in the future" },
  ],
};
