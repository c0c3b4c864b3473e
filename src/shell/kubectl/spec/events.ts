/**
 * `kubectl events`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';

export const eventsSpec: CommandSpec = {
  name: "events",
  short: "List events",
  long: `Display events.

 Prints a table of the most important information about events. You can request events for a namespace, for all namespace, or filtered to only those pertaining to a specified resource.`,
  example: `  # List recent events in the default namespace
  kubectl events
  
  # List recent events in all namespaces
  kubectl events --all-namespaces
  
  # List recent events for the specified pod, then wait for more events and list them as they arrive
  kubectl events --for pod/web-pod-13je7 --watch
  
  # List recent events in YAML format
  kubectl events -oyaml
  
  # List recent only events of type 'Warning' or 'Normal'
  kubectl events --types=Warning,Normal`,
  usage: "kubectl events [(-o|--output=)json|yaml|kyaml|name|go-template|go-template-file|template|templatefile|jsonpath|jsonpath-as-json|jsonpath-file] [--for TYPE/NAME] [--watch] [--types=Normal,Warning] [options]",
  flags: [
    { name: "all-namespaces", short: "A", type: "bool", defValue: "false", usage: "If present, list the requested object(s) across all namespaces. Namespace in current context is ignored even if specified with --namespace." },
    { name: "allow-missing-template-keys", type: "bool", defValue: "true", usage: "If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats." },
    { name: "chunk-size", type: "int", defValue: "500", usage: "Return large lists in chunks rather than all at once. Pass 0 to disable." },
    { name: "for", type: "string", defValue: "''", usage: "Filter events to only those pertaining to the specified resource." },
    { name: "no-headers", type: "bool", defValue: "false", usage: "When using the default output format, don't print headers." },
    { name: "output", short: "o", type: "string", defValue: "''", usage: "Output format. One of: (json, yaml, kyaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file)." },
    { name: "show-managed-fields", type: "bool", defValue: "false", usage: "If true, keep the managedFields when printing objects in JSON or YAML format." },
    { name: "template", type: "string", defValue: "''", usage: "Template string or path to template file to use when -o=go-template, -o=go-template-file. The template format is golang templates [http://golang.org/pkg/text/template/#pkg-overview]." },
    { name: "types", type: "stringSlice", defValue: "[]", usage: "Output only events of given types." },
    { name: "watch", short: "w", type: "bool", defValue: "false", usage: "After listing the requested events, watch for more events." },
  ],
};
