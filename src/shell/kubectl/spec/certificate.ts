/**
 * `kubectl certificate`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';

export const certificateSpec: CommandSpec = {
  name: "certificate",
  short: "Modify certificate resources",
  long: `Modify certificate resources.`,
  usage: "kubectl certificate SUBCOMMAND [options]",
  bare: { stream: "stdout", exitCode: 0 },
  commands: [
    {
      name: "approve",
      short: "Approve a certificate signing request",
      long: `Approve a certificate signing request.

 kubectl certificate approve allows a cluster admin to approve a certificate signing request (CSR). This action tells a certificate signing controller to issue a certificate to the requester with the attributes requested in the CSR.

 SECURITY NOTICE: Depending on the requested attributes, the issued certificate can potentially grant a requester access to cluster resources or to authenticate as a requested identity. Before approving a CSR, ensure you understand what the signed certificate can do.`,
      example: `  # Approve CSR 'csr-sqgzp'
  kubectl certificate approve csr-sqgzp`,
      usage: "kubectl certificate approve (-f FILENAME | NAME) [options]",
      flags: [
        { name: "allow-missing-template-keys", type: "bool", defValue: "true", usage: "If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats." },
        { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "Filename, directory, or URL to files identifying the resource to update" },
        { name: "force", type: "bool", defValue: "false", usage: "Update the CSR even if it is already approved." },
        { name: "kustomize", short: "k", type: "string", defValue: "''", usage: "Process the kustomization directory. This flag can't be used together with -f or -R." },
        { name: "output", short: "o", type: "string", defValue: "''", usage: "Output format. One of: (json, yaml, kyaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file)." },
        { name: "recursive", short: "R", type: "bool", defValue: "false", usage: "Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory." },
        { name: "show-managed-fields", type: "bool", defValue: "false", usage: "If true, keep the managedFields when printing objects in JSON or YAML format." },
        { name: "template", type: "string", defValue: "''", usage: "Template string or path to template file to use when -o=go-template, -o=go-template-file. The template format is golang templates [http://golang.org/pkg/text/template/#pkg-overview]." },
      ],
    },
    {
      name: "deny",
      short: "Deny a certificate signing request",
      long: `Deny a certificate signing request.

 kubectl certificate deny allows a cluster admin to deny a certificate signing request (CSR). This action tells a certificate signing controller to not to issue a certificate to the requester.`,
      example: `  # Deny CSR 'csr-sqgzp'
  kubectl certificate deny csr-sqgzp`,
      usage: "kubectl certificate deny (-f FILENAME | NAME) [options]",
      flags: [
        { name: "allow-missing-template-keys", type: "bool", defValue: "true", usage: "If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats." },
        { name: "filename", short: "f", type: "stringSlice", defValue: "[]", usage: "Filename, directory, or URL to files identifying the resource to update" },
        { name: "force", type: "bool", defValue: "false", usage: "Update the CSR even if it is already denied." },
        { name: "kustomize", short: "k", type: "string", defValue: "''", usage: "Process the kustomization directory. This flag can't be used together with -f or -R." },
        { name: "output", short: "o", type: "string", defValue: "''", usage: "Output format. One of: (json, yaml, kyaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file)." },
        { name: "recursive", short: "R", type: "bool", defValue: "false", usage: "Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory." },
        { name: "show-managed-fields", type: "bool", defValue: "false", usage: "If true, keep the managedFields when printing objects in JSON or YAML format." },
        { name: "template", type: "string", defValue: "''", usage: "Template string or path to template file to use when -o=go-template, -o=go-template-file. The template format is golang templates [http://golang.org/pkg/text/template/#pkg-overview]." },
      ],
    },
  ],
};
