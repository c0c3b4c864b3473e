/**
 * `kubectl diff -f FILE` (k8s.io/kubectl pkg/cmd/diff/diff.go): for every object of the files,
 * the live object and what a server-side dry-run apply would make of it are written as YAML
 * (managedFields dropped unless --show-managed-fields) to /tmp/LIVE-N/ and /tmp/MERGED-N/ under
 * `GROUP.VERSION.KIND.NAMESPACE.NAME`, and `diff -u -N` of the two directories is printed: a
 * `diff -u -N A B` line, the `---`/`+++` headers (an absent live object is the empty file of
 * 1970) and the hunks. Exit status 0 when nothing would change, 1 when something would, more on
 * an error. The temporary directories are removed afterwards, as kubectl does. `-l` keeps the
 * objects of the files it matches; `--prune` adds the objects `apply --prune` would delete
 * (../prune.ts, diff's prune.go) to the live side only, so they show as removed.
 */
import type { KObject } from '../../../sim/api/types.js';
import type { Verb } from '../context.js';
import { errorResult, KubectlError } from '../errors.js';
import { bool, list, str } from '../flags.js';
import { filterBySelector, manifestNamespace } from '../manifest.js';
import { forEachPrunable, parsePruneAllowlist, type PruneVisits } from '../prune.js';
import { Streams } from '../streams.js';
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
      const prune = bool(p.flags, 'prune');
      const allowlist = prune ? parsePruneAllowlist(env.cluster.discovery(), list(p.flags, 'prune-allowlist')) : [];
      const selector = str(p.flags, 'selector');
      const objs = filterBySelector(input.objs, selector);
      // the tracker: -n's namespace, then each object's namespace and UID as it is diffed
      const visits: PruneVisits = { uids: new Set(), namespaces: new Set(ns.explicit ? [ns.name] : []) };
      const showManaged = bool(p.flags, 'show-managed-fields');
      // os.MkdirTemp's random suffixes
      const liveDir = `/tmp/LIVE-${env.cluster.random.nextU32()}`;
      const mergedDir = `/tmp/MERGED-${env.cluster.random.nextU32()}`;
      const now = env.cluster.now();
      const pairs: Array<{ name: string; live: string; merged: string; existed: boolean; gone?: boolean }> = [];
      for (const { obj } of objs) {
        const desired = structuredClone(obj);
        const target = manifestNamespace(desired, ns, env.cluster.discovery());
        if (target) {
          desired.metadata.namespace = target;
          visits.namespaces.add(target);
        }
        const live = env.api.tryGet(desired.kind, desired.metadata.namespace, desired.metadata.name);
        if (live?.metadata.uid) visits.uids.add(live.metadata.uid);
        // InfoObject.Merged: a dry-run apply patch with --server-side, else client-side apply's dry run
        const merged = serverSide
          ? env.api.apply(desired, { dryRun: true, fieldManager: applyFieldManager(p, true), force: bool(p.flags, 'force-conflicts'), fieldValidation: 'Strict', warnings: [] })
          : applyOne(env, desired, true, false, { fieldValidation: 'Strict', warnings: [] }, { verb: 'applying patch' }).obj;
        // a dry run writes nothing, so the object keeps the resourceVersion it had
        if (live?.metadata.resourceVersion) merged.metadata.resourceVersion ??= live.metadata.resourceVersion;
        pairs.push({ name: fileName(merged), live: yamlOf(live, showManaged), merged: yamlOf(merged, showManaged), existed: live !== undefined });
      }
      // the pruned objects go to the live side as listed (Printer.Print: managedFields and all)
      const io = new Streams();
      if (prune)
        forEachPrunable(env, visits, { allowlist, selector: selector ?? '' }, io, (obj) => {
          pairs.push({ name: fileName(obj), live: toYaml(sortKeys(obj)), merged: '', existed: true, gone: true });
        });
      let status = 0;
      for (const pr of pairs.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (pr.live === pr.merged) continue;
        status = 1;
        const a = `${liveDir}/${pr.name}`;
        const b = `${mergedDir}/${pr.name}`;
        stdout += `diff -u -N ${a} ${b}\n--- ${a}\t${diffTime(pr.existed ? now : 0)}\n+++ ${b}\t${diffTime(pr.gone ? 0 : now)}\n${unifiedHunks(pr.live, pr.merged)}`;
      }
      // kustomize's warnings and the pruner's klog line come before the diff program's output
      const out = new Streams();
      out.err(input.stderr + io.stderr);
      out.out(stdout);
      for (const e of input.errors) out.err(errorResult(e, 'diff').stderr);
      return out.result(input.errors.length ? 2 : status);
    } catch (e) {
      // diff.go CheckDiffErr: kubectl's own failures exit above 1 (1 means "differences")
      return { ...errorResult(e, 'diff', stdout), exitCode: 2 };
    }
  },
};
