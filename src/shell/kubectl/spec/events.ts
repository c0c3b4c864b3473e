/**
 * `kubectl events`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

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
    F.allNamespaces,
    F.allowMissingTemplateKeys,
    F.chunkSize,
    { name: "for", type: "string", defValue: "''", usage: "Filter events to only those pertaining to the specified resource." },
    { name: "no-headers", type: "bool", defValue: "false", usage: "When using the default output format, don't print headers." },
    F.output,
    F.showManagedFields,
    F.template,
    { name: "types", type: "stringSlice", defValue: "[]", usage: "Output only events of given types." },
    { name: "watch", short: "w", type: "bool", defValue: "false", usage: "After listing the requested events, watch for more events." },
  ],
};
