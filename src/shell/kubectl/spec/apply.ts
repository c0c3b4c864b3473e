/**
 * `kubectl apply`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const applySpec: CommandSpec = {
  name: "apply",
  short: "Apply a configuration to a resource by file name or stdin",
  long: `Apply a configuration to a resource by file name or stdin. The resource name must be specified. This resource will be created if it doesn't exist yet. To use 'apply', always create the resource initially with either 'apply' or 'create --save-config'.

 JSON and YAML formats are accepted.

 Alpha Disclaimer: the --prune functionality is not yet complete. Do not use unless you are aware of what the current state is. See https://issues.k8s.io/34274.`,
  example: `  # Apply the configuration in pod.json to a pod
  kubectl apply -f ./pod.json
  
  # Apply resources from a directory containing kustomization.yaml - e.g. dir/kustomization.yaml
  kubectl apply -k dir/
  
  # Apply the JSON passed into stdin to a pod
  cat pod.json | kubectl apply -f -
  
  # Apply the configuration from all files that end with '.json'
  kubectl apply -f '*.json'
  
  # Note: --prune is still in Alpha
  # Apply the configuration in manifest.yaml that matches label app=nginx and delete all other resources that are not in the file and match label app=nginx
  kubectl apply --prune -f manifest.yaml -l app=nginx
  
  # Apply the configuration in manifest.yaml and delete all the other config maps that are not in the file
  kubectl apply --prune -f manifest.yaml --all --prune-allowlist=core/v1/ConfigMap`,
  usage: "kubectl apply (-f FILENAME | -k DIRECTORY) [options]",
  flags: [
    { name: "all", type: "bool", defValue: "false", usage: "Select all resources in the namespace of the specified resource types." },
    F.allowMissingTemplateKeys,
    F.cascade,
    F.dryRun,
    F.fieldManager3,
    { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "The files that contain the configurations to apply." },
    F.force,
    { name: "force-conflicts", type: "bool", defValue: "false", usage: "If true, server-side apply will force the changes against conflicts." },
    F.gracePeriod,
    F.kustomize2,
    { name: "openapi-patch", type: "bool", defValue: "true", usage: "If true, use openapi to calculate diff when the openapi presents and the resource can be found in the openapi spec. Otherwise, fall back to use baked-in types." },
    F.output,
    { name: "overwrite", type: "bool", defValue: "true", usage: "Automatically resolve conflicts between the modified and live configuration by using values from the modified configuration" },
    { name: "prune", type: "bool", defValue: "false", usage: "Automatically delete resource objects, that do not appear in the configs and are created by either apply or create --save-config. Should be used with either -l or --all." },
    { name: "prune-allowlist", type: "stringSlice", defValue: "[]", usage: "Overwrite the default allowlist with <group/version/kind> for --prune" },
    F.recursive,
    F.selector,
    { name: "server-side", type: "bool", defValue: "false", usage: "If true, apply runs in the server instead of the client." },
    F.showManagedFields,
    { name: "subresource", type: "string", defValue: "''", usage: "If specified, apply will operate on the subresource of the requested object.  Only allowed when using --server-side." },
    F.template,
    F.timeout,
    F.validate,
    F.wait,
    { name: "record", type: "bool", defValue: "false", usage: "Record current kubectl command in the resource annotation. If set to false, do not record the command. If set to true, record the command. If not set, default to updating the existing annotation value only if one already exists.", deprecated: "--record will be removed in the future" },
  ],
  commands: [
    {
      name: "edit-last-applied",
      short: "Edit latest last-applied-configuration annotations of a resource/object",
      long: `Edit the latest last-applied-configuration annotations of resources from the default editor.

 The edit-last-applied command allows you to directly edit any API resource you can retrieve via the command-line tools. It will open the editor defined by your KUBE_EDITOR, or EDITOR environment variables, or fall back to 'vi' for Linux or 'notepad' for Windows. You can edit multiple objects, although changes are applied one at a time. The command accepts file names as well as command-line arguments, although the files you point to must be previously saved versions of resources.

 The default format is YAML. To edit in JSON, specify "-o json".

 The flag --windows-line-endings can be used to force Windows line endings, otherwise the default for your operating system will be used.

 In the event an error occurs while updating, a temporary file will be created on disk that contains your unapplied changes. The most common error when updating a resource is another editor changing the resource on the server. When this occurs, you will have to apply your changes to the newer version of the resource, or update your temporary saved copy to include the latest resource version.`,
      example: `  # Edit the last-applied-configuration annotations by type/name in YAML
  kubectl apply edit-last-applied deployment/nginx
  
  # Edit the last-applied-configuration annotations by file in JSON
  kubectl apply edit-last-applied -f deploy.yaml -o json`,
      usage: "kubectl apply edit-last-applied (RESOURCE/NAME | -f FILENAME) [options]",
      flags: [
        F.allowMissingTemplateKeys,
        F.fieldManager3,
        { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "Filename, directory, or URL to files to use to edit the resource" },
        F.kustomize,
        F.output,
        F.recursive,
        F.showManagedFields,
        F.template,
        F.validate,
        { name: "windows-line-endings", type: "bool", defValue: "false", usage: "Defaults to the line ending native to your platform." },
      ],
    },
    {
      name: "set-last-applied",
      short: "Set the last-applied-configuration annotation on a live object to match the contents of a file",
      long: `Set the latest last-applied-configuration annotations by setting it to match the contents of a file. This results in the last-applied-configuration being updated as though 'kubectl apply -f<file> ' was run, without updating any other parts of the object.`,
      example: `  # Set the last-applied-configuration of a resource to match the contents of a file
  kubectl apply set-last-applied -f deploy.yaml
  
  # Execute set-last-applied against each configuration file in a directory
  kubectl apply set-last-applied -f path/
  
  # Set the last-applied-configuration of a resource to match the contents of a file; will create the annotation if it does not already exist
  kubectl apply set-last-applied -f deploy.yaml --create-annotation=true`,
      usage: "kubectl apply set-last-applied -f FILENAME [options]",
      flags: [
        F.allowMissingTemplateKeys,
        { name: "create-annotation", type: "bool", defValue: "false", usage: "Will create 'last-applied-configuration' annotations if current objects doesn't have one" },
        F.dryRun,
        { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "Filename, directory, or URL to files that contains the last-applied-configuration annotations" },
        F.output,
        F.showManagedFields,
        F.template,
      ],
    },
    {
      name: "view-last-applied",
      short: "View the latest last-applied-configuration annotations of a resource/object",
      long: `View the latest last-applied-configuration annotations by type/name or file.

 The default output will be printed to stdout in YAML format. You can use the -o option to change the output format.`,
      example: `  # View the last-applied-configuration annotations by type/name in YAML
  kubectl apply view-last-applied deployment/nginx
  
  # View the last-applied-configuration annotations by file in JSON
  kubectl apply view-last-applied -f deploy.yaml -o json`,
      usage: "kubectl apply view-last-applied (TYPE [NAME | -l label] | TYPE/NAME | -f FILENAME) [options]",
      flags: [
        F.all2,
        { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "Filename, directory, or URL to files that contains the last-applied-configuration annotations" },
        F.kustomize,
        { name: "output", short: "o", type: "string", defValue: "'yaml'", usage: "Output format. Must be one of (yaml, json)" },
        F.recursive,
        F.selector,
      ],
    },
  ],
};
