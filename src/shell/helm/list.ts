/**
 * `helm list [-A] [-n NS] [-a] [-q]` (helm pkg/cmd/list.go): the newest revision of each release,
 * deployed or failed unless --all, sorted by name, as uitable prints it; UPDATED is Go's
 * time.Time String() of the last deployment.
 */
import { type HelmArgs, bool, flag } from './args.js';
import { type HelmEnv, requireApi } from './env.js';
import { goTime, listReleases, type Release } from './release.js';
import { uitable } from './table.js';

export function list(env: HelmEnv, a: HelmArgs): string {
  const api = requireApi(env);
  const ns = bool(a, 'all-namespaces') ? undefined : (flag(a, 'namespace') ?? 'default');
  const newest = new Map<string, Release>();
  for (const r of listReleases(api, ns)) newest.set(`${r.namespace}/${r.name}`, r);
  const shown = [...newest.values()]
    .filter((r) => bool(a, 'all') || r.info.status === 'deployed' || r.info.status === 'failed' || (bool(a, 'uninstalled') && r.info.status === 'uninstalled'))
    .sort((x, y) => (x.name === y.name ? 0 : x.name < y.name ? -1 : 1));
  if (bool(a, 'short')) return shown.map((r) => `${r.name}\n`).join('');
  const rows = [['NAME', 'NAMESPACE', 'REVISION', 'UPDATED', 'STATUS', 'CHART', 'APP VERSION']];
  for (const r of shown) rows.push([r.name, r.namespace, String(r.version), goTime(r.info.last_deployed), r.info.status, `${r.chart.metadata.name}-${r.chart.metadata.version}`, String(r.chart.metadata.appVersion ?? '')]);
  return uitable(rows, 60);
}
