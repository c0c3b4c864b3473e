/**
 * `kubectl apply -f` (k8s.io/kubectl pkg/cmd/apply/apply.go, client-side apply): create what
 * does not exist (`created`), otherwise a three-way merge of the last-applied configuration
 * annotation, the new manifest and the live object; no difference → `unchanged`, else the
 * strategic merge is sent (`configured`). The annotation always records the manifest as applied.
 * With --server-side the manifest goes to the API server as an apply patch instead
 * (../server-side-apply.ts; `serverside-applied`).
 */
import { ApiError } from '../../../sim/api/errors.js';
import type { Discovery } from '../../../sim/api/registry.js';
import type { KObject } from '../../../sim/api/types.js';
import { kindInfoOf } from '../../printers/kindinfo.js';
import type { CommandResult } from '../../types.js';
import type { KubectlEnv, Verb } from '../context.js';
import { klogWarning, parseDryRun } from '../dry-run.js';
import { errorResult, formatApiError, KubectlError } from '../errors.js';
import { bool, int, list, str } from '../flags.js';
import { manifestsOrKustomization } from './kustomize.js';
import { deletions, isSubset, strategicMerge, type JsonValue } from '../merge.js';
import { checkOutput, printObject } from '../printobj.js';
import { namespaceOf } from '../target.js';
import { filterBySelector, manifestNamespace, withSource } from '../manifest.js';
import { LAST_APPLIED, lastAppliedAnnotate } from '../last-applied.js';
import type { WriteOptions } from '../../../sim/apiserver.js';
import { validationDirective, warningLines } from '../validate.js';
import { Streams } from '../streams.js';
import { recordChangeCause } from '../record.js';
import { applyFieldManager, serverSideApplyOne, validateApplyFlags } from '../server-side-apply.js';
import { parsePruneAllowlist, pruneAll, type PruneResource, type PruneVisits } from '../prune.js';


/**
 * apply.go's warningNoLastAppliedConfigAnnotation, naming the object as resource.Info.ObjectName()
 * does (k8s.io/cli-runtime pkg/resource/visitor.go): the mapping's plural resource, without its group.
 */
function missingAnnotationWarning(live: KObject, d: Discovery): string {
  const res = d.hasKind(live.kind) ? d.infoForKind(live.kind).resource : `${kindInfoOf(live).kind.toLowerCase()}s`;
  return `Warning: resource ${res}/${live.metadata.name} is missing the ${LAST_APPLIED} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n`;
}

export interface Applied {
  obj: KObject;
  operation: 'created' | 'configured' | 'unchanged';
  warning?: string;
  /** MarkObjectVisited: the UID kubectl saw (the live object's; a created one's as the server returned it). */
  visitedUid?: string;
}

/** `step.verb` says what failed, for `error when <verb> "<file>"` (apply.go AddSourceToErr calls). */
export function applyOne(env: KubectlEnv, desired: KObject, dryServer: boolean, dryClient: boolean, write: WriteOptions, step: { verb: string }): Applied {
  lastAppliedAnnotate(desired);
  write = { fieldManager: 'kubectl-client-side-apply', ...write };
  const live = env.api.tryGet(desired.kind, desired.metadata.namespace, desired.metadata.name);
  if (!live) {
    step.verb = 'creating';
    const obj = dryClient ? desired : env.api.create(desired, { ...write, dryRun: dryServer });
    return { obj, operation: 'created', ...(obj.metadata.uid ? { visitedUid: obj.metadata.uid } : {}) };
  }
  const originalText = live.metadata.annotations?.[LAST_APPLIED];
  const original = originalText ? (JSON.parse(originalText) as JsonValue) : undefined;
  const modified = desired as unknown as JsonValue;
  const dels = deletions(original, modified);
  const liveJson = live as unknown as JsonValue;
  const sameAnnotation = originalText === desired.metadata.annotations?.[LAST_APPLIED];
  const visitedUid = live.metadata.uid;
  if (dels === undefined && sameAnnotation && isSubset(modified, liveJson)) return { obj: live, operation: 'unchanged', ...(visitedUid ? { visitedUid } : {}) };
  let merged = strategicMerge(liveJson, modified);
  if (dels !== undefined) merged = strategicMerge(merged, dels, '', true);
  const next = merged as unknown as KObject;
  delete next.metadata.resourceVersion;
  const obj = dryClient ? next : env.api.update(next, { ...write, dryRun: dryServer });
  return { obj, operation: 'configured', ...(visitedUid ? { visitedUid } : {}), ...(originalText ? {} : { warning: missingAnnotationWarning(live, env.cluster.discovery()) }) };
}

