/**
 * `helm rollback NAME [REVISION]` (helm pkg/action/rollback.go): re-apply the manifest of the
 * target revision (the previous one by default) as a new revision described "Rollback to N";
 * the current revision becomes superseded.
 */
import { type HelmArgs, flag } from './args.js';
import { applyManifest, type HelmEnv, namespaceOf, requireApi } from './env.js';
import { createRecord, history, type Release, updateRecord } from './release.js';
import { HelmError } from './repo.js';

export function rollback(env: HelmEnv, a: HelmArgs): string {
  const [name, revArg] = a.args;
  if (!name) throw new HelmError(`"helm rollback" requires at least 1 argument\n\nUsage:  helm rollback <RELEASE> [REVISION] [flags]`);
  const api = requireApi(env);
  const ns = namespaceOf(a);
  const all = history(api, ns, name);
  if (all.length === 0) throw new HelmError('release: not found');
  const cur = all.at(-1)!;
  const want = revArg === undefined || revArg === '0' ? cur.version - 1 : Number(revArg);
  if (!Number.isInteger(want)) throw new HelmError(`strconv.Atoi: parsing "${revArg}": invalid syntax`);
  if (want < 1) throw new HelmError('release has no previous version to roll back to');
  const target = all.find((r) => r.version === want);
  if (!target) throw new HelmError(`release has no ${want} version`);
  const now = new Date(env.now()).toISOString();
  applyManifest(api, target.manifest, cur.manifest, ns, name);
  for (const r of all) if (r.info.status === 'deployed') updateRecord(api, { ...r, info: { ...r.info, status: 'superseded' } });
  // --server-side defaults to auto: the method of the release rolled back from (v4.1.4 pkg/action/rollback.go)
  const method = flag(a, 'server-side') ?? 'auto';
  const apply_method = method === 'true' || (method === 'auto' && cur.apply_method === 'ssa') ? 'ssa' : 'csa';
  const next: Release = { ...target, version: cur.version + 1, info: { ...target.info, first_deployed: cur.info.first_deployed, last_deployed: now, status: 'deployed', description: `Rollback to ${want}` }, apply_method };
  createRecord(api, next);
  return 'Rollback was a success! Happy Helming!\n';
}
