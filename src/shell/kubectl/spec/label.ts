/**
 * `kubectl label`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';

export const labelSpec: CommandSpec = {
  name: "label",
  short: "Update the labels on a resource",
  long: `Update the labels on a resource.

  *  A label key and value must begin with a letter or number, and may contain letters, numbers, hyphens, dots, and underscores, up to 63 characters each.
  *  Optionally, the key can begin with a DNS subdomain prefix and a single '/', like example.com/my-app.
  *  If --overwrite is true, then existing labels can be overwritten, otherwise attempting to overwrite a label will result in an error.
  *  If --resource-version is specified, then updates will use this resource version, otherwise the existing resource-version will be used.`,
  example: `  # Update pod 'foo' with the label 'unhealthy' and the value 'true'
  kubectl label pods foo unhealthy=true
  
  # Update pod 'foo' with the label 'status' and the value 'unhealthy', overwriting any existing value
  kubectl label --overwrite pods foo status=unhealthy
  
  # Update all pods in the namespace
  kubectl label pods --all status=unhealthy
  
  # Update a pod identified by the type and name in "pod.json"
  kubectl label -f pod.json status=unhealthy
  
  # Update pod 'foo' only if the resource is unchanged from version 1
  kubectl label pods foo status=unhealthy --resource-version=1
  
  # Update pod 'foo' by removing a label named 'bar' if it exists
  # Does not require the --overwrite flag
  kubectl label pods foo bar-`,
  usage: "kubectl label [--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version] [options]",
  flags: [
    { name: "all", type: "bool", defValue: "false", usage: "Select all resources, in the namespace of the specified resource types" },
    { name: "all-namespaces", short: "A", type: "bool", defValue: "false", usage: "If true, check the specified action in all namespaces." },
    { name: "allow-missing-template-keys", type: "bool", defValue: "true", usage: "If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats." },
    { name: "dry-run", type: "string", defValue: "'none'", noOptDefault: "unchanged", usage: "Must be \"none\", \"server\", or \"client\". If client strategy, only print the object that would be sent, without sending it. If server strategy, submit server-side request without persisting the resource." },
    { name: "field-manager", type: "string", defValue: "'kubectl-label'", usage: "Name of the manager used to track field ownership." },
    { name: "field-selector", type: "string", defValue: "''", usage: "Selector (field query) to filter on, supports '=', '==', and '!='.(e.g. --field-selector key1=value1,key2=value2). The server only supports a limited number of field queries per type." },
    { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "Filename, directory, or URL to files identifying the resource to update the labels" },
    { name: "kustomize", short: "k", type: "string", defValue: "''", usage: "Process the kustomization directory. This flag can't be used together with -f or -R." },
    { name: "list", type: "bool", defValue: "false", usage: "If true, display the labels for a given resource." },
    { name: "local", type: "bool", defValue: "false", usage: "If true, label will NOT contact api-server but run locally." },
    { name: "output", short: "o", type: "string", defValue: "''", usage: "Output format. One of: (json, yaml, kyaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file)." },
    { name: "overwrite", type: "bool", defValue: "false", usage: "If true, allow labels to be overwritten, otherwise reject label updates that overwrite existing labels." },
    { name: "recursive", short: "R", type: "bool", defValue: "false", usage: "Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory." },
    { name: "resource-version", type: "string", defValue: "''", usage: "If non-empty, the labels update will only succeed if this is the current resource-version for the object. Only valid when specifying a single resource." },
    { name: "selector", short: "l", type: "string", defValue: "''", usage: "Selector (label query) to filter on, supports '=', '==', '!=', 'in', 'notin'.(e.g. -l key1=value1,key2=value2,key3 in (value3)). Matching objects must satisfy all of the specified label constraints." },
    { name: "show-managed-fields", type: "bool", defValue: "false", usage: "If true, keep the managedFields when printing objects in JSON or YAML format." },
    { name: "template", type: "string", defValue: "''", usage: "Template string or path to template file to use when -o=go-template, -o=go-template-file. The template format is golang templates [http://golang.org/pkg/text/template/#pkg-overview]." },
  ],
};
