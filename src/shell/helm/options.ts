/**
 * The options the release-changing commands share (helm v4.1.4 pkg/cmd/install.go,
 * upgrade.go, rollback.go, uninstall.go): `--timeout` (a Go duration, 5m0s by default, parsed
 * as pflag's DurationVar words its failure), `--wait[=watcher|legacy|hookOnly]` (args.ts; hookOnly
 * by default), `--wait-for-jobs`, `--rollback-on-failure` (and its deprecated name `--atomic`,
 * which turns a hookOnly wait into watcher: install.go/upgrade.go RunWithContext), `--no-hooks`,
 * `--description` and `--cleanup-on-fail`.
 */
import { parseGoDuration } from '../kubectl/duration.js';
import { type HelmArgs, bool, flag } from './args.js';
import { HelmError } from './repo.js';
import type { WaitStrategy } from './waiter.js';

const DEFAULT_TIMEOUT_MS = 300_000;

export interface OpOptions {
  strategy: WaitStrategy;
  timeoutMs: number;
  waitForJobs: boolean;
  rollbackOnFailure: boolean;
  noHooks: boolean;
  cleanupOnFail: boolean;
  description?: string;
}

/** `--timeout`: a Go duration; 0 leaves the waiter's own default. */
export function timeoutOf(a: HelmArgs): number {
  const v = flag(a, 'timeout');
  if (v === undefined) return DEFAULT_TIMEOUT_MS;
  try {
    return parseGoDuration(v);
  } catch (e) {
    throw new HelmError(`invalid argument "${v}" for "--timeout" flag: ${(e as Error).message}`);
  }
}

/** --dry-run given (client or server; `--dry-run` alone is client), not `false`/`none`. */
export function isDryRun(a: HelmArgs): boolean {
  const v = flag(a, 'dry-run');
  return v !== undefined && v !== 'false' && v !== 'none';
}

export function opOptions(a: HelmArgs): OpOptions {
  const rollbackOnFailure = bool(a, 'rollback-on-failure') || bool(a, 'atomic');
  let strategy = (flag(a, 'wait') ?? 'hookOnly') as WaitStrategy;
  if (strategy === 'hookOnly' && rollbackOnFailure) strategy = 'watcher';
  const description = flag(a, 'description');
  return {
    strategy,
    timeoutMs: timeoutOf(a),
    waitForJobs: bool(a, 'wait-for-jobs'),
    rollbackOnFailure,
    noHooks: bool(a, 'no-hooks'),
    cleanupOnFail: bool(a, 'cleanup-on-fail'),
    ...(description ? { description } : {}),
  };
}
