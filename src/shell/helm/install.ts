/**
 * `helm install` and `helm upgrade [--install]` as helm v4.1.4 runs them (pkg/cmd/install.go,
 * upgrade.go; pkg/action/install.go RunWithContext/performInstall/failRelease, upgrade.go
 * prepareUpgrade/releasingUpgrade/failRelease):
 *  - install: locate the chart, merge values, check the name (`release name check failed: …`,
 *    logged at ERROR too), render, stop at a dry run; create the namespace (--create-namespace),
 *    the CRDs, and the release record `pending-install` ("Initial install underway"); then
 *    pre-install hooks (`failed pre-install: ERR`), the objects, the wait (--wait, --timeout,
 *    --wait-for-jobs), post-install hooks (`failed post-install: ERR`), `deployed`
 *    ("Install complete" or --description). A failure marks the release `failed` (`Release
 *    "NAME" failed: ERR`), or with --rollback-on-failure (--atomic) uninstalls it: `release NAME
 *    failed, and has been uninstalled due to rollback-on-failure being set: ERR`;
 *  - upgrade: the last revision must not be pending; the one upgraded from is the deployed one
 *    (or a failed/superseded last one when none is deployed); values as --reuse-values,
 *    --reset-values, --reset-then-reuse-values say, else the previous ones when none are given;
 *    the new revision is recorded `pending-upgrade`, then pre-upgrade hooks (`pre-upgrade hooks
 *    failed: ERR`), the update, the wait, post-upgrade hooks, the previous revision superseded.
 *    A failure logs `upgrade failed` at WARN, marks the revision failed (`Upgrade "NAME" failed:
 *    ERR`), deletes what it created with --cleanup-on-fail, and with --rollback-on-failure rolls
 *    back to the last deployed or superseded revision: `release NAME failed, and has been rolled
 *    back due to rollback-on-failure being set: ERR`;
 *  - `upgrade --install` of a release that does not exist (or was uninstalled) prints `Release
 *    "NAME" does not exist. Installing it now.` and installs, its errors unprefixed.
 * The summary is the status printer's (NOTES unless --hide-notes).
 */
import type { ApiServer } from '../../sim/apiserver.js';
import { type HelmArgs, bool, flag, flags, slogLine } from './args.js';
import { applyManifest, type HelmEnv, installCrds, namespaceOf, releaseObjects, renderChart, requireApi, userValues } from './env.js';
import { execHook } from './hook-exec.js';
import { hookRecord } from './hooks.js';
import { isDryRun, type OpOptions, opOptions } from './options.js';
import { chartRecord, createRecord, history, invalidReleaseName, plainConfig, type Release, updateRecord, validReleaseName } from './release.js';
import { HelmError, withStdout } from './repo.js';
import { runRollback, serverSideValue } from './rollback.js';
import { locateChart } from './source.js';
import { statusText } from './status-text.js';
import { runUninstall } from './uninstall.js';
import { checkExisting, mergeCustomLabels, nameAndChart, parseLabelsFlag, refuseSystemLabels } from './release-meta.js';
import { fromPlain } from '../gotemplate/sprig.js';
import { mergeValues, type Values } from './values.js';
import { waiter } from './waiter.js';
import { BudgetExceeded } from '../budget.js';

/** The status printer's text for the release (hideNotes with --hide-notes). */
const summary = (a: HelmArgs, rel: Release): string => statusText(rel, { hideNotes: bool(a, 'hide-notes') });

function render(env: HelmEnv, a: HelmArgs, name: string, ref: string, revision: number, user: Values, prev: Release | undefined): { rel: Release; chart: ReturnType<typeof locateChart>['chart'] } {
  const { chart } = locateChart(env.fs, env.cwd, env.home, ref, flag(a, 'version'));
  const ns = namespaceOf(a);
  const rendered = renderChart(env, chart, user, { name, namespace: ns, revision, isInstall: !prev, isUpgrade: !!prev }, bool(a, 'hide-secret'));
  const now = new Date(env.now()).toISOString();
  const rel: Release = {
    name,
    namespace: ns,
    version: revision,
    info: { first_deployed: prev?.info.first_deployed ?? now, last_deployed: now, deleted: '', description: prev ? 'Preparing upgrade' : 'Initial install underway', status: prev ? 'pending-upgrade' : 'pending-install', notes: rendered.notes },
    chart: chartRecord(chart),
    config: plainConfig(user),
    manifest: rendered.manifest,
    hooks: rendered.hooks.map(hookRecord).filter((h) => h !== undefined),
  };
  return { rel, chart };
}

