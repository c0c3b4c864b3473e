/**
 * `helm install` and `helm upgrade [--install]` (helm pkg/action/install.go, upgrade.go): locate
 * the chart, merge values (--reuse-values starts from the last release's), render, create the
 * CRDs then the objects through the API server, record the release Secret, mark the previous
 * revision superseded, and print the summary with the NOTES. --dry-run renders and prints only.
 */
import { type HelmArgs, bool, flag } from './args.js';
import { applyManifest, type HelmEnv, installCrds, namespaceOf, renderChart, requireApi, userValues } from './env.js';
import { chartRecord, createRecord, history, latest, plainConfig, type Release, updateRecord } from './release.js';
import { HelmError } from './repo.js';
import { locateChart } from './source.js';
import { statusText } from './status-text.js';
import { fromPlain } from '../gotemplate/sprig.js';
import { hookRecord } from './hooks.js';
import { mergeValues, type Values } from './values.js';

const NAME_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function checkNamespace(env: HelmEnv, a: HelmArgs, ns: string): void {
  const api = requireApi(env);
  if (api.tryGet('Namespace', undefined, ns)) return;
  if (bool(a, 'create-namespace')) api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  else throw new HelmError(`create: failed to create: namespaces "${ns}" not found`);
}

/**
 * helm v4 applies server-side by default (install --server-side=true); an upgrade's `auto` keeps
 * the previous release's method (pkg/action/upgrade.go getUpgradeServerSideValue).
 */
function applyMethod(a: HelmArgs, prev: Release | undefined): 'ssa' | 'csa' {
  const opt = flag(a, 'server-side') ?? (prev ? 'auto' : 'true');
  if (opt === 'auto') return prev?.apply_method === 'ssa' ? 'ssa' : 'csa';
  if (opt === 'true' || opt === 'false') return opt === 'true' ? 'ssa' : 'csa';
  throw new HelmError(`invalid/unknown release server-side apply method: ${opt}`);
}

function deploy(env: HelmEnv, a: HelmArgs, name: string, ref: string, prev: Release | undefined, user: Values): Release {
  const api = requireApi(env);
  const ns = namespaceOf(a);
  const dry = flag(a, 'dry-run') !== undefined && flag(a, 'dry-run') !== 'false' && flag(a, 'dry-run') !== 'none';
  const { chart } = locateChart(env.fs, env.cwd, env.home, ref, flag(a, 'version'));
  if (chart.metadata.type && chart.metadata.type !== 'application') throw new HelmError(`${chart.metadata.type} charts are not installable`);
  const revision = (history(api, ns, name).at(-1)?.version ?? 0) + 1;
  const rendered = renderChart(env, chart, user, { name, namespace: ns, revision, isInstall: !prev, isUpgrade: !!prev });
  const now = new Date(env.now()).toISOString();
  const rel: Release = {
    name,
    namespace: ns,
    version: revision,
    info: { first_deployed: prev?.info.first_deployed ?? now, last_deployed: now, deleted: '', description: dry ? 'Dry run complete' : prev ? 'Upgrade complete' : 'Install complete', status: dry ? (prev ? 'pending-upgrade' : 'pending-install') : 'deployed', notes: rendered.notes },
    chart: chartRecord(chart),
    config: plainConfig(user),
    manifest: rendered.manifest,
    hooks: rendered.hooks.map(hookRecord).filter((h) => h !== undefined),
    apply_method: applyMethod(a, prev),
  };
  if (dry) return rel;
  if (!prev) checkNamespace(env, a, ns);
  if (!bool(a, 'skip-crds')) installCrds(api, chart);
  applyManifest(api, rel.manifest, prev?.manifest, ns, name);
  if (prev && prev.info.status === 'deployed') updateRecord(api, { ...prev, info: { ...prev.info, status: 'superseded' } });
  createRecord(api, rel);
  return rel;
}

export function install(env: HelmEnv, a: HelmArgs): string {
  const [name, ref] = a.args;
  if (!name || !ref) throw new HelmError(`INSTALLATION FAILED: must either provide a name or specify --generate-name`);
  if (!NAME_RE.test(name) || name.length > 53) throw new HelmError(`INSTALLATION FAILED: release name "${name}": invalid release name, must match regex ^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$ and the length must not be longer than 53`);
  const api = requireApi(env);
  const cur = latest(api, namespaceOf(a), name);
  try {
    if (cur && cur.info.status !== 'uninstalled') throw new HelmError('cannot re-use a name that is still in use');
    return statusText(deploy(env, a, name, ref, undefined, userValues(env, a)));
  } catch (e) {
    throw new HelmError(`INSTALLATION FAILED: ${(e as Error).message}`);
  }
}

export function upgrade(env: HelmEnv, a: HelmArgs): string {
  const [name, ref] = a.args;
  if (!name || !ref) throw new HelmError(`"helm upgrade" requires 2 arguments\n\nUsage:  helm upgrade [RELEASE] [CHART] [flags]`);
  const api = requireApi(env);
  const all = history(api, namespaceOf(a), name);
  const deployed = [...all].reverse().find((r) => r.info.status === 'deployed');
  if (!deployed) {
    if (bool(a, 'install') && all.length === 0) return `Release "${name}" does not exist. Installing it now.\n${install(env, a)}`;
    throw new HelmError(`UPGRADE FAILED: "${name}" has no deployed releases`);
  }
  try {
    let user = userValues(env, a);
    if (bool(a, 'reuse-values')) user = mergeValues(fromPlain(deployed.config ?? {}) as Values, user);
    const rel = deploy(env, a, name, ref, deployed, user);
    return `Release "${name}" has been upgraded. Happy Helming!\n${statusText(rel)}`;
  } catch (e) {
    throw new HelmError(`UPGRADE FAILED: ${(e as Error).message}`);
  }
}
