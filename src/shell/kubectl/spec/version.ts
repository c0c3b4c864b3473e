/**
 * `kubectl version`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';

export const versionSpec: CommandSpec = {
  name: "version",
  short: "Print the client and server version information",
  long: `Print the client and server version information for the current context.`,
  example: `  # Print the client and server versions for the current context
  kubectl version`,
  usage: "kubectl version [flags] [options]",
  flags: [
    { name: "client", type: "bool", defValue: "false", usage: "If true, shows client version only (no server required)." },
    { name: "output", short: "o", type: "string", defValue: "''", usage: "One of 'yaml' or 'json'." },
  ],
};
