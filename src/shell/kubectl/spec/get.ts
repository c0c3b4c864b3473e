/**
 * `kubectl get`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const getSpec: CommandSpec = {
  name: "get",
  short: "Display one or many resources",
  long: `Display one or many resources.

 Prints a table of the most important information about the specified resources. You can filter the list using a label selector and the --selector flag. If the desired resource type is namespaced you will only see results in the current namespace if you don't specify any namespace.

 By specifying the output as 'template' and providing a Go template as the value of the --template flag, you can filter the attributes of the fetched resources.

Use "kubectl api-resources" for a complete list of supported resources.`,
  example: `  # List all pods in ps output format
  kubectl get pods
  
  # List all pods in ps output format with more information (such as node name)
  kubectl get pods -o wide
  
  # List a single replication controller with specified NAME in ps output format
  kubectl get replicationcontroller web
  
  # List deployments in JSON output format, in the "v1" version of the "apps" API group
  kubectl get deployments.v1.apps -o json
  
  # List a single pod in JSON output format
  kubectl get -o json pod web-pod-13je7
  
  # List a pod identified by type and name specified in "pod.yaml" in JSON output format
  kubectl get -f pod.yaml -o json
  
  # List resources from a directory with kustomization.yaml - e.g. dir/kustomization.yaml
  kubectl get -k dir/
  
  # Return only the phase value of the specified pod
  kubectl get -o template pod/web-pod-13je7 --template={{.status.phase}}
  
  # List resource information in custom columns
  kubectl get pod test-pod -o custom-columns=CONTAINER:.spec.containers[0].name,IMAGE:.spec.containers[0].image
  
  # List all replication controllers and services together in ps output format
  kubectl get rc,services
  
  # List one or more resources by their type and names
  kubectl get rc/web service/frontend pods/web-pod-13je7
  
  # List the 'status' subresource for a single pod
  kubectl get pod web-pod-13je7 --subresource status
  
  # List all deployments in namespace 'backend'
  kubectl get deployments.apps --namespace backend
  
  # List all pods existing in all namespaces
  kubectl get pods --all-namespaces`,
  usage: "kubectl get [(-o|--output=)json|yaml|kyaml|name|go-template|go-template-file|template|templatefile|jsonpath|jsonpath-as-json|jsonpath-file|custom-columns|custom-columns-file|wide] (TYPE[.VERSION][.GROUP] [NAME | -l label] | TYPE[.VERSION][.GROUP]/NAME ...) [flags] [options]",
  flags: [
    F.allNamespaces,
    F.allowMissingTemplateKeys,
    F.chunkSize,
    F.fieldSelector,
    F.filename,
    { name: "ignore-not-found", type: "bool", defValue: "false", usage: "If set to true, suppresses NotFound error for specific objects that do not exist. Using this flag with commands that query for collections of resources has no effect when no resources are found." },
    F.kustomize,
    { name: "label-columns", short: "L", type: "stringSlice", defValue: "[]", usage: "Accepts a comma separated list of labels that are going to be presented as columns. Names are case-sensitive. You can also use multiple flag options like -L label1 -L label2..." },
    F.noHeaders,
    { name: "output", short: "o", type: "string", defValue: "''", usage: "Output format. One of: (json, yaml, kyaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file, custom-columns, custom-columns-file, wide). See custom columns [https://kubernetes.io/docs/reference/kubectl/#custom-columns], golang template [http://golang.org/pkg/text/template/#pkg-overview] and jsonpath template [https://kubernetes.io/docs/reference/kubectl/jsonpath/]." },
    { name: "output-watch-events", type: "bool", defValue: "false", usage: "Output watch event objects when --watch or --watch-only is used. Existing objects are output as initial ADDED events." },
    { name: "raw", type: "string", defValue: "''", usage: "Raw URI to request from the server.  Uses the transport specified by the kubeconfig file." },
    F.recursive,
    F.selector,
    { name: "server-print", type: "bool", defValue: "true", usage: "If true, have the server return the appropriate table output. Supports extension APIs and CRDs." },
    { name: "show-kind", type: "bool", defValue: "false", usage: "If present, list the resource type for the requested object(s)." },
    { name: "show-labels", type: "bool", defValue: "false", usage: "When printing, show all labels as the last column (default hide labels column)" },
    F.showManagedFields,
    { name: "sort-by", type: "string", defValue: "''", usage: "If non-empty, sort list types using this field specification.  The field specification is expressed as a JSONPath expression (e.g. '{.metadata.name}'). The field in the API resource specified by this JSONPath expression must be an integer or a string." },
    { name: "subresource", type: "string", defValue: "''", usage: "If specified, gets the subresource of the requested object." },
    F.template,
    { name: "watch", short: "w", type: "bool", defValue: "false", usage: "After listing/getting the requested object, watch for changes." },
    { name: "watch-only", type: "bool", defValue: "false", usage: "Watch for changes to the requested object(s), without listing/getting first." },
  ],
};
