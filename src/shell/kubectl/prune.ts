/**
 * `kubectl apply --prune` without an ApplySet (k8s.io/kubectl pkg/cmd/apply/prune.go and
 * pkg/util/prune/prune.go, v1.35): after every object applied without error, list each resource
 * type of the allowlist (the default one, or --prune-allowlist) with the -l selector, in every
 * namespace an applied object went to (plus -n's), then the cluster-scoped types once; an object
 * that carries the last-applied annotation and is not one of the applied objects (by UID) is
 * deleted and printed as `<kind>/<name> pruned`. --dry-run=client deletes nothing; server dry-run
 * sends the deletion with dryRun.
 */
import type { Discovery, ResourceInfo } from '../../sim/api/registry.js';
import type { KObject } from '../../sim/api/types.js';
import type { KubectlEnv } from './context.js';
import type { DryRun } from './dry-run.js';
import { klogWarning } from './dry-run.js';
import { KubectlError } from './errors.js';
import { LAST_APPLIED } from './last-applied.js';
import { printObject } from './printobj.js';
import { selectObjects } from './resource-args.js';
import type { Streams } from './streams.js';

/** prune.Resource: group, version, kind and whether it is namespaced. */
export interface PruneResource {
  group: string;
  version: string;
  kind: string;
  namespaced: boolean;
}

const r = (group: string, version: string, kind: string, namespaced: boolean): PruneResource => ({ group, version, kind, namespaced });

/** prune.go defaultNamespacedPruneResources, in its order. */
const DEFAULT_NAMESPACED: readonly PruneResource[] = [
  r('', 'v1', 'ConfigMap', true),
  r('', 'v1', 'Endpoints', true),
  r('', 'v1', 'PersistentVolumeClaim', true),
  r('', 'v1', 'Pod', true),
  r('', 'v1', 'ReplicationController', true),
  r('', 'v1', 'Secret', true),
  r('', 'v1', 'Service', true),
  r('batch', 'v1', 'Job', true),
  r('batch', 'v1', 'CronJob', true),
  r('networking.k8s.io', 'v1', 'Ingress', true),
  r('apps', 'v1', 'DaemonSet', true),
  r('apps', 'v1', 'Deployment', true),
  r('apps', 'v1', 'ReplicaSet', true),
  r('apps', 'v1', 'StatefulSet', true),
];

/** prune.go defaultNonNamespacedPruneResources. */
const DEFAULT_NON_NAMESPACED: readonly PruneResource[] = [r('', 'v1', 'Namespace', false), r('', 'v1', 'PersistentVolume', false)];

/**
 * GetRESTMappings' warning: kubectl passes `o.Namespace != ""`, and the namespace from the
 * kubeconfig loader is never empty (it is `default` at least), so every prune with the default
 * allowlist prints it.
 */
const NON_NAMESPACED_DEPRECATION =
  'Deprecated: kubectl apply will no longer prune non-namespaced resources by default when used with the --namespace flag in a future release. To preserve the current behaviour, list the resources you want to target explicitly in the --prune-allowlist flag.';

/** The served resource of group/kind at version, as RESTMapper.RESTMapping looks it up. */
function mapping(d: Discovery, group: string, version: string, kind: string): ResourceInfo | undefined {
  return d.resources.find((i) => i.group === group && i.kind === kind && (i.version === version || (i.servedVersions ?? []).includes(version)));
}

/** meta.NoKindMatchError for one searched version. */
function noKindMatch(group: string, version: string, kind: string): string {
  return `no matches for kind "${kind}" in version "${group ? `${group}/${version}` : version}"`;
}

/** prune.ParseResources: `--prune-allowlist=<group/version/kind>`, `core` for the core group. */
export function parsePruneAllowlist(d: Discovery, gvks: readonly string[]): PruneResource[] {
  const out: PruneResource[] = [];
  for (const gvk of gvks) {
    const parts = gvk.split('/');
    if (parts.length !== 3) throw new KubectlError(`invalid GroupVersionKind format: ${gvk}, please follow <group/version/kind>`);
    const [g, version, kind] = parts as [string, string, string];
    const group = g === 'core' ? '' : g;
    const info = mapping(d, group, version, kind);
    if (!info) throw new KubectlError(noKindMatch(group, version, kind));
    out.push(r(group, version, kind, info.namespaced));
  }
  return out;
}

