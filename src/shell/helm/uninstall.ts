/**
 * `helm uninstall NAME…` (helm v4.1.4 pkg/cmd/uninstall.go, pkg/action/uninstall.go Run):
 *  1. the name is checked, the release's history loaded (`uninstall: Release not loaded: NAME:
 *     release: not found`, or nothing with --ignore-not-found); a release already uninstalled
 *     with kept history is purged (or refused with --keep-history);
 *  2. the last revision becomes `uninstalling` ("Deletion in progress (or silently failed)");
 *     its pre-delete hooks run (a failure ends the command with the hook's error);
 *  3. its objects are deleted (not its CRDs; `helm.sh/resource-policy: keep` ones are listed as
 *     kept) and waited for as --wait says; the post-delete hooks run;
 *  4. the records are deleted, or with --keep-history the revision is kept `uninstalled`
 *     ("Uninstallation complete" or --description) and deployed ones superseded; errors of
 *     steps 3–4 end as `uninstallation completed with N error(s): E1; E2`.
 * Several names are uninstalled in turn; the first error stops there.
 */
import type { ApiServer } from '../../sim/apiserver.js';
import { type HelmArgs, bool, flag } from './args.js';
import { deleteManifest, type HelmEnv, namespaceOf, requireApi } from './env.js';
import { execHook } from './hook-exec.js';
import { isDryRun, opOptions } from './options.js';
import { deleteRecord, history, supersedeDeployed, updateRecord, validReleaseName } from './release.js';
import { HelmError, withStdout } from './repo.js';
import { type WaitStrategy, waiter } from './waiter.js';

export interface UninstallOptions {
  noHooks: boolean;
  keepHistory: boolean;
  ignoreNotFound?: boolean;
  timeoutMs: number;
  strategy: WaitStrategy;
  description?: string;
}

/** Uninstall.Run; what the command prints about kept resources (empty when none). */
export async function runUninstall(env: HelmEnv, api: ApiServer, name: string, ns: string, o: UninstallOptions): Promise<string> {
  if (!validReleaseName(name)) throw new HelmError(`uninstall: Release name is invalid: ${name}`);
  const all = history(api, ns, name);
  const rel = all.at(-1);
  if (!rel) {
    if (o.ignoreNotFound) return '';
    throw new HelmError(`uninstall: Release not loaded: ${name}: release: not found`);
  }
  if (rel.info.status === 'uninstalled') {
    if (o.keepHistory) throw new HelmError(`the release named "${name}" is already deleted`);
    for (const r of all) deleteRecord(api, r);
    return '';
  }
  rel.info = { ...rel.info, status: 'uninstalling', deleted: new Date(env.now()).toISOString(), description: 'Deletion in progress (or silently failed)' };
  const hookOpts = { strategy: o.strategy, timeoutMs: o.timeoutMs, ssa: true };
  if (!o.noHooks) {
    const err = await execHook(env, api, rel, 'pre-delete', hookOpts);
    if (err) throw new HelmError(err);
  }
  updateRecord(api, rel, env.now());
  const { deleted, kept } = deleteManifest(api, rel.manifest, ns, name);
  const errs: string[] = [];
  const waitErr = await waiter(env, api, o.strategy).waitForDelete(deleted, o.timeoutMs);
  if (waitErr) errs.push(waitErr);
  if (!o.noHooks) {
    const err = await execHook(env, api, rel, 'post-delete', hookOpts);
    if (err) errs.push(err);
  }
  rel.info = { ...rel.info, status: 'uninstalled', description: o.description ?? 'Uninstallation complete' };
  if (!o.keepHistory) {
    for (const r of all) deleteRecord(api, r);
  } else {
    updateRecord(api, rel, env.now());
    supersedeDeployed(api, ns, name, env.now());
  }
  if (errs.length > 0) throw new HelmError(`uninstallation completed with ${errs.length} error(s): ${errs.join('; ')}`);
  return kept ? `These resources were kept due to the resource policy:\n${kept}` : '';
}

export async function uninstall(env: HelmEnv, a: HelmArgs): Promise<string> {
  if (a.args.length === 0) throw new HelmError(`"helm uninstall" requires at least 1 argument\n\nUsage:  helm uninstall RELEASE_NAME [...] [flags]`);
  const cascade = flag(a, 'cascade') ?? 'background';
  if (!['background', 'foreground', 'orphan'].includes(cascade)) throw new HelmError(`invalid cascade value (${cascade}). Must be "background", "foreground", or "orphan"`);
  const op = opOptions(a);
  const api = requireApi(env);
  const ns = namespaceOf(a);
  const dryRun = isDryRun(a);
  const o: UninstallOptions = { noHooks: op.noHooks, keepHistory: bool(a, 'keep-history'), ignoreNotFound: bool(a, 'ignore-not-found'), timeoutMs: op.timeoutMs, strategy: op.strategy, ...(op.description ? { description: op.description } : {}) };
  let out = '';
  for (const name of a.args) {
    try {
      if (dryRun) {
        if (!history(api, ns, name).at(-1) && !o.ignoreNotFound) throw new HelmError('release: not found');
      } else {
        const info = await runUninstall(env, api, name, ns, o);
        if (info) out += `${info}\n`;
      }
    } catch (e) {
      throw e instanceof Error ? withStdout(e, out) : e;
    }
    out += `release "${name}" uninstalled\n`;
  }
  return out;
}
