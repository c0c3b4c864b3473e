/**
 * `helm history NAME` (helm pkg/cmd/history.go): every revision, oldest first, UPDATED in
 * time.ANSIC, as uitable prints it (max column width 60).
 */
import type { HelmArgs } from './args.js';
import { type HelmEnv, namespaceOf, requireApi } from './env.js';
import { ansic, history as releaseHistory } from './release.js';
import { HelmError } from './repo.js';
import { uitable } from './table.js';

export function history(env: HelmEnv, a: HelmArgs): string {
  const name = a.args[0];
  if (!name) throw new HelmError(`"helm history" requires 1 argument\n\nUsage:  helm history RELEASE_NAME [flags]`);
  const all = releaseHistory(requireApi(env), namespaceOf(a), name);
  if (all.length === 0) throw new HelmError('release: not found');
  const rows = [['REVISION', 'UPDATED', 'STATUS', 'CHART', 'APP VERSION', 'DESCRIPTION']];
  for (const r of all) rows.push([String(r.version), ansic(r.info.last_deployed), r.info.status, `${r.chart.metadata.name}-${r.chart.metadata.version}`, String(r.chart.metadata.appVersion ?? ''), r.info.description]);
  return uitable(rows, 60);
}
