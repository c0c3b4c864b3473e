/**
 * `kubectl plugin`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';

export const pluginSpec: CommandSpec = {
  name: "plugin",
  short: "Provides utilities for interacting with plugins",
  long: `Provides utilities for interacting with plugins.

 Plugins provide extended functionality that is not part of the major command-line distribution. Please refer to the documentation and examples for more information about how write your own plugins.

 The easiest way to discover and install plugins is via the kubernetes sub-project krew: [krew.sigs.k8s.io]. To install krew, visit https://krew.sigs.k8s.io/docs/user-guide/setup/install`,
  example: `  # List all available plugins
  kubectl plugin list
  
  # List only binary names of available plugins without paths
  kubectl plugin list --name-only`,
  usage: "kubectl plugin [flags] [options]",
  bare: { stream: "stderr", exitCode: 1 },
  commands: [
    {
      name: "list",
      short: "List all visible plugin executables on a user's PATH",
      long: `List all available plugin files on a user's PATH. To see plugins binary names without the full path use --name-only flag.

 Available plugin files are those that are: - executable - anywhere on the user's PATH - begin with "kubectl-"`,
      example: `  # List all available plugins
  kubectl plugin list
  
  # List only binary names of available plugins without paths
  kubectl plugin list --name-only`,
      usage: "kubectl plugin list [flags] [options]",
      flags: [
        { name: "name-only", type: "bool", defValue: "false", usage: "If true, display only the binary name of each plugin, rather than its full path" },
      ],
    },
  ],
};
