/**
 * `kubectl delete`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';

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
    { name: "all-namespaces", short: "A", type: "bool", defValue: "false", usage: "If present, list the requested object(s) across all namespaces. Namespace in current context is ignored even if specified with --namespace." },
    { name: "cascade", type: "string", defValue: "'background'", noOptDefault: "background", usage: "Must be \"background\", \"orphan\", or \"foreground\". Selects the deletion cascading strategy for the dependents (e.g. Pods created by a ReplicationController). Defaults to background." },
    { name: "dry-run", type: "string", defValue: "'none'", noOptDefault: "unchanged", usage: "Must be \"none\", \"server\", or \"client\". If client strategy, only print the object that would be sent, without sending it. If server strategy, submit server-side request without persisting the resource." },
    { name: "field-selector", type: "string", defValue: "''", usage: "Selector (field query) to filter on, supports '=', '==', and '!='.(e.g. --field-selector key1=value1,key2=value2). The server only supports a limited number of field queries per type." },
    { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "containing the resource to delete." },
    { name: "force", type: "bool", defValue: "false", usage: "If true, immediately remove resources from API and bypass graceful deletion. Note that immediate deletion of some resources may result in inconsistency or data loss and requires confirmation." },
    { name: "grace-period", type: "int", defValue: "-1", usage: "Period of time in seconds given to the resource to terminate gracefully. Ignored if negative. Set to 1 for immediate shutdown. Can only be set to 0 when --force is true (force deletion)." },
    { name: "ignore-not-found", type: "bool", defValue: "false", usage: "Treat \"resource not found\" as a successful delete. Defaults to \"true\" when --all is specified." },
    { name: "interactive", short: "i", type: "bool", defValue: "false", usage: "If true, delete resource only when user confirms." },
    { name: "kustomize", short: "k", type: "string", defValue: "''", usage: "Process a kustomization directory. This flag can't be used together with -f or -R." },
    { name: "now", type: "bool", defValue: "false", usage: "If true, resources are signaled for immediate shutdown (same as --grace-period=1)." },
    { name: "output", short: "o", type: "string", defValue: "''", usage: "Output mode. Use \"-o name\" for shorter output (resource/name)." },
    { name: "raw", type: "string", defValue: "''", usage: "Raw URI to DELETE to the server.  Uses the transport specified by the kubeconfig file." },
    { name: "recursive", short: "R", type: "bool", defValue: "false", usage: "Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory." },
    { name: "selector", short: "l", type: "string", defValue: "''", usage: "Selector (label query) to filter on, supports '=', '==', '!=', 'in', 'notin'.(e.g. -l key1=value1,key2=value2,key3 in (value3)). Matching objects must satisfy all of the specified label constraints." },
    { name: "timeout", type: "string", defValue: "0s", usage: "The length of time to wait before giving up on a delete, zero means determine a timeout from the size of the object" },
    { name: "wait", type: "bool", defValue: "true", usage: "If true, wait for resources to be gone before returning. This waits for finalizers." },
  ],
};