/** What apply gathered while it applied: the UIDs it applied and the namespaces it applied to. */
export interface PruneVisits {
  uids: Set<string>;
  namespaces: Set<string>;
}

export interface PruneOptions {
  /** --prune-allowlist, parsed; empty for the default allowlist. */
  allowlist: readonly PruneResource[];
  /** -l, '' with --all. */
  selector: string;
  dryRun: DryRun;
  output: string | undefined;
  /** --grace-period (-1: the object's own). */
  gracePeriod: number;
  cascade: string | undefined;
}

/** `/v1, Kind=ConfigMap`: schema.GroupVersionKind's String(). */
function gvkString(res: PruneResource): string {
  return `${res.group}/${res.version}, Kind=${res.kind}`;
}

/**
 * pruner.pruneAll's walk (shared with `kubectl diff --prune`, pkg/cmd/diff/prune.go): each object
 * to prune goes to `fn`, namespaced types in each visited namespace first, then the cluster-scoped
 * ones; an error `fn` or the listing throws is kubectl's `error pruning … object GVK: …`.
 */
export function forEachPrunable(
  env: KubectlEnv,
  visits: PruneVisits,
  o: Pick<PruneOptions, 'allowlist' | 'selector'>,
  io: Streams,
  fn: (obj: KObject, ns: string | undefined) => void,
): void {
  const d = env.cluster.discovery();
  let resources = o.allowlist;
  if (resources.length === 0) {
    resources = [...DEFAULT_NAMESPACED, ...DEFAULT_NON_NAMESPACED];
    io.err(klogWarning(env.cluster.now(), NON_NAMESPACED_DEPRECATION, 'prune.go:71'));
  }
  const mapped: { res: PruneResource; info: ResourceInfo }[] = [];
  for (const res of resources) {
    const info = mapping(d, res.group, res.version, res.kind);
    // a kind of the default list the simulation does not serve has nothing to prune
    if (!info) continue;
    mapped.push({ res, info });
  }
  const walk = (ns: string | undefined, m: { res: PruneResource; info: ResourceInfo }): void => {
    try {
      const objs: KObject[] = selectObjects(env.api.list(m.info.kind, ns), m.info, o.selector === '' ? {} : { label: o.selector });
      for (const obj of objs) {
        // don't prune resources not created with apply
        if (obj.metadata.annotations?.[LAST_APPLIED] === undefined) continue;
        if (obj.metadata.uid !== undefined && visits.uids.has(obj.metadata.uid)) continue;
        fn(obj, ns);
      }
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      throw new KubectlError(`error pruning ${ns === undefined ? 'nonNamespaced' : 'namespaced'} object ${gvkString(m.res)}: ${msg}`);
    }
  };
  // sets.Set is a Go map: kubectl visits the namespaces in no set order; sorted here
  for (const ns of [...visits.namespaces].sort()) for (const m of mapped) if (m.res.namespaced) walk(ns, m);
  for (const m of mapped) if (!m.res.namespaced) walk(undefined, m);
}

/** pruner.pruneAll of apply: deletes and prints (on `io`) what is to be pruned; throws kubectl's error on failure. */
export function pruneAll(env: KubectlEnv, visits: PruneVisits, o: PruneOptions, io: Streams): void {
  forEachPrunable(env, visits, o, io, (obj, ns) => {
    if (o.dryRun !== 'client') {
      env.api.delete(obj.kind, ns, obj.metadata.name, {
        dryRun: o.dryRun === 'server',
        ...(o.gracePeriod >= 0 ? { gracePeriodSeconds: o.gracePeriod } : {}),
        ...(o.cascade === 'orphan' ? { propagation: 'Orphan' as const } : o.cascade === 'foreground' ? { propagation: 'Foreground' as const } : {}),
      });
    }
    io.out(printObject(obj, { output: o.output, operation: 'pruned', dryRun: o.dryRun, generated: false }));
  });
}