/** Wait for the release's objects as the options say; the waiter's error. */
function waitFor(env: HelmEnv, api: ApiServer, rel: Release, o: OpOptions): Promise<string | undefined> {
  return waiter(env, api, o.strategy).wait(releaseObjects(api, rel.manifest, rel.namespace, rel.name), o.timeoutMs, o.waitForJobs);
}

/** performInstall; throws the error failRelease gets. */
async function performInstall(env: HelmEnv, api: ApiServer, rel: Release, o: OpOptions, ssa: boolean): Promise<void> {
  const hookOpts = { strategy: o.strategy, timeoutMs: o.timeoutMs, ssa };
  if (!o.noHooks) {
    const err = await execHook(env, api, rel, 'pre-install', hookOpts);
    if (err) throw new HelmError(`failed pre-install: ${err}`);
  }
  applyManifest(api, rel.manifest, undefined, rel.namespace, rel.name);
  const waitErr = await waitFor(env, api, rel, o);
  if (waitErr) throw new HelmError(waitErr);
  if (!o.noHooks) {
    const err = await execHook(env, api, rel, 'post-install', hookOpts);
    if (err) throw new HelmError(`failed post-install: ${err}`);
  }
  rel.info = { ...rel.info, status: 'deployed', description: o.description ?? 'Install complete' };
  updateRecord(api, rel, env.now());
}

/** `--dry-run` absent, `none`/`false`, or `server`: the install talks to the cluster (interactWithServer). */
const interactsWithServer = (a: HelmArgs): boolean => !isDryRun(a) || flag(a, 'dry-run') === 'server';

/**
 * Install.RunWithContext with runInstall's chart and values steps; `replace` is --replace. The
 * release name is NameAndChart's (release-meta.ts: --generate-name on the simulated clock).
 */
async function runInstall(env: HelmEnv, a: HelmArgs, o: OpOptions, replace: boolean): Promise<Release> {
  const labels = parseLabelsFlag(flags(a, 'labels'));
  const nameTemplate = flag(a, 'name-template');
  const { name, chart: ref } = nameAndChart(a.args, { generateName: bool(a, 'generate-name'), ...(nameTemplate ? { nameTemplate } : {}), now: env.now(), random: () => env.random() });
  const api = requireApi(env);
  const ns = namespaceOf(a);
  const user = userValues(env, a);
  const dry = isDryRun(a);
  const all = history(api, ns, name);
  // availableName
  const nameErr = !validReleaseName(name)
    ? invalidReleaseName(name)
    : !dry && all.length > 0 && !(replace && ['uninstalled', 'failed'].includes(all.at(-1)!.info.status))
      ? 'cannot reuse a name that is still in use'
      : undefined;
  const { rel, chart } = render(env, a, name, ref, (all.at(-1)?.version ?? 0) + 1, user, undefined);
  if (chart.metadata.type && chart.metadata.type !== 'application') throw new HelmError(`${chart.metadata.type} charts are not installable`);
  if (!dry && bool(a, 'hide-secret')) {
    env.log.push(slogLine('ERROR', 'hiding Kubernetes secrets requires a dry-run mode'));
    throw new HelmError('hiding Kubernetes secrets requires a dry-run mode');
  }
  if (nameErr) {
    env.log.push(slogLine('ERROR', 'release name check failed', [['error', nameErr]]));
    throw new HelmError(`release name check failed: ${nameErr}`);
  }
  refuseSystemLabels(labels);
  if (labels) rel.labels = labels;
  const ssa = flag(a, 'server-side') !== 'false';
  rel.apply_method = ssa ? 'ssa' : 'csa';
  // objects that exist already must be the release's, or adopted with --take-ownership (validate.go)
  if (interactsWithServer(a)) {
    try {
      checkExisting(api, releaseObjects(api, rel.manifest, ns, name), name, ns, bool(a, 'take-ownership'));
    } catch (e) {
      if (e instanceof HelmError && !e.message.startsWith('unable to build')) throw new HelmError(`unable to continue with install: ${e.message}`);
      throw e;
    }
  }
  if (dry) {
    rel.info.description = 'Dry run complete';
    return rel;
  }
  if (bool(a, 'create-namespace') && !api.tryGet('Namespace', undefined, ns)) api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { name: ns } } });
  if (!bool(a, 'skip-crds')) installCrds(api, chart);
  if (replace && all.length > 0) updateRecord(api, { ...all.at(-1)!, info: { ...all.at(-1)!.info, status: 'superseded', description: 'superseded by new release' } }, env.now());
  if (!api.tryGet('Namespace', undefined, ns)) throw new HelmError(`create: failed to create: namespaces "${ns}" not found`);
  createRecord(api, rel, env.now());
  try {
    await performInstall(env, api, rel, o, ssa);
  } catch (e) {
    if (!(e instanceof Error) || e instanceof BudgetExceeded) throw e;
    const err = e.message;
    rel.info = { ...rel.info, status: 'failed', description: `Release "${name}" failed: ${err}` };
    if (!o.rollbackOnFailure) {
      updateRecord(api, rel, env.now());
      throw new HelmError(err);
    }
    try {
      await runUninstall(env, api, name, ns, { noHooks: o.noHooks, keepHistory: false, timeoutMs: o.timeoutMs, strategy: o.strategy });
    } catch (ue) {
      throw new HelmError(`an error occurred while uninstalling the release. original install error: ${err}: ${(ue as Error).message}`);
    }
    throw new HelmError(`release ${name} failed, and has been uninstalled due to rollback-on-failure being set: ${err}`);
  }
  return rel;
}

