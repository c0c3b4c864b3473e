/**
 * `kubectl alpha`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const alphaSpec: CommandSpec = {
  name: "alpha",
  short: "Commands for features in alpha",
  long: `These commands correspond to alpha features that are not enabled in Kubernetes clusters by default.`,
  bare: { stream: "stdout", exitCode: 0 },
  commands: [
    {
      name: "kuberc",
      short: "Manage kuberc configuration files",
      long: `Manage user preferences (kuberc) file.

 The kuberc file allows you to customize your kubectl experience.`,
      example: `  # View the current kuberc configuration
  kubectl alpha kuberc view
  
  # Set a default value for a command flag
  kubectl alpha kuberc set --section defaults --command get --option output=wide
  
  # Create an alias for a command
  kubectl alpha kuberc set --section aliases --name getn --command get --prependarg nodes --option output=wide`,
      usage: "kubectl alpha kuberc SUBCOMMAND [options]",
      bare: { stream: "stderr", exitCode: 1 },
      commands: [
        {
          name: "set",
          short: "Set values in the kuberc configuration",
          long: `Set values in the kuberc configuration file.

 Use --section to specify whether to set defaults or aliases.

 For defaults: Sets default flag values for kubectl commands. The --command flag should specify only the command (e.g., "get", "create", "set env"), not resources.

 For aliases: Creates command aliases with optional default flag values and arguments. Use --prependarg and --appendarg to include resources or other arguments.`,
          example: `  # Set default output format for 'get' command
  kubectl alpha kuberc set --section defaults --command get --option output=wide
  
  # Set default output format for a subcommand
  kubectl alpha kuberc set --section defaults --command "set env" --option output=yaml
  
  # Create an alias 'getn' for 'get' command with prepended 'nodes' resource
  kubectl alpha kuberc set --section aliases --name getn --command get --prependarg nodes --option output=wide
  
  # Create an alias 'runx' for 'run' command with appended arguments
  kubectl alpha kuberc set --section aliases --name runx --command run --option image=nginx --appendarg "--" --appendarg custom-arg1
  
  # Overwrite an existing default
  kubectl alpha kuberc set --section defaults --command get --option output=json --overwrite`,
          usage: "kubectl alpha kuberc set --section (defaults|aliases) --command COMMAND [options]",
          flags: [
            { name: "appendarg", type: "stringSlice", defValue: "[]", usage: "Argument to append to the command (can be specified multiple times, for aliases only)" },
            { name: "command", type: "string", defValue: "''", usage: "Command to configure (e.g., 'get', 'create', 'set env')" },
            { name: "kuberc", type: "string", defValue: "''", usage: "Path to the kuberc file to use for preferences. This can be disabled by exporting KUBECTL_KUBERC=false feature gate or turning off the feature KUBERC=off." },
            { name: "name", type: "string", defValue: "''", usage: "Alias name (required for --section=aliases)" },
            { name: "option", type: "stringSlice", defValue: "[]", usage: "Flag option in the form flag=value (can be specified multiple times)" },
            { name: "overwrite", type: "bool", defValue: "false", usage: "Allow overwriting existing entries" },
            { name: "prependarg", type: "stringSlice", defValue: "[]", usage: "Argument to prepend to the command (can be specified multiple times, for aliases only)" },
            { name: "section", type: "string", defValue: "''", usage: "Section to modify: 'defaults' or 'aliases'" },
          ],
        },
        {
          name: "view",
          short: "Display the current kuberc configuration",
          long: `Display the contents of the kuberc file in the specified output format.`,
          example: `  # View kuberc configuration in YAML format (default)
  kubectl alpha kuberc view
  
  # View kuberc configuration in JSON format
  kubectl alpha kuberc view --output json
  
  # View a specific kuberc file
  kubectl alpha kuberc view --kuberc /path/to/kuberc`,
          usage: "kubectl alpha kuberc view [options]",
          flags: [
            F.allowMissingTemplateKeys,
            { name: "kuberc", type: "string", defValue: "''", usage: "Path to the kuberc file to use for preferences. This can be disabled by exporting KUBECTL_KUBERC=false feature gate or turning off the feature KUBERC=off." },
            { name: "output", short: "o", type: "string", defValue: "'yaml'", usage: "Output format. One of: (json, yaml, kyaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file)." },
            F.showManagedFields,
            F.template,
          ],
        },
      ],
    },
  ],
};
