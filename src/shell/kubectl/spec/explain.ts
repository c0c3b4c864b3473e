/**
 * `kubectl explain`: the command's declaration (flags, usage, help text).
 * Recorded from kubectl v1.35.2 by scripts/record-help.mjs: edit there, or by hand and re-check with
 * the help goldens (spec/help.test.ts).
 */
import type { CommandSpec } from './types.js';

export const explainSpec: CommandSpec = {
  name: "explain",
  short: "Get documentation for a resource",
  long: `Describe fields and structure of various resources.

 This command describes the fields associated with each supported API resource. Fields are identified via a simple JSONPath identifier:

        <type>.<fieldName>[.<fieldName>]
        
 Information about each field is retrieved from the server in OpenAPI format.

Use "kubectl api-resources" for a complete list of supported resources.`,
  example: `  # Get the documentation of the resource and its fields
  kubectl explain pods
  
  # Get all the fields in the resource
  kubectl explain pods --recursive
  
  # Get the explanation for deployment in supported api versions
  kubectl explain deployments --api-version=apps/v1
  
  # Get the documentation of a specific field of a resource
  kubectl explain pods.spec.containers
  
  # Get the documentation of resources in different format
  kubectl explain deployment --output=plaintext-openapiv2`,
  usage: "kubectl explain TYPE [--recursive=FALSE|TRUE] [--api-version=api-version-group] [-o|--output=plaintext|plaintext-openapiv2] [options]",
  flags: [
    { name: "api-version", type: "string", defValue: "''", usage: "Get different explanations for particular API version (API group/version)" },
    { name: "output", short: "o", type: "string", defValue: "'plaintext'", usage: "Format in which to render the schema (plaintext, plaintext-openapiv2)" },
    { name: "recursive", type: "bool", defValue: "false", usage: "Print the fields of fields (Currently only 1 level deep)" },
  ],
};