export async function install(env: HelmEnv, a: HelmArgs): Promise<string> {
  if (a.args.length === 0) throw new HelmError(`"helm install" requires at least 1 argument\n\nUsage:  helm install [NAME] [CHART] [flags]`);
  // a bad --labels is pflag's refusal, before the command runs (no INSTALLATION FAILED prefix)
  parseLabelsFlag(flags(a, 'labels'));
  const o = opOptions(a);
  try {
    return summary(a, await runInstall(env, a, o, bool(a, 'replace')));
  } catch (e) {
    if (!(e instanceof Error) || e instanceof BudgetExceeded) throw e;
    throw withStdout(new HelmError(`INSTALLATION FAILED: ${e.message}`), (e as HelmError).stdout ?? '');
  }
}

/** Upgrade.reuseValues. */
function upgradeValues(a: HelmArgs, current: Release, user: Values): Values {
  const old = fromPlain(current.config ?? {}) as Values;
  if (bool(a, 'reset-values')) return user;
  if (bool(a, 'reuse-values') || bool(a, 'reset-then-reuse-values')) return mergeValues(old, user);
  return Object.keys(user).length === 0 && Object.keys(current.config ?? {}).length > 0 ? old : user;
}

/** Upgrade.failRelease; the error the command reports. */
async function failUpgrade(env: HelmEnv, api: ApiServer, a: HelmArgs, o: OpOptions, rel: Release, created: string[] | undefined, err: string): Promise<HelmError> {
  env.log.push(slogLine('WARN', 'upgrade failed', [['name', rel.name], ['error', err]]));
  rel.info = { ...rel.info, status: 'failed', description: `Upgrade "${rel.name}" failed: ${err}` };
  updateRecord(api, rel, env.now());
  if (o.cleanupOnFail && created && created.length > 0) {
    for (const k of created) {
      const [kind, ns, name] = k.split('/') as [string, string, string];
      if (api.tryGet(kind, ns || undefined, name)) api.delete(kind, ns || undefined, name);
    }
  }
  if (!o.rollbackOnFailure) return new HelmError(err);
  const good = history(api, rel.namespace, rel.name).filter((r) => r.info.status === 'superseded' || r.info.status === 'deployed');
  const to = good.at(-1);
  if (!to) return new HelmError(`unable to find a previously successful release when attempting to rollback. original upgrade error: ${err}`);
  try {
    await runRollback(env, api, rel.name, rel.namespace, to.version, { strategy: o.strategy, timeoutMs: o.timeoutMs, waitForJobs: o.waitForJobs, noHooks: o.noHooks, serverSide: flag(a, 'server-side') ?? 'auto' });
  } catch (re) {
    return new HelmError(`an error occurred while rolling back the release. original upgrade error: ${err}: ${(re as Error).message}`);
  }
  return new HelmError(`release ${rel.name} failed, and has been rolled back due to rollback-on-failure being set: ${err}`);
}

