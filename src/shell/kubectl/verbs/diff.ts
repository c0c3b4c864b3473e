/**
 * `kubectl diff -f FILE` (k8s.io/kubectl pkg/cmd/diff/diff.go): for every object of the files,
 * the live object and what a server-side dry-run apply would make of it are written as YAML
 * (managedFields dropped unless --show-managed-fields) to /tmp/LIVE-N/ and /tmp/MERGED-N/ under
 * `GROUP.VERSION.KIND.NAMESPACE.NAME`, and `diff -u -N` of the two directories is printed: a
 * `diff -u -N A B` line, the `---`/`+++` headers (an absent live object is the empty file of
 * 1970) and the hunks. Exit status 0 when nothing would change, 1 when something would, more on
 * an error. The temporary directories are removed afterwards, as kubectl does.
 */
import type { KObject } from '../../../sim/api/types.js';
import type { Verb } from '../context.js';
import { errorResult, KubectlError } from '../errors.js';
import { bool } from '../flags.js';
import { manifestNamespace } from '../manifest.js';
import { namespaceOf } from '../target.js';
import { sortKeys } from '../../printers/serialize.js';
import { toYaml } from '../../printers/yaml.js';
import { diffTime, unifiedHunks } from '../../../util/diff.js';
import { kindInfoOf } from '../../printers/kindinfo.js';
import { applyOne } from './apply.js';
import { applyFieldManager } from '../server-side-apply.js';
import { manifestsOrKustomization } from './kustomize.js';

/** diff.go InfoObject.Name: `[GROUP.]VERSION.KIND.NAMESPACE.NAME`. */
function fileName(obj: KObject): string {
  return `${obj.apiVersion.replace('/', '.')}.${obj.kind}.${kindInfoOf(obj).namespaced ? (obj.metadata.namespace ?? '') : ''}.${obj.metadata.name}`;
}

function yamlOf(obj: KObject | undefined, showManaged: boolean): string {
  if (!obj) return '';
  const meta = { ...obj.metadata } as Record<string, unknown>;
  if (!showManaged) delete meta['managedFields'];
  return toYaml(sortKeys({ ...obj, metadata: meta }));
}

export const diffVerb: Verb = {
  name: 'diff',
  run(inv, env) {
    const p = inv.parsed;
    let stdout = '';
    try {
      const input = manifestsOrKustomization(env, p, 'diff');
      if (!input) throw new KubectlError('must specify one of -f and -k', "See 'kubectl diff -h' for help and examples");
      if (p.args.length > 0) throw new KubectlError(`Unexpected args: [${p.args.join(' ')}]`, "See 'kubectl diff -h' for help and examples");
      // diff.go Complete
      const serverSide = bool(p.flags, 'server-side');
      if (bool(p.flags, 'force-conflicts') && !serverSide) throw new KubectlError('--force-conflicts only works with --server-side');
      const ns = namespaceOf(env, p);
      const showManaged = bool(p.flags, 'show-managed-fields');
      // os.MkdirTemp's random suffixes
      const liveDir = `/tmp/LIVE-${env.cluster.random.nextU32()}`;
      const mergedDir = `/tmp/MERGED-${env.cluster.random.nextU32()}`;
      const now = env.cluster.now();
      const pairs: Array<{ name: string; live: string; merged: string; existed: boolean }> = [];
      for (const { obj } of input.objs) {
        const desired = structuredClone(obj);
        const target = manifestNamespace(desired, ns, env.cluster.discovery());
        if (target) desired.metadata.namespace = target;
        const live = env.api.tryGet(desired.kind, desired.metadata.namespace, desired.metadata.name);
        // InfoObject.Merged: a dry-run apply patch with --server-side, else client-side apply's dry run
        const merged = serverSide
          ? env.api.apply(desired, { dryRun: true, fieldManager: applyFieldManager(p, true), force: bool(p.flags, 'force-conflicts'), fieldValidation: 'Strict', warnings: [] })
          : applyOne(env, desired, true, false, { fieldValidation: 'Strict', warnings: [] }, { verb: 'applying patch' }).obj;
        // a dry run writes nothing, so the object keeps the resourceVersion it had
        if (live?.metadata.resourceVersion) merged.metadata.resourceVersion ??= live.metadata.resourceVersion;
        pairs.push({ name: fileName(merged), live: yamlOf(live, showManaged), merged: yamlOf(merged, showManaged), existed: live !== undefined });
      }
      let status = 0;
      for (const pr of pairs.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (pr.live === pr.merged) continue;
        status = 1;
        const a = `${liveDir}/${pr.name}`;
        const b = `${mergedDir}/${pr.name}`;
        stdout += `diff -u -N ${a} ${b}\n--- ${a}\t${diffTime(pr.existed ? now : 0)}\n+++ ${b}\t${diffTime(now)}\n${unifiedHunks(pr.live, pr.merged)}`;
      }
      let stderr = input.stderr;
      for (const e of input.errors) stderr += errorResult(e, 'diff').stderr;
      return { stdout, stderr, exitCode: input.errors.length ? 2 : status };
    } catch (e) {
      // diff.go CheckDiffErr: kubectl's own failures exit above 1 (1 means "differences")
      return { ...errorResult(e, 'diff', stdout), exitCode: 2 };
    }
  },
};
