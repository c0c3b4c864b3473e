/**
 * `kubectl get`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';

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
    { name: "all-namespaces", short: "A", type: "bool", defValue: "false", usage: "If present, list the requested object(s) across all namespaces. Namespace in current context is ignored even if specified with --namespace." },
    { name: "allow-missing-template-keys", type: "bool", defValue: "true", usage: "If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats." },
    { name: "chunk-size", type: "int", defValue: "500", usage: "Return large lists in chunks rather than all at once. Pass 0 to disable." },
    { name: "field-selector", type: "string", defValue: "''", usage: "Selector (field query) to filter on, supports '=', '==', and '!='.(e.g. --field-selector key1=value1,key2=value2). The server only supports a limited number of field queries per type." },
    { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "Filename, directory, or URL to files identifying the resource to get from a server." },
    { name: "ignore-not-found", type: "bool", defValue: "false", usage: "If set to true, suppresses NotFound error for specific objects that do not exist. Using this flag with commands that query for collections of resources has no effect when no resources are found." },
    { name: "kustomize", short: "k", type: "string", defValue: "''", usage: "Process the kustomization directory. This flag can't be used together with -f or -R." },
    { name: "label-columns", short: "L", type: "stringSlice", defValue: "[]", usage: "Accepts a comma separated list of labels that are going to be presented as columns. Names are case-sensitive. You can also use multiple flag options like -L label1 -L label2..." },
    { name: "no-headers", type: "bool", defValue: "false", usage: "When using the default or custom-column output format, don't print headers (default print headers)." },
    { name: "output", short: "o", type: "string", defValue: "''", usage: "Output format. One of: (json, yaml, kyaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file, custom-columns, custom-columns-file, wide). See custom columns [https://kubernetes.io/docs/reference/kubectl/#custom-columns], golang template [http://golang.org/pkg/text/template/#pkg-overview] and jsonpath template [https://kubernetes.io/docs/reference/kubectl/jsonpath/]." },
    { name: "output-watch-events", type: "bool", defValue: "false", usage: "Output watch event objects when --watch or --watch-only is used. Existing objects are output as initial ADDED events." },
    { name: "raw", type: "string", defValue: "''", usage: "Raw URI to request from the server.  Uses the transport specified by the kubeconfig file." },
    { name: "recursive", short: "R", type: "bool", defValue: "false", usage: "Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory." },
    { name: "selector", short: "l", type: "string", defValue: "''", usage: "Selector (label query) to filter on, supports '=', '==', '!=', 'in', 'notin'.(e.g. -l key1=value1,key2=value2,key3 in (value3)). Matching objects must satisfy all of the specified label constraints." },
    { name: "server-print", type: "bool", defValue: "true", usage: "If true, have the server return the appropriate table output. Supports extension APIs and CRDs." },
    { name: "show-kind", type: "bool", defValue: "false", usage: "If present, list the resource type for the requested object(s)." },
    { name: "show-labels", type: "bool", defValue: "false", usage: "When printing, show all labels as the last column (default hide labels column)" },
    { name: "show-managed-fields", type: "bool", defValue: "false", usage: "If true, keep the managedFields when printing objects in JSON or YAML format." },
    { name: "sort-by", type: "string", defValue: "''", usage: "If non-empty, sort list types using this field specification.  The field specification is expressed as a JSONPath expression (e.g. '{.metadata.name}'). The field in the API resource specified by this JSONPath expression must be an integer or a string." },
    { name: "subresource", type: "string", defValue: "''", usage: "If specified, gets the subresource of the requested object." },
    { name: "template", type: "string", defValue: "''", usage: "Template string or path to template file to use when -o=go-template, -o=go-template-file. The template format is golang templates [http://golang.org/pkg/text/template/#pkg-overview]." },
    { name: "watch", short: "w", type: "bool", defValue: "false", usage: "After listing/getting the requested object, watch for changes." },
    { name: "watch-only", type: "bool", defValue: "false", usage: "Watch for changes to the requested object(s), without listing/getting first." },
  ],
};
