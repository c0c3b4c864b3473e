/**
 * `kubectl certificate`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';
import * as F from './flags.js';

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
        F.allowMissingTemplateKeys,
        F.filename2,
        { name: "force", type: "bool", defValue: "false", usage: "Update the CSR even if it is already approved." },
        F.kustomize,
        F.output,
        F.recursive,
        F.showManagedFields,
        F.template,
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
        F.allowMissingTemplateKeys,
        F.filename2,
        { name: "force", type: "bool", defValue: "false", usage: "Update the CSR even if it is already denied." },
        F.kustomize,
        F.output,
        F.recursive,
        F.showManagedFields,
        F.template,
      ],
    },
  ],
};
