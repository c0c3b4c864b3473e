/**
 * `kubectl cordon`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const cordonSpec: CommandSpec = {
  name: "cordon",
  short: "Mark node as unschedulable",
  long: `Mark node as unschedulable.`,
  example: `  # Mark node "foo" as unschedulable
  kubectl cordon foo`,
  usage: "kubectl cordon NODE [options]",
  flags: [
    F.dryRun,
    F.selector,
  ],
};
