/**
 * `kubectl delete` (k8s.io/kubectl pkg/cmd/delete/delete.go): by TYPE NAME, TYPE/NAME, -f, -l or
 * --all; prints the v1.35 messages (`pod "x" deleted from default namespace`, cluster-scoped
 * `namespace "x" deleted`, `force deleted` with --grace-period=0) and, like --wait=true, waits by
 * advancing the simulated clock until the objects are gone.
 */
import type { KObject } from '../../../sim/api/types.js';
import { selectObjects } from '../resource-args.js';
import { kindInfoOf, kindPrefixOf } from '../../printers/kindinfo.js';
import type { KubectlEnv, Verb } from '../context.js';
import { klogWarning, parseDryRun, dryRunSuffix, type DryRun } from '../dry-run.js';
import { errorResult, formatApiError, KubectlError, RawError } from '../errors.js';
import { bool, int, str } from '../flags.js';
import { manifestsOrKustomization } from './kustomize.js';
import { namespaceOf, parseTargets, PROVIDE_RESOURCES } from '../target.js';
import { ApiError } from '../../../sim/api/errors.js';
import { manifestNamespace, withSource } from '../manifest.js';


/** DeleteOptions.PrintObj. */
export function deleteMessage(obj: KObject, operation: string, output: string | undefined, dry: DryRun = 'none'): string {
  const info = kindInfoOf(obj);
  const kind = kindPrefixOf(info);
  if (output === 'name') return `${kind}/${obj.metadata.name}\n`;
  const op = `${operation}${dryRunSuffix(dry)}`;
  if (info.namespaced) return `${kind} "${obj.metadata.name}" ${op} from ${obj.metadata.namespace ?? 'default'} namespace\n`;
  return `${kind} "${obj.metadata.name}" ${op}\n`;
}

/** Advance simulated time until the object is gone (delete --wait), at most `seconds`. */
export function waitGone(env: KubectlEnv, kind: string, ns: string | undefined, name: string, seconds: number): boolean {
  for (let i = 0; i <= seconds; i++) {
    if (!env.cluster.store.get(kind, kindInfoOf({ kind, apiVersion: '', metadata: { name } }).namespaced ? ns : undefined, name)) return true;
    env.cluster.advance(1000);
  }
  return false;
}

export const deleteVerb: Verb = {
  name: 'delete',
  run(inv, env) {
    const p = inv.parsed;
    const input = manifestsOrKustomization(env, p, 'delete');
    const files = input?.objs ?? [];
    const selector = str(p.flags, 'selector');
    const all = bool(p.flags, 'all');
    if (files.length === 0 && p.args.length === 0 && !input?.errors.length) throw new RawError(`error: ${PROVIDE_RESOURCES}`);
    const dry = parseDryRun(p.flags);
    let grace = int(p.flags, 'grace-period') ?? -1;
    if (bool(p.flags, 'now')) {
      if (grace !== -1) throw new KubectlError('--now and --grace-period cannot be specified together');
      grace = 1;
    }
    const force = bool(p.flags, 'force');
    if (force && grace === -1) grace = 0;
    let stderr = (input?.stderr ?? '') + (dry.warning ? klogWarning(env.cluster.now(), dry.warning) : '');
    if (force && grace === 0) stderr += 'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n';
    const output = str(p.flags, 'output');
    const ns = namespaceOf(env, p);
    const allNs = bool(p.flags, 'all-namespaces');
    const { targets, typesOnly } = parseTargets(p.args, env.cluster.discovery());
    const fieldSelector = str(p.flags, 'field-selector');
    if (targets.length > 0 && (selector !== undefined || fieldSelector !== undefined || all)) throw new KubectlError('name cannot be provided when a selector is specified');
    if (typesOnly.length > 0 && selector === undefined && fieldSelector === undefined && !all) throw new KubectlError(`resource(s) were provided, but no name was specified`);
    const objs: { obj: KObject; source?: string; missing?: string }[] = [];
    for (const { obj, source } of files) {
      const target = manifestNamespace(obj, ns, env.cluster.discovery());
      const live = env.api.tryGet(obj.kind, target, obj.metadata.name);
      objs.push(live ? { obj: live, source } : { obj: { ...obj, metadata: { ...obj.metadata, ...(target ? { namespace: target } : {}) } }, source, missing: obj.kind });
    }
    for (const t of targets) {
      const live = env.api.tryGet(t.info.kind, ns.name, t.name);
      objs.push(live ? { obj: live } : { obj: { kind: t.info.kind, apiVersion: '', metadata: { name: t.name } }, missing: t.info.kind });
    }
    // the server selects with both selectors (and rejects a field it does not index), as for get
    const selectors = { ...(selector !== undefined ? { label: selector } : {}), ...(fieldSelector !== undefined ? { field: fieldSelector } : {}) };
    for (const info of typesOnly) {
      for (const o of selectObjects(env.api.list(info.kind, allNs ? undefined : ns.name), info, selectors)) objs.push({ obj: o });
    }
    let stdout = '';
    let failed = false;
    const deleted: KObject[] = [];
    for (const o of objs) {
      try {
        if (o.missing) {
          if (bool(p.flags, 'ignore-not-found')) continue;
          env.api.get(o.missing, o.obj.metadata.namespace ?? ns.name, o.obj.metadata.name);
        }
        const cascade = str(p.flags, 'cascade');
        env.api.delete(o.obj.kind, o.obj.metadata.namespace, o.obj.metadata.name, {
          dryRun: dry.mode !== 'none',
          ...(grace >= 0 ? { gracePeriodSeconds: grace } : {}),
          ...(cascade === 'orphan' ? { propagation: 'Orphan' as const } : cascade === 'foreground' ? { propagation: 'Foreground' as const } : {}),
        });
        stdout += deleteMessage(o.obj, grace === 0 ? 'force deleted' : 'deleted', output, dry.mode);
        deleted.push(o.obj);
      } catch (e) {
        failed = true;
        const err = o.source ? withSource(e, 'deleting', o.source) : e;
        stderr += err instanceof ApiError ? `${formatApiError(err)}\n` : errorResult(err, 'delete').stderr;
      }
    }
    if (objs.length === 0 && !failed) {
      stderr += allNs || typesOnly.every((t) => !t.namespaced) ? 'No resources found\n' : `No resources found in ${ns.name} namespace.\n`;
    }
    if (dry.mode === 'none' && p.flags['wait'] !== false) {
      for (const o of deleted) waitGone(env, o.kind, o.metadata.namespace, o.metadata.name, Math.max(grace, 30) + 60);
    }
    for (const e of input?.errors ?? []) stderr += errorResult(e, 'delete').stderr;
    return { stdout, stderr, exitCode: failed || input?.errors.length ? 1 : 0 };
  },
};
