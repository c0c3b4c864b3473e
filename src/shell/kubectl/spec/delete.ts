/**
 * `kubectl delete`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const deleteSpec: CommandSpec = {
  name: "delete",
  short: "Delete resources by file names, stdin, resources and names, or by resources and label selector",
  long: `Delete resources by file names, stdin, resources and names, or by resources and label selector.

 JSON and YAML formats are accepted. Only one type of argument may be specified: file names, resources and names, or resources and label selector.

 Some resources, such as pods, support graceful deletion. These resources define a default period before they are forcibly terminated (the grace period) but you may override that value with the --grace-period flag, or pass --now to set a grace-period of 1. Because these resources often represent entities in the cluster, deletion may not be acknowledged immediately. If the node hosting a pod is down or cannot reach the API server, termination may take significantly longer than the grace period. To force delete a resource, you must specify the --force flag. Note: only a subset of resources support graceful deletion. In absence of the support, the --grace-period flag is ignored.

 IMPORTANT: Force deleting pods does not wait for confirmation that the pod's processes have been terminated, which can leave those processes running until the node detects the deletion and completes graceful deletion. If your processes use shared storage or talk to a remote API and depend on the name of the pod to identify themselves, force deleting those pods may result in multiple processes running on different machines using the same identification which may lead to data corruption or inconsistency. Only force delete pods when you are sure the pod is terminated, or if your application can tolerate multiple copies of the same pod running at once. Also, if you force delete pods, the scheduler may place new pods on those nodes before the node has released those resources and causing those pods to be evicted immediately.

 Note that the delete command does NOT do resource version checks, so if someone submits an update to a resource right when you submit a delete, their update will be lost along with the rest of the resource.

 After a CustomResourceDefinition is deleted, invalidation of discovery cache may take up to 6 hours. If you don't want to wait, you might want to run "kubectl api-resources" to refresh the discovery cache.`,
  example: `  # Delete a pod using the type and name specified in pod.json
  kubectl delete -f ./pod.json
  
  # Delete resources from a directory containing kustomization.yaml - e.g. dir/kustomization.yaml
  kubectl delete -k dir
  
  # Delete resources from all files that end with '.json'
  kubectl delete -f '*.json'
  
  # Delete a pod based on the type and name in the JSON passed into stdin
  cat pod.json | kubectl delete -f -
  
  # Delete pods and services with same names "baz" and "foo"
  kubectl delete pod,service baz foo
  
  # Delete pods and services with label name=myLabel
  kubectl delete pods,services -l name=myLabel
  
  # Delete a pod with minimal delay
  kubectl delete pod foo --now
  
  # Force delete a pod on a dead node
  kubectl delete pod foo --force
  
  # Delete all pods
  kubectl delete pods --all
  
  # Delete all pods only if the user confirms the deletion
  kubectl delete pods --all --interactive`,
  usage: "kubectl delete ([-f FILENAME] | [-k DIRECTORY] | TYPE [(NAME | -l label | --all)]) [options]",
  flags: [
    { name: "all", type: "bool", defValue: "false", usage: "Delete all resources, in the namespace of the specified resource types." },
    F.allNamespaces,
    F.cascade,
    F.dryRun,
    F.fieldSelector,
    { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "containing the resource to delete." },
    F.force,
    F.gracePeriod,
    { name: "ignore-not-found", type: "bool", defValue: "false", usage: "Treat \"resource not found\" as a successful delete. Defaults to \"true\" when --all is specified." },
    { name: "interactive", short: "i", type: "bool", defValue: "false", usage: "If true, delete resource only when user confirms." },
    F.kustomize2,
    { name: "now", type: "bool", defValue: "false", usage: "If true, resources are signaled for immediate shutdown (same as --grace-period=1)." },
    { name: "output", short: "o", type: "string", defValue: "''", usage: "Output mode. Use \"-o name\" for shorter output (resource/name)." },
    { name: "raw", type: "string", defValue: "''", usage: "Raw URI to DELETE to the server.  Uses the transport specified by the kubeconfig file." },
    F.recursive,
    F.selector,
    F.timeout,
    { name: "wait", type: "bool", defValue: "true", usage: "If true, wait for resources to be gone before returning. This waits for finalizers." },
  ],
};
