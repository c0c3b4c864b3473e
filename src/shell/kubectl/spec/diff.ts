/**
 * `kubectl diff`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const diffSpec: CommandSpec = {
  name: "diff",
  short: "Diff the live version against a would-be applied version",
  long: `Diff configurations specified by file name or stdin between the current online configuration, and the configuration as it would be if applied.

 The output is always YAML.

 KUBECTL_EXTERNAL_DIFF environment variable can be used to select your own diff command. Users can use external commands with params too, example: KUBECTL_EXTERNAL_DIFF="colordiff -N -u"

 By default, the "diff" command available in your path will be run with the "-u" (unified diff) and "-N" (treat absent files as empty) options.

 Exit status: 0 No differences were found. 1 Differences were found. >1 Kubectl or diff failed with an error.

 Note: KUBECTL_EXTERNAL_DIFF, if used, is expected to follow that convention.`,
  example: `  # Diff resources included in pod.json
  kubectl diff -f pod.json
  
  # Diff file read from stdin
  cat service.yaml | kubectl diff -f -`,
  usage: "kubectl diff -f FILENAME [options]",
  flags: [
    { name: "concurrency", type: "int", defValue: "1", usage: "Number of objects to process in parallel when diffing against the live version. Larger number = faster, but more memory, I/O and CPU over that shorter period of time." },
    F.fieldManager3,
    { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "Filename, directory, or URL to files contains the configuration to diff" },
    { name: "force-conflicts", type: "bool", defValue: "false", usage: "If true, server-side apply will force the changes against conflicts." },
    F.kustomize,
    { name: "prune", type: "bool", defValue: "false", usage: "Include resources that would be deleted by pruning. Can be used with -l and default shows all resources would be pruned" },
    { name: "prune-allowlist", type: "stringSlice", defValue: "[]", usage: "Overwrite the default allowlist with <group/version/kind> for --prune" },
    F.recursive,
    F.selector,
    { name: "server-side", type: "bool", defValue: "false", usage: "If true, apply runs in the server instead of the client." },
    { name: "show-managed-fields", type: "bool", defValue: "false", usage: "If true, include managed fields in the diff." },
  ],
};
