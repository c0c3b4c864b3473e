/**
 * `helm uninstall NAME…` (helm pkg/action/uninstall.go): delete the release's objects (not its
 * CRDs) and its records, or keep them marked uninstalled with --keep-history.
 */
import { type HelmArgs, bool } from './args.js';
import { deleteManifest, type HelmEnv, namespaceOf, requireApi } from './env.js';
import { deleteRecord, history, updateRecord } from './release.js';
import { HelmError } from './repo.js';

export function uninstall(env: HelmEnv, a: HelmArgs): string {
  if (a.args.length === 0) throw new HelmError(`"helm uninstall" requires at least 1 argument\n\nUsage:  helm uninstall RELEASE_NAME [...] [flags]`);
  const api = requireApi(env);
  const ns = namespaceOf(a);
  let out = '';
  for (const name of a.args) {
    const all = history(api, ns, name);
    const cur = all.at(-1);
    if (!cur || cur.info.status === 'uninstalled') throw new HelmError(`uninstall: Release not loaded: ${name}: release: not found`);
    deleteManifest(api, cur.manifest, ns, name);
    if (bool(a, 'keep-history')) updateRecord(api, { ...cur, info: { ...cur.info, status: 'uninstalled', description: 'Uninstallation complete', deleted: new Date(env.now()).toISOString() } });
    else for (const r of all) deleteRecord(api, r);
    out += `release "${name}" uninstalled\n`;
  }
  return out;
}
