/**
 * `--dry-run` (k8s.io/kubectl pkg/cmd/util/helpers.go GetDryRunStrategy): `none`, `client`,
 * `server`; the deprecated boolean forms still work but print a klog warning.
 */
import type { FlagValues } from './flags.js';
import { KubectlError } from './errors.js';
import { klogLine } from '../../util/klog.js';
import { KUBECTL_PID } from './connection-errors.js';

export type DryRun = 'none' | 'client' | 'server';


export interface DryRunResult {
  mode: DryRun;
  /** klog warning text (without the klog header) for the deprecated spellings. */
  warning?: string;
}

export function parseDryRun(flags: FlagValues): DryRunResult {
  const v = typeof flags['dry-run'] === 'string' ? flags['dry-run'] : 'none';
  switch (v) {
    case 'client':
    case 'server':
    case 'none':
      return { mode: v };
    case 'unchanged':
      return { mode: 'client', warning: '--dry-run is deprecated and can be replaced with --dry-run=client.' };
    case 'true':
      return { mode: 'client', warning: '--dry-run=true is deprecated (boolean value) and can be replaced with --dry-run=client.' };
    case 'false':
      return { mode: 'none', warning: '--dry-run=false is deprecated (boolean value) and can be replaced with --dry-run=none.' };
    default:
      throw new KubectlError(`Invalid dry-run value (${v}). Must be "none", "server", or "client".`);
  }
}

/** ` (dry run)` / ` (server dry run)` after a success message. */
export function dryRunSuffix(mode: DryRun): string {
  return mode === 'client' ? ' (dry run)' : mode === 'server' ? ' (server dry run)' : '';
}

/**
 * A klog warning line as kubectl writes it to stderr (`W1202 10:07:50.666386   18604 helpers.go:719] …`),
 * stamped with the simulated clock and a fixed pid.
 */
export function klogWarning(now: number, text: string, where = 'helpers.go:719'): string {
  return `${klogLine('W', now, KUBECTL_PID, where, text)}\n`;
}
