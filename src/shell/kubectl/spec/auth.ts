/**
 * `kubectl auth`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';

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
        { name: "all-namespaces", short: "A", type: "bool", defValue: "false", usage: "If true, check the specified action in all namespaces." },
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
        { name: "allow-missing-template-keys", type: "bool", defValue: "true", usage: "If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats." },
        { name: "dry-run", type: "string", defValue: "'none'", noOptDefault: "unchanged", usage: "Must be \"none\", \"server\", or \"client\". If client strategy, only print the object that would be sent, without sending it. If server strategy, submit server-side request without persisting the resource." },
        { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "Filename, directory, or URL to files identifying the resource to reconcile." },
        { name: "kustomize", short: "k", type: "string", defValue: "''", usage: "Process the kustomization directory. This flag can't be used together with -f or -R." },
        { name: "output", short: "o", type: "string", defValue: "''", usage: "Output format. One of: (json, yaml, kyaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file)." },
        { name: "recursive", short: "R", type: "bool", defValue: "false", usage: "Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory." },
        { name: "remove-extra-permissions", type: "bool", defValue: "false", usage: "If true, removes extra permissions added to roles" },
        { name: "remove-extra-subjects", type: "bool", defValue: "false", usage: "If true, removes extra subjects added to rolebindings" },
        { name: "show-managed-fields", type: "bool", defValue: "false", usage: "If true, keep the managedFields when printing objects in JSON or YAML format." },
        { name: "template", type: "string", defValue: "''", usage: "Template string or path to template file to use when -o=go-template, -o=go-template-file. The template format is golang templates [http://golang.org/pkg/text/template/#pkg-overview]." },
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
        { name: "allow-missing-template-keys", type: "bool", defValue: "true", usage: "If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats." },
        { name: "output", short: "o", type: "string", defValue: "''", usage: "Output format. One of: (json, yaml, kyaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file)." },
        { name: "show-managed-fields", type: "bool", defValue: "false", usage: "If true, keep the managedFields when printing objects in JSON or YAML format." },
        { name: "template", type: "string", defValue: "''", usage: "Template string or path to template file to use when -o=go-template, -o=go-template-file. The template format is golang templates [http://golang.org/pkg/text/template/#pkg-overview]." },
      ],
    },
  ],
};
