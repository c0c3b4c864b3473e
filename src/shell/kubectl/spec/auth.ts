/**
 * `kubectl auth`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

export const authSpec: CommandSpec = {
  name: "auth",
  short: "Inspect authorization",
  long: `Inspect authorization.`,
  usage: "kubectl auth [flags] [options]",
  bare: { stream: "stderr", exitCode: 1 },
  commands: [
    {
      name: "can-i",
      short: "Check whether an action is allowed",
      long: `Check whether an action is allowed.

 VERB is a logical Kubernetes API verb like 'get', 'list', 'watch', 'delete', etc. TYPE is a Kubernetes resource. Shortcuts and groups will be resolved. NONRESOURCEURL is a partial URL that starts with "/". NAME is the name of a particular Kubernetes resource. This command pairs nicely with impersonation. See --as global flag.`,
      example: `  # Check to see if I can create pods in any namespace
  kubectl auth can-i create pods --all-namespaces
  
  # Check to see if I can list deployments in my current namespace
  kubectl auth can-i list deployments.apps
  
  # Check to see if service account "foo" of namespace "dev" can list pods in the namespace "prod"
  # You must be allowed to use impersonation for the global option "--as"
  kubectl auth can-i list pods --as=system:serviceaccount:dev:foo -n prod
  
  # Check to see if I can do everything in my current namespace ("*" means all)
  kubectl auth can-i '*' '*'
  
  # Check to see if I can get the job named "bar" in namespace "foo"
  kubectl auth can-i list jobs.batch/bar -n foo
  
  # Check to see if I can read pod logs
  kubectl auth can-i get pods --subresource=log
  
  # Check to see if I can access the URL /logs/
  kubectl auth can-i get /logs/
  
  # Check to see if I can approve certificates.k8s.io
  kubectl auth can-i approve certificates.k8s.io
  
  # List all allowed actions in namespace "foo"
  kubectl auth can-i --list --namespace=foo`,
      usage: "kubectl auth can-i VERB [TYPE | TYPE/NAME | NONRESOURCEURL] [options]",
      flags: [
        F.allNamespaces2,
        { name: "list", type: "bool", defValue: "false", usage: "If true, prints all allowed actions." },
        { name: "no-headers", type: "bool", defValue: "false", usage: "If true, prints allowed actions without headers" },
        { name: "quiet", short: "q", type: "bool", defValue: "false", usage: "If true, suppress output and just return the exit code." },
        { name: "subresource", type: "string", defValue: "''", usage: "SubResource such as pod/log or deployment/scale" },
      ],
    },
    {
      name: "reconcile",
      short: "Reconciles rules for RBAC role, role binding, cluster role, and cluster role binding objects",
      long: `Reconciles rules for RBAC role, role binding, cluster role, and cluster role binding objects.

 Missing objects are created, and the containing namespace is created for namespaced objects, if required.

 Existing roles are updated to include the permissions in the input objects, and remove extra permissions if --remove-extra-permissions is specified.

 Existing bindings are updated to include the subjects in the input objects, and remove extra subjects if --remove-extra-subjects is specified.

 This is preferred to 'apply' for RBAC resources so that semantically-aware merging of rules and subjects is done.`,
      example: `  # Reconcile RBAC resources from a file
  kubectl auth reconcile -f my-rbac-rules.yaml`,
      usage: "kubectl auth reconcile -f FILENAME [options]",
      flags: [
        F.allowMissingTemplateKeys,
        F.dryRun,
        { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "Filename, directory, or URL to files identifying the resource to reconcile." },
        F.kustomize,
        F.output,
        F.recursive,
        { name: "remove-extra-permissions", type: "bool", defValue: "false", usage: "If true, removes extra permissions added to roles" },
        { name: "remove-extra-subjects", type: "bool", defValue: "false", usage: "If true, removes extra subjects added to rolebindings" },
        F.showManagedFields,
        F.template,
      ],
    },
    {
      name: "whoami",
      short: "Experimental: Check self subject attributes",
      long: `Experimental: Check who you are and your attributes (groups, extra).

        This command is helpful to get yourself aware of the current user attributes,
        especially when dynamic authentication, e.g., token webhook, auth proxy, or OIDC provider,
        is enabled in the Kubernetes cluster.`,
      example: `  # Get your subject attributes
  kubectl auth whoami
  
  # Get your subject attributes in JSON format
  kubectl auth whoami -o json`,
      usage: "kubectl auth whoami [options]",
      flags: [
        F.allowMissingTemplateKeys,
        F.output,
        F.showManagedFields,
        F.template,
      ],
    },
  ],
};
