/**
 * `helm rollback NAME [REVISION]` (helm v4.1.4 pkg/cmd/rollback.go, pkg/action/rollback.go):
 *  1. prepareRollback: the target revision (the one before the last by default) must exist; a
 *     new revision is written as `pending-rollback` ("Rollback to N") with the target's chart,
 *     values, manifest and hooks, applied server-side as --server-side (auto: as the target was);
 *  2. performRollback: pre-rollback hooks; the objects updated from the last revision's manifest
 *     to the target's (a refusal: the last revision superseded, the new one failed with
 *     `Rollback "NAME" failed: ERR`); the wait as --wait says (a timeout: failed with
 *     `Release "NAME" failed: ERR`, the error `release NAME failed: ERR`); post-rollback hooks;
 *     every deployed revision superseded, the new one deployed.
 * Errors print as they are (no prefix); a hook failure leaves the new revision pending-rollback.
 */
import type { ApiServer } from '../../sim/apiserver.js';
import { type HelmArgs, bool, flag } from './args.js';
import { applyManifest, type HelmEnv, namespaceOf, releaseObjects, requireApi } from './env.js';
import { execHook } from './hook-exec.js';
import { isDryRun, opOptions } from './options.js';
import { createRecord, history, userLabels, type Release, supersedeDeployed, updateRecord, validReleaseName } from './release.js';
import { HelmError } from './repo.js';
import { type WaitStrategy, waiter } from './waiter.js';

export interface RollbackOptions {
  strategy: WaitStrategy;
  timeoutMs: number;
  waitForJobs: boolean;
  noHooks: boolean;
  /** --server-side: true, false or auto. */
  serverSide: string;
}

/** getUpgradeServerSideValue: auto follows the given release's apply method. */
export function serverSideValue(option: string, applyMethod: Release['apply_method']): boolean {
  if (option === 'auto') return applyMethod === 'ssa';
  if (option === 'true' || option === 'false') return option === 'true';
  throw new HelmError(`invalid/unknown release server-side apply method: ${option}`);
}

/** Rollback.Run to `version` (0: the previous revision). */
export async function runRollback(env: HelmEnv, api: ApiServer, name: string, ns: string, version: number, o: RollbackOptions): Promise<void> {
  if (!validReleaseName(name)) throw new HelmError(`prepareRollback: Release name is invalid: ${name}`);
  if (version < 0) throw new HelmError('invalid release revision');
  const all = history(api, ns, name);
  const cur = all.at(-1);
  if (!cur) throw new HelmError('release: not found');
  const want = version === 0 ? cur.version - 1 : version;
  const prev = all.find((r) => r.version === want);
  if (!prev) throw new HelmError(`release has no ${want} version`);
  const ssa = serverSideValue(o.serverSide, prev.apply_method);
  const target: Release = {
    ...structuredClone(prev),
    version: cur.version + 1,
    info: { first_deployed: cur.info.first_deployed, last_deployed: new Date(env.now()).toISOString(), deleted: '', status: 'pending-rollback', description: `Rollback to ${want}`, ...(prev.info.notes ? { notes: prev.info.notes } : {}) },
    apply_method: ssa ? 'ssa' : 'csa',
    // the previous revision as Releases.Get returns it: its labels without the system ones
    labels: userLabels(prev.labels),
  };
  createRecord(api, target, env.now());
  const hookOpts = { strategy: o.strategy, timeoutMs: o.timeoutMs, ssa };
  if (!o.noHooks) {
    const err = await execHook(env, api, target, 'pre-rollback', hookOpts);
    if (err) throw new HelmError(err);
  }
  try {
    applyManifest(api, target.manifest, cur.manifest, ns, name);
  } catch (e) {
    const msg = (e as Error).message;
    updateRecord(api, { ...cur, info: { ...cur.info, status: 'superseded' } }, env.now());
    target.info = { ...target.info, status: 'failed', description: `Rollback "${name}" failed: ${msg}` };
    updateRecord(api, target, env.now());
    throw new HelmError(msg);
  }
  const waitErr = await waiter(env, api, o.strategy).wait(releaseObjects(api, target.manifest, ns, name), o.timeoutMs, o.waitForJobs);
  if (waitErr) {
    target.info = { ...target.info, status: 'failed', description: `Release "${name}" failed: ${waitErr}` };
    updateRecord(api, target, env.now());
    throw new HelmError(`release ${name} failed: ${waitErr}`);
  }
  if (!o.noHooks) {
    const err = await execHook(env, api, target, 'post-rollback', hookOpts);
    if (err) throw new HelmError(err);
  }
  supersedeDeployed(api, ns, name, env.now());
  target.info = { ...target.info, status: 'deployed' };
  updateRecord(api, target, env.now());
}

export async function rollback(env: HelmEnv, a: HelmArgs): Promise<string> {
  const [name, revArg] = a.args;
  if (!name) throw new HelmError(`"helm rollback" requires at least 1 argument\n\nUsage:  helm rollback <RELEASE> [REVISION] [flags]`);
  let version = 0;
  if (revArg !== undefined) {
    if (!/^[+-]?\d+$/.test(revArg)) throw new HelmError(`could not convert revision to a number: strconv.Atoi: parsing ${JSON.stringify(revArg)}: invalid syntax`);
    version = Number(revArg);
  }
  const op = opOptions(a);
  const api = requireApi(env);
  if (!isDryRun(a)) await runRollback(env, api, name, namespaceOf(a), version, { strategy: op.strategy, timeoutMs: op.timeoutMs, waitForJobs: bool(a, 'wait-for-jobs'), noHooks: op.noHooks, serverSide: flag(a, 'server-side') ?? 'auto' });
  return 'Rollback was a success! Happy Helming!\n';
}
