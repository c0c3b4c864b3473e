/**
 * `kubectl patch`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const patchSpec: CommandSpec = {
  name: "patch",
  short: "Update fields of a resource",
  long: `Update fields of a resource using strategic merge patch, a JSON merge patch, or a JSON patch.

 JSON and YAML formats are accepted.

 Note: Strategic merge patch is not supported for custom resources.`,
  example: `  # Partially update a node using a strategic merge patch, specifying the patch as JSON
  kubectl patch node k8s-node-1 -p '{"spec":{"unschedulable":true}}'
  
  # Partially update a node using a strategic merge patch, specifying the patch as YAML
  kubectl patch node k8s-node-1 -p $'spec:\\n unschedulable: true'
  
  # Partially update a node identified by the type and name specified in "node.json" using strategic merge patch
  kubectl patch -f node.json -p '{"spec":{"unschedulable":true}}'
  
  # Update a container's image; spec.containers[*].name is required because it's a merge key
  kubectl patch pod valid-pod -p '{"spec":{"containers":[{"name":"kubernetes-serve-hostname","image":"new image"}]}}'
  
  # Update a container's image using a JSON patch with positional arrays
  kubectl patch pod valid-pod --type='json' -p='[{"op": "replace", "path": "/spec/containers/0/image", "value":"new image"}]'
  
  # Update a deployment's replicas through the 'scale' subresource using a merge patch
  kubectl patch deployment nginx-deployment --subresource='scale' --type='merge' -p '{"spec":{"replicas":2}}'`,
  usage: "kubectl patch (-f FILENAME | TYPE NAME) [-p PATCH|--patch-file FILE] [options]",
  flags: [
    F.allowMissingTemplateKeys,
    F.dryRun,
    { name: "field-manager", type: "string", defValue: "'kubectl-patch'", usage: "Name of the manager used to track field ownership." },
    F.filename2,
    F.kustomize,
    { name: "local", type: "bool", defValue: "false", usage: "If true, patch will operate on the content of the file, not the server-side resource." },
    F.output,
    { name: "patch", short: "p", type: "string", defValue: "''", usage: "The patch to be applied to the resource JSON file." },
    { name: "patch-file", type: "string", defValue: "''", usage: "A file containing a patch to be applied to the resource." },
    F.recursive,
    F.showManagedFields,
    { name: "subresource", type: "string", defValue: "''", usage: "If specified, patch will operate on the subresource of the requested object." },
    F.template,
    { name: "type", type: "string", defValue: "'strategic'", usage: "The type of patch being provided; one of [json merge strategic]" },
    { name: "record", type: "bool", defValue: "false", usage: "Record current kubectl command in the resource annotation. If set to false, do not record the command. If set to true, record the command. If not set, default to updating the existing annotation value only if one already exists.", deprecated: "--record will be removed in the future" },
  ],
};
