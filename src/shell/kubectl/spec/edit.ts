/**
 * `kubectl edit`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const editSpec: CommandSpec = {
  name: "edit",
  short: "Edit a resource on the server",
  long: `Edit a resource from the default editor.

 The edit command allows you to directly edit any API resource you can retrieve via the command-line tools. It will open the editor defined by your KUBE_EDITOR, or EDITOR environment variables, or fall back to 'vi' for Linux or 'notepad' for Windows. When attempting to open the editor, it will first attempt to use the shell that has been defined in the 'SHELL' environment variable. If this is not defined, the default shell will be used, which is '/bin/bash' for Linux or 'cmd' for Windows.

 You can edit multiple objects, although changes are applied one at a time. The command accepts file names as well as command-line arguments, although the files you point to must be previously saved versions of resources.

 Editing is done with the API version used to fetch the resource. To edit using a specific API version, fully-qualify the resource, version, and group.

 The default format is YAML. To edit in JSON, specify "-o json".

 The flag --windows-line-endings can be used to force Windows line endings, otherwise the default for your operating system will be used.

 In the event an error occurs while updating, a temporary file will be created on disk that contains your unapplied changes. The most common error when updating a resource is another editor changing the resource on the server. When this occurs, you will have to apply your changes to the newer version of the resource, or update your temporary saved copy to include the latest resource version.`,
  example: `  # Edit the service named 'registry'
  kubectl edit svc/registry
  
  # Use an alternative editor
  KUBE_EDITOR="nano" kubectl edit svc/registry
  
  # Edit the job 'myjob' in JSON using the v1 API format
  kubectl edit job.v1.batch/myjob -o json
  
  # Edit the deployment 'mydeployment' in YAML and save the modified config in its annotation
  kubectl edit deployment/mydeployment -o yaml --save-config
  
  # Edit the 'status' subresource for the 'mydeployment' deployment
  kubectl edit deployment mydeployment --subresource='status'`,
  usage: "kubectl edit (RESOURCE/NAME | -f FILENAME) [options]",
  flags: [
    F.allowMissingTemplateKeys,
    { name: "field-manager", type: "string", defValue: "'kubectl-edit'", usage: "Name of the manager used to track field ownership." },
    { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "Filename, directory, or URL to files to use to edit the resource" },
    F.kustomize,
    F.output,
    { name: "output-patch", type: "bool", defValue: "false", usage: "Output the patch if the resource is edited." },
    F.recursive,
    F.saveConfig,
    F.showManagedFields,
    { name: "subresource", type: "string", defValue: "''", usage: "If specified, edit will operate on the subresource of the requested object." },
    F.template,
    F.validate,
    { name: "windows-line-endings", type: "bool", defValue: "false", usage: "Defaults to the line ending native to your platform." },
    { name: "record", type: "bool", defValue: "false", usage: "Record current kubectl command in the resource annotation. If set to false, do not record the command. If set to true, record the command. If not set, default to updating the existing annotation value only if one already exists.", deprecated: "--record will be removed in the future" },
  ],
};
