/**
 * `kubectl replace`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const replaceSpec: CommandSpec = {
  name: "replace",
  short: "Replace a resource by file name or stdin",
  long: `Replace a resource by file name or stdin.

 JSON and YAML formats are accepted. If replacing an existing resource, the complete resource spec must be provided. This can be obtained by

        $ kubectl get TYPE NAME -o yaml`,
  example: `  # Replace a pod using the data in pod.json
  kubectl replace -f ./pod.json
  
  # Replace a pod based on the JSON passed into stdin
  cat pod.json | kubectl replace -f -
  
  # Update a single-container pod's image version (tag) to v4
  kubectl get pod mypod -o yaml | sed 's/\\(image: myimage\\):.*$/\\1:v4/' | kubectl replace -f -
  
  # Force replace, delete and then re-create the resource
  kubectl replace --force -f ./pod.json`,
  usage: "kubectl replace -f FILENAME [options]",
  flags: [
    F.allowMissingTemplateKeys,
    F.cascade,
    F.dryRun,
    { name: "field-manager", type: "string", defValue: "'kubectl-replace'", usage: "Name of the manager used to track field ownership." },
    { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "The files that contain the configurations to replace." },
    F.force,
    F.gracePeriod,
    F.kustomize2,
    F.output,
    { name: "raw", type: "string", defValue: "''", usage: "Raw URI to PUT to the server.  Uses the transport specified by the kubeconfig file." },
    F.recursive,
    F.saveConfig,
    F.showManagedFields,
    { name: "subresource", type: "string", defValue: "''", usage: "If specified, replace will operate on the subresource of the requested object." },
    F.template,
    F.timeout,
    F.validate,
    F.wait,
  ],
};
