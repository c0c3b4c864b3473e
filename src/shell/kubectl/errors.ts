/**
 * kubectl's error output, formatted once at the edge (k8s.io/kubectl pkg/cmd/util/helpers.go
 * checkErr / StandardErrorMessage; ../shared/reference/kubectl.md §8.1).
 */
import { BudgetExceeded } from '../budget.js';
import { ApiError, ConnectionRefusedError, UnableToConnectError } from '../../sim/api/errors.js';
import { discoveryErrorLines } from './connection-errors.js';
import { FlagError } from './flags.js';
import type { CommandResult } from '../types.js';

/** A client-side error: printed as `error: <message>` (plus an optional usage hint line). */
export class KubectlError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** An error whose text is printed verbatim (already formatted). */
export class RawError extends Error {}

export function formatApiError(e: ApiError): string {
  if (e.reason === 'Invalid' && e.details) {
    const causes = [...new Set(e.details.causes.map((c) => `${c.field}: ${c.body}`))];
    // helpers.go checkErr: fmt.Sprintf("The %s %q is invalid", details.Kind, details.Name), or
    // "The request is invalid" when the status names neither (a patch that does not decode)
    const head = e.details.kind || e.details.name ? `The ${e.details.kind} "${e.details.name}" is invalid` : 'The request is invalid';
    if (causes.length === 1) return `${head}: ${causes[0]}`;
    return `${head}: \n${causes.map((c) => `* ${c}`).join('\n')}`;
  }
  // helpers.go StandardErrorMessage: a 401 is the client's problem, not the server's
  if (e.reason === 'Unauthorized') return `error: You must be logged in to the server (${e.message})`;
  // StandardErrorMessage: a Status without a reason prints no parenthesis
  if (e.reason === '') return `Error from server: ${e.message}`;
  return `Error from server (${e.reason}): ${e.message}`;
}

/** Turn anything a verb throws into kubectl's stderr text and exit status 1. */
export function errorResult(e: unknown, verbPath: string, stdout = ''): CommandResult {
  // the shell line's budget ran out (a wait past its simulated time, Ctrl-C): the line ends
  if (e instanceof BudgetExceeded) throw e;
  let text: string;
  if (e instanceof ApiError) text = formatApiError(e);
  else if (e instanceof ConnectionRefusedError || e instanceof UnableToConnectError) text = discoveryErrorLines(e.dial, verbPath) + e.message;
  else if (e instanceof FlagError) text = `error: ${e.message}\nSee '${['kubectl', verbPath].filter(Boolean).join(' ')} --help' for usage.`;
  else if (e instanceof KubectlError) {
    text = `error: ${e.message}${e.hint ? `\n${e.hint}` : ''}`;
    // a Go template that failed while running printed kubectl's debugging block to stdout first
    const printed = (e as { stdout?: unknown }).stdout;
    if (typeof printed === 'string') stdout += printed;
  }
  else if (e instanceof RawError) text = e.message;
  else text = `error: ${e instanceof Error ? e.message : String(e)}`;
  return { stdout, stderr: `${text}\n`, exitCode: 1 };
}

export function seeHelp(verbPath: string): string {
  return `See 'kubectl ${verbPath} -h' for help and examples`;
}
