/**
 * `kubectl uncordon`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const uncordonSpec: CommandSpec = {
  name: "uncordon",
  short: "Mark node as schedulable",
  long: `Mark node as schedulable.`,
  example: `  # Mark node "foo" as schedulable
  kubectl uncordon foo`,
  usage: "kubectl uncordon NODE [options]",
  flags: [
    F.dryRun,
    F.selector,
  ],
};
