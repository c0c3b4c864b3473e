/**
 * `helm list [-A] [-n NS] [-q] [-d] [-r] [--deployed|--failed|--pending|--superseded|--uninstalled|--uninstalling]`
 * (helm v4.1.4 pkg/cmd/list.go, pkg/action/list.go): the newest revision of each release
 * (filterLatestReleases), then the state mask: the states asked for, or every state when none is
 * (SetStateMask's default is ListAll: v4 dropped --all, and uninstalled releases kept with
 * --keep-history are listed too); only --superseded lists every superseded revision. Sorted by
 * name, by date with -d, reversed with -r; uitable prints it, UPDATED as Go's time.Time String().
 */
import { type HelmArgs, bool, flag } from './args.js';
import { type HelmEnv, requireApi } from './env.js';
import { goTime, listReleases, type Release } from './release.js';
import { uitable } from './table.js';

/** The state flags and the release statuses each one admits (action.ListStates). */
const STATE_FLAGS: ReadonlyArray<[flag: string, statuses: readonly string[]]> = [
  ['deployed', ['deployed']],
  ['uninstalled', ['uninstalled']],
  ['uninstalling', ['uninstalling']],
  ['pending', ['pending-install', 'pending-rollback', 'pending-upgrade']],
  ['failed', ['failed']],
  ['superseded', ['superseded']],
];

export function list(env: HelmEnv, a: HelmArgs): string {
  const api = requireApi(env);
  const ns = bool(a, 'all-namespaces') ? undefined : (flag(a, 'namespace') ?? 'default');
  const asked = STATE_FLAGS.filter(([f]) => bool(a, f));
  const mask = new Set(asked.flatMap(([, s]) => s));
  const all = listReleases(api, ns);
  let rels: Release[];
  if (asked.length === 1 && asked[0]![0] === 'superseded') rels = all;
  else {
    const newest = new Map<string, Release>();
    for (const r of all) newest.set(`${r.namespace}/${r.name}`, r);
    rels = [...newest.values()];
  }
  const shown = rels.filter((r) => mask.size === 0 || mask.has(r.info.status));
  const byName = (x: Release, y: Release): number => (x.name === y.name ? 0 : x.name < y.name ? -1 : 1);
  const byDate = (x: Release, y: Release): number => Date.parse(x.info.last_deployed) - Date.parse(y.info.last_deployed);
  shown.sort(bool(a, 'date') ? byDate : byName);
  if (bool(a, 'reverse')) shown.reverse();
  if (bool(a, 'short')) return shown.map((r) => `${r.name}\n`).join('');
  const rows = [['NAME', 'NAMESPACE', 'REVISION', 'UPDATED', 'STATUS', 'CHART', 'APP VERSION']];
  for (const r of shown) rows.push([r.name, r.namespace, String(r.version), goTime(r.info.last_deployed), r.info.status, `${r.chart.metadata.name}-${r.chart.metadata.version}`, String(r.chart.metadata.appVersion ?? '')]);
  return uitable(rows, 60);
}
