/**
 * `kubectl kustomize`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';

export const kustomizeSpec: CommandSpec = {
  name: "kustomize",
  short: "Build a kustomization target from a directory or URL",
  long: `Build a set of KRM resources using a 'kustomization.yaml' file. The DIR argument must be a path to a directory containing 'kustomization.yaml', or a git repository URL with a path suffix specifying same with respect to the repository root. If DIR is omitted, '.' is assumed.`,
  example: `  # Build the current working directory
  kubectl kustomize
  
  # Build some shared configuration directory
  kubectl kustomize /home/config/production
  
  # Build from github
  kubectl kustomize https://github.com/kubernetes-sigs/kustomize.git/examples/helloWorld?ref=v1.0.6`,
  usage: "kubectl kustomize DIR [flags] [options]",
  flags: [
    { name: "as-current-user", type: "bool", defValue: "false", usage: "use the uid and gid of the command executor to run the function in the container" },
    { name: "enable-alpha-plugins", type: "bool", defValue: "false", usage: "enable kustomize plugins" },
    { name: "enable-helm", type: "bool", defValue: "false", usage: "Enable use of the Helm chart inflator generator." },
    { name: "env", short: "e", type: "stringArray", defValue: "[]", usage: "a list of environment variables to be used by functions" },
    { name: "helm-api-versions", type: "stringSlice", defValue: "[]", usage: "Kubernetes api versions used by Helm for Capabilities.APIVersions" },
    { name: "helm-command", type: "string", defValue: "'helm'", usage: "helm command (path to executable)" },
    { name: "helm-debug", type: "bool", defValue: "false", usage: "Enable debug output from the Helm chart inflator generator." },
    { name: "helm-kube-version", type: "string", defValue: "''", usage: "Kubernetes version used by Helm for Capabilities.KubeVersion" },
    { name: "load-restrictor", type: "string", defValue: "'LoadRestrictionsRootOnly'", usage: "if set to 'LoadRestrictionsNone', local kustomizations may load files from outside their root. This does, however, break the relocatability of the kustomization." },
    { name: "mount", type: "stringSlice", defValue: "[]", usage: "a list of storage options read from the filesystem" },
    { name: "network", type: "bool", defValue: "false", usage: "enable network access for functions that declare it" },
    { name: "network-name", type: "string", defValue: "'bridge'", usage: "the docker network to run the container in" },
    { name: "output", short: "o", type: "string", defValue: "''", usage: "If specified, write output to this path." },
  ],
};
