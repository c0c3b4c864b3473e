/**
 * `kubectl uncordon`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';

export const uncordonSpec: CommandSpec = {
  name: "uncordon",
  short: "Mark node as schedulable",
  long: `Mark node as schedulable.`,
  example: `  # Mark node "foo" as schedulable
  kubectl uncordon foo`,
  usage: "kubectl uncordon NODE [options]",
  flags: [
    { name: "dry-run", type: "string", defValue: "'none'", noOptDefault: "unchanged", usage: "Must be \"none\", \"server\", or \"client\". If client strategy, only print the object that would be sent, without sending it. If server strategy, submit server-side request without persisting the resource." },
    { name: "selector", short: "l", type: "string", defValue: "''", usage: "Selector (label query) to filter on, supports '=', '==', '!=', 'in', 'notin'.(e.g. -l key1=value1,key2=value2,key3 in (value3)). Matching objects must satisfy all of the specified label constraints." },
  ],
};
