/**
 * `kubectl scale`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const scaleSpec: CommandSpec = {
  name: "scale",
  short: "Set a new size for a deployment, replica set, or replication controller",
  long: `Set a new size for a deployment, replica set, replication controller, or stateful set.

 Scale also allows users to specify one or more preconditions for the scale action.

 If --current-replicas or --resource-version is specified, it is validated before the scale is attempted, and it is guaranteed that the precondition holds true when the scale is sent to the server.`,
  example: `  # Scale a replica set named 'foo' to 3
  kubectl scale --replicas=3 rs/foo
  
  # Scale a resource identified by type and name specified in "foo.yaml" to 3
  kubectl scale --replicas=3 -f foo.yaml
  
  # If the deployment named mysql's current size is 2, scale mysql to 3
  kubectl scale --current-replicas=2 --replicas=3 deployment/mysql
  
  # Scale multiple replication controllers
  kubectl scale --replicas=5 rc/example1 rc/example2 rc/example3
  
  # Scale stateful set named 'web' to 3
  kubectl scale --replicas=3 statefulset/web`,
  usage: "kubectl scale [--resource-version=version] [--current-replicas=count] --replicas=COUNT (-f FILENAME | TYPE NAME) [options]",
  flags: [
    F.all2,
    F.allowMissingTemplateKeys,
    { name: "current-replicas", type: "int", defValue: "-1", usage: "Precondition for current size. Requires that the current size of the resource match this value in order to scale. -1 (default) for no condition." },
    F.dryRun,
    { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "Filename, directory, or URL to files identifying the resource to set a new size" },
    F.kustomize,
    F.output,
    F.recursive,
    { name: "replicas", type: "int", defValue: "0", usage: "The new desired number of replicas. Required." },
    { name: "resource-version", type: "string", defValue: "''", usage: "Precondition for resource version. Requires that the current resource version match this value in order to scale." },
    F.selector,
    F.showManagedFields,
    F.template,
    { name: "timeout", type: "string", defValue: "0s", usage: "The length of time to wait before giving up on a scale operation, zero means don't wait. Any other values should contain a corresponding time unit (e.g. 1s, 2m, 3h)." },
    { name: "record", type: "bool", defValue: "false", usage: "Record current kubectl command in the resource annotation. If set to false, do not record the command. If set to true, record the command. If not set, default to updating the existing annotation value only if one already exists.", deprecated: "--record will be removed in the future" },
  ],
};