/** Upgrade.RunWithContext: prepareUpgrade, then releasingUpgrade. */
async function runUpgrade(env: HelmEnv, a: HelmArgs, o: OpOptions, name: string, ref: string): Promise<Release> {
  const api = requireApi(env);
  const ns = namespaceOf(a);
  if (!validReleaseName(name)) throw new HelmError(`release name is invalid: ${name}`);
  const labels = parseLabelsFlag(flags(a, 'labels'));
  if (!isDryRun(a) && bool(a, 'hide-secret')) throw new HelmError('hiding Kubernetes secrets requires a dry-run mode');
  const all = history(api, ns, name);
  const last = all.at(-1);
  if (!last) throw new HelmError(`"${name}" has no deployed releases`);
  if (last.info.status.startsWith('pending-')) throw new HelmError('another operation (install/upgrade/rollback) is in progress');
  const current = [...all].reverse().find((r) => r.info.status === 'deployed') ?? (['failed', 'superseded'].includes(last.info.status) ? last : undefined);
  if (!current) throw new HelmError(`"${name}" has no deployed releases`);
  const user = upgradeValues(a, current, userValues(env, a));
  const { rel } = render(env, a, name, ref, last.version + 1, user, current);
  refuseSystemLabels(labels);
  // the last revision's labels as Last reads them (every label of its Secret), then the new ones
  rel.labels = mergeCustomLabels(last.labels, labels);
  const ssa = serverSideValue(flag(a, 'server-side') ?? 'auto', last.apply_method);
  rel.apply_method = ssa ? 'ssa' : 'csa';
  // performUpgrade: objects new to this revision that exist must be the release's (or adopted)
  const keyOf = (x: { kind: string; apiVersion?: string; metadata: { namespace?: string; name: string } }): string => `${x.apiVersion}/${x.kind}/${x.metadata.namespace ?? ''}/${x.metadata.name}`;
  const had = new Set(releaseObjects(api, current.manifest, ns, name).map(keyOf));
  try {
    checkExisting(api, releaseObjects(api, rel.manifest, ns, name).filter((x) => !had.has(keyOf(x))), name, ns, bool(a, 'take-ownership'));
  } catch (e) {
    if (e instanceof HelmError && !e.message.startsWith('unable to build')) throw new HelmError(`unable to continue with update: ${e.message}`);
    throw e;
  }
  if (isDryRun(a)) {
    rel.info.description = o.description ?? 'Dry run complete';
    return rel;
  }
  createRecord(api, rel, env.now());
  const hookOpts = { strategy: o.strategy, timeoutMs: o.timeoutMs, ssa };
  if (!o.noHooks) {
    const err = await execHook(env, api, rel, 'pre-upgrade', hookOpts);
    if (err) throw await failUpgrade(env, api, a, o, rel, [], `pre-upgrade hooks failed: ${err}`);
  }
  const before = new Set(releaseObjects(api, current.manifest, ns, name).map((x) => `${x.kind}/${x.metadata.namespace ?? ''}/${x.metadata.name}`));
  const created = releaseObjects(api, rel.manifest, ns, name)
    .map((x) => `${x.kind}/${x.metadata.namespace ?? ''}/${x.metadata.name}`)
    .filter((k) => !before.has(k));
  try {
    applyManifest(api, rel.manifest, current.manifest, ns, name);
  } catch (e) {
    if (!(e instanceof Error) || e instanceof BudgetExceeded) throw e;
    throw await failUpgrade(env, api, a, o, rel, created, e.message);
  }
  const waitErr = await waitFor(env, api, rel, o);
  if (waitErr) throw await failUpgrade(env, api, a, o, rel, created, waitErr);
  if (!o.noHooks) {
    const err = await execHook(env, api, rel, 'post-upgrade', hookOpts);
    if (err) throw await failUpgrade(env, api, a, o, rel, created, `post-upgrade hooks failed: ${err}`);
  }
  updateRecord(api, { ...current, info: { ...current.info, status: 'superseded' } }, env.now());
  rel.info = { ...rel.info, status: 'deployed', description: o.description ?? 'Upgrade complete' };
  updateRecord(api, rel, env.now());
  return rel;
}

export async function upgrade(env: HelmEnv, a: HelmArgs): Promise<string> {
  const [name, ref] = a.args;
  if (a.args.length !== 2 || !name || !ref) throw new HelmError(`"helm upgrade" requires 2 arguments\n\nUsage:  helm upgrade [RELEASE] [CHART] [flags]`);
  parseLabelsFlag(flags(a, 'labels'));
  const o = opOptions(a);
  const api = requireApi(env);
  if (bool(a, 'install')) {
    const all = history(api, namespaceOf(a), name);
    if (all.length === 0 || all.at(-1)!.info.status === 'uninstalled') {
      const head = `Release "${name}" does not exist. Installing it now.\n`;
      try {
        return head + summary(a, await runInstall(env, a, o, all.length > 0));
      } catch (e) {
        throw e instanceof Error && !(e instanceof BudgetExceeded) ? withStdout(e, head) : e;
      }
    }
  }
  try {
    return `Release "${name}" has been upgraded. Happy Helming!\n${summary(a, await runUpgrade(env, a, o, name, ref))}`;
  } catch (e) {
    if (!(e instanceof Error) || e instanceof BudgetExceeded) throw e;
    throw new HelmError(`UPGRADE FAILED: ${e.message}`);
  }
}
