/**
 * The check kinds, in the order the docs list them. Adding a kind: write checks/<kind>.ts with
 * defineCheck and list it here; the scenario schema and the JSON Schema pick it up.
 */
import { resourceCheck } from './resource.js';
import { endpointsCheck } from './endpoints.js';
import { httpCheck } from './http.js';
import { dnsCheck } from './dns.js';
import { fileCheck } from './file.js';
import { nodeCheck } from './node.js';
import { commandCheck } from './command.js';
import { answerCheck } from './answer.js';

export const CHECK_KINDS = [resourceCheck, endpointsCheck, httpCheck, dnsCheck, fileCheck, nodeCheck, commandCheck, answerCheck] as const;

export type AnyCheckKind = (typeof CHECK_KINDS)[number];

export function checkKind(kind: string): AnyCheckKind | undefined {
  return CHECK_KINDS.find((k) => k.kind === kind);
}
