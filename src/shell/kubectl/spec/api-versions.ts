/**
 * `kubectl api-versions`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';

export const apiVersionsSpec: CommandSpec = {
  name: "api-versions",
  short: "Print the supported API versions on the server, in the form of \"group/version\"",
  long: `Print the supported API versions on the server, in the form of "group/version".`,
  example: `  # Print the supported API versions
  kubectl api-versions`,
  usage: "kubectl api-versions [options]",
};