/**
 * Kinds whose writes `apply` batches into one settle at the end (Cluster.batch): built-in kinds no
 * admission or validation of a later object reads controller output of. The others settle before
 * and after their own write, as every write did: a Namespace (its default ServiceAccount comes
 * from a controller, and the ServiceAccount admission of a Pod in it needs it), a CRD (its kind is
 * served once the controller marks it Established), a ResourceQuota, custom resources. An object
 * in a namespace with a ResourceQuota settles first too: quota admission counts the namespace's
 * objects, Pods the controllers create among them.
 */
const BATCHED_KINDS = new Set([
  'v1/ConfigMap', 'v1/Secret', 'v1/Service', 'v1/ServiceAccount', 'v1/Pod', 'v1/PersistentVolume', 'v1/PersistentVolumeClaim', 'v1/LimitRange', 'v1/Endpoints',
  'apps/Deployment', 'apps/ReplicaSet', 'apps/StatefulSet', 'apps/DaemonSet', 'batch/Job', 'batch/CronJob',
  'networking.k8s.io/Ingress', 'networking.k8s.io/IngressClass', 'networking.k8s.io/NetworkPolicy',
  'rbac.authorization.k8s.io/Role', 'rbac.authorization.k8s.io/RoleBinding', 'rbac.authorization.k8s.io/ClusterRole', 'rbac.authorization.k8s.io/ClusterRoleBinding',
  'policy/PodDisruptionBudget', 'autoscaling/HorizontalPodAutoscaler', 'scheduling.k8s.io/PriorityClass', 'storage.k8s.io/StorageClass', 'discovery.k8s.io/EndpointSlice',
]);

function batched(env: KubectlEnv, obj: KObject): boolean {
  const slash = obj.apiVersion.lastIndexOf('/');
  if (!BATCHED_KINDS.has(`${slash < 0 ? 'v1' : obj.apiVersion.slice(0, slash)}/${obj.kind}`)) return false;
  const ns = obj.metadata.namespace;
  return ns === undefined || env.cluster.store.list('ResourceQuota', ns).length === 0;
}

export const applyVerb: Verb = {
  name: 'apply',
  run(inv, env): CommandResult {
    const p = inv.parsed;
    const input = manifestsOrKustomization(env, p, 'apply');
    if (!input) throw new KubectlError('must specify one of -f and -k', "See 'kubectl apply -h' for help and examples");
    if (p.args.length > 0) throw new KubectlError(`Unexpected args: [${p.args.join(' ')}]`, "See 'kubectl apply -h' for help and examples");
    const dry = parseDryRun(p.flags);
    const prune = bool(p.flags, 'prune');
    // ApplyFlags.ToOptions parses the allowlist (against the server's mappings) before Validate
    const allowlist: PruneResource[] = prune ? parsePruneAllowlist(env.cluster.discovery(), list(p.flags, 'prune-allowlist')) : [];
    validateApplyFlags(p, dry.mode);
    const serverSide = bool(p.flags, 'server-side');
    const fieldManager = applyFieldManager(p, serverSide);
    const output = str(p.flags, 'output');
    checkOutput(output);
    const ns = namespaceOf(env, p);
    const fieldValidation = validationDirective(p.flags);
    const selector = str(p.flags, 'selector');
    const objs = filterBySelector(input.objs, selector);
    if (objs.length === 0 && input.errors.length === 0) throw new KubectlError('no objects passed to apply');
    // Run: -n's namespace is visited whatever the objects; MarkNamespaceVisited/MarkObjectVisited add the rest
    const visits: PruneVisits = { uids: new Set(), namespaces: new Set(ns.explicit ? [ns.name] : []) };
    const io = new Streams();
    io.err(input.stderr + (dry.warning ? klogWarning(env.cluster.now(), dry.warning) : ''));
    // each object's error is returned to Run, which hands their aggregate to CheckErr at the end
    const errors: string[] = [];
    // one settle for the whole command (Cluster.batch), unless the objects are printed as the
    // server returned them: then each is the object its own settle left, as before
    const batch = output === undefined || output === 'name' ? <T>(fn: () => T): T => env.cluster.batch(fn) : <T>(fn: () => T): T => fn();
    batch(() => {
    for (const { obj, source } of objs) {
      const step = { verb: 'applying patch' };
      const warnings: string[] = [];
      try {
        // apply.go records the change cause on the local object before the last-applied annotation
        const desired = recordChangeCause(inv, structuredClone(obj));
        const target = manifestNamespace(desired, ns, env.cluster.discovery());
        if (target) {
          desired.metadata.namespace = target;
          visits.namespaces.add(target);
        }
        const alone = !batched(env, desired);
        if (alone) env.cluster.settlePending();
        if (serverSide) {
          step.verb = 'serverside-apply';
          const obj = serverSideApplyOne(env, desired, { fieldValidation, warnings, fieldManager, force: bool(p.flags, 'force-conflicts'), dryRun: dry.mode === 'server' });
          io.err(warningLines(env, warnings));
          if (obj.metadata.uid) visits.uids.add(obj.metadata.uid);
          io.out(printObject(obj, { output, operation: 'serverside-applied', dryRun: dry.mode, generated: false, showManagedFields: bool(p.flags, 'show-managed-fields') }));
          if (alone) env.cluster.settlePending();
          continue;
        }
        const r = applyOne(env, desired, dry.mode === 'server', dry.mode === 'client', { fieldValidation, warnings, fieldManager }, step);
        // applyOneObject warns of a missing last-applied annotation before it sends the patch
        if (r.warning) io.err(r.warning);
        io.err(warningLines(env, warnings));
        if (r.visitedUid) visits.uids.add(r.visitedUid);
        io.out(printObject(r.obj, { output, operation: r.operation, dryRun: dry.mode, generated: false, showManagedFields: bool(p.flags, 'show-managed-fields') }));
        if (alone) env.cluster.settlePending();
      } catch (e) {
        // the server's warnings come with its refusal (PodSecurity's warn level beside enforce)
        io.err(warningLines(env, warnings));
        // the server-side branch returns the server's error as it is (no AddSourceToErr)
        if (step.verb === 'serverside-apply') {
          errors.push(e instanceof ApiError ? `${formatApiError(e)}\n` : errorResult(e, 'apply').stderr);
          continue;
        }
        const verb = step.verb === 'creating' ? step.verb : e instanceof ApiError && e.reason === 'NotFound' ? 'retrieving current configuration of' : step.verb;
        const err = withSource(e, verb, source);
        errors.push(err instanceof ApiError ? `${formatApiError(err)}\n` : errorResult(err, 'apply').stderr);
      }
    }
    });
    // the objects kubectl could not map come last (apply.go appends GetObjects' error first, but
    // prints the aggregate after the applied objects)
    for (const e of input.errors) errors.push(errorResult(e, 'apply').stderr);
    for (const e of errors) io.err(e);
    if (errors.length) return io.result(1);
    // PrintAndPrunePostProcessor: only after every object applied
    if (prune) {
      const grace = int(p.flags, 'grace-period') ?? -1;
      try {
        env.cluster.batch(() =>
          pruneAll(env, visits, { allowlist, selector: selector ?? '', dryRun: dry.mode, output, gracePeriod: grace, cascade: str(p.flags, 'cascade') }, io),
        );
      } catch (e) {
        io.err(errorResult(e, 'apply').stderr);
        return io.result(1);
      }
    }
    return io.result(0);
  },
};
