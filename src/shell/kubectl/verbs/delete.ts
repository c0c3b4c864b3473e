/**
 * `kubectl delete` (k8s.io/kubectl pkg/cmd/delete/delete.go): by TYPE NAME, TYPE/NAME, -f, -l or
 * --all; prints the v1.35 messages (`pod "x" deleted from default namespace`, cluster-scoped
 * `namespace "x" deleted`, `force deleted` with --grace-period=0) and, like --wait=true, waits by
 * advancing the simulated clock until the objects are gone (waitDeleted: --timeout's error, or a
 * learner's Ctrl-C when finalizers hold an object). The server answers a deletion that finalizers
 * keep like any other, so the message is the same.
 */
import type { KObject, Pod } from '../../../sim/api/types.js';
import { FOREGROUND_FINALIZER } from '../../../sim/api/deletion.js';
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
import { pollUntil } from '../poll.js';
import { durationFlag } from '../duration.js';
import { BudgetExceeded, INTERRUPTED_STATUS } from '../../budget.js';


/** DeleteOptions.PrintObj. */
export function deleteMessage(obj: KObject, operation: string, output: string | undefined, dry: DryRun = 'none'): string {
  const info = kindInfoOf(obj);
  const kind = kindPrefixOf(info);
  if (output === 'name') return `${kind}/${obj.metadata.name}\n`;
  const op = `${operation}${dryRunSuffix(dry)}`;
  if (info.namespaced) return `${kind} "${obj.metadata.name}" ${op} from ${obj.metadata.namespace ?? 'default'} namespace\n`;
  return `${kind} "${obj.metadata.name}" ${op}\n`;
}

/** delete.go: a --timeout of 0 waits "forever", which kubectl makes a week. */
const WEEK_MS = 168 * 3600_000;
/** How long past its grace period a deletion is awaited before the simulated learner presses Ctrl-C. */
const PATIENCE_MS = 60_000;

/**
 * Move simulated time until the object is gone (run --rm, replace --force), at most `seconds`;
 * `flush` writes what the command printed before the wait (its deletion message) when a
 * background job wakes meanwhile.
 */
export async function waitGone(env: KubectlEnv, kind: string, ns: string | undefined, name: string, seconds: number, flush?: () => void): Promise<boolean> {
  const namespaced = kindInfoOf({ kind, apiVersion: '', metadata: { name } }).namespaced;
  return (await pollUntil(env, env.cluster.now() + seconds * 1000, () => (env.cluster.store.get(kind, namespaced ? ns : undefined, name) ? undefined : true), flush)) === true;
}

/**
 * How long the deletion may take by itself, in seconds: a pod's grace period; for a namespace, or
 * an owner deleted in the foreground, the longest grace period of the pods that go first.
 */
function graceOf(env: KubectlEnv, o: KObject): number {
  const own = o.metadata.deletionGracePeriodSeconds ?? 0;
  const waitsForPods = o.kind === 'Namespace' || o.metadata.finalizers?.includes(FOREGROUND_FINALIZER);
  if (!waitsForPods) return own;
  const pods = env.cluster.store.list<Pod>('Pod', o.kind === 'Namespace' ? o.metadata.name : o.metadata.namespace);
  return Math.max(own, ...pods.map((p) => p.metadata.deletionGracePeriodSeconds ?? p.spec.terminationGracePeriodSeconds ?? 30));
}

/** `persistentvolumeclaims/data`, as kubectl wait names an object. */
function waitName(env: KubectlEnv, obj: KObject): string {
  const d = env.cluster.discovery();
  return `${d.hasKind(obj.kind) ? d.infoForKind(obj.kind).resource : obj.kind.toLowerCase()}/${obj.metadata.name}`;
}

/**
 * delete.go's wait (kubectl wait's IsDeleted under one deadline, each object in turn): until each
 * deleted object is gone — or replaced by a new one of the same name (another UID: a StatefulSet's
 * pod) — on the simulated clock. `--timeout` bounds it with wait's error. Without one kubectl
 * would wait a week; the simulation waits out the grace period and a minute more, then ends the
 * line as Ctrl-C would, saying what it was still waiting for (a deletion held by finalizers).
 */
export async function waitDeleted(env: KubectlEnv, objs: readonly KObject[], timeoutMs: number, graceSeconds: number, flush?: () => void): Promise<string> {
  const start = env.cluster.now();
  const deadline = start + (timeoutMs > 0 ? timeoutMs : WEEK_MS);
  const store = env.cluster.store;
  const live = (o: KObject): KObject | undefined => {
    const cur = store.get(o.kind, kindInfoOf(o).namespaced ? o.metadata.namespace : undefined, o.metadata.name);
    return cur && (!o.metadata.uid || cur.metadata.uid === o.metadata.uid) ? cur : undefined;
  };
  for (const o of objs) {
    const grace = Math.max(graceSeconds, graceOf(env, live(o) ?? o), 30) * 1000;
    const patience = timeoutMs > 0 ? deadline : Math.min(deadline, start + grace + PATIENCE_MS);
    const gone = await pollUntil(env, patience, () => (live(o) ? undefined : true), flush);
    if (gone) continue;
    if (timeoutMs > 0) return `error: timed out waiting for the condition on ${waitName(env, o)}\n`;
    const held = live(o)?.metadata.finalizers ?? [];
    throw new BudgetExceeded(
      'patience',
      `cka-lab: kubectl delete stopped as Ctrl-C would: ${waitName(env, o)} is still there after ${Math.round((env.cluster.now() - start) / 1000)}s${held.length ? ` (finalizers: ${held.join(', ')})` : ''}; kubectl waits up to --timeout (a week by default); --wait=false returns at once`,
    );
  }
  return '';
}

export const deleteVerb: Verb = {
  name: 'delete',
  async run(inv, env) {
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
    const { targets, typesOnly } = parseTargets(p.args, env.cluster.discovery(), env.shortNames);
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
    // delete.go DeleteResult: the builder's errors end the visit before `No resources found`
    if (objs.length === 0 && !failed && !input?.errors.length) {
      stderr += allNs || typesOnly.every((t) => !t.namespaced) ? 'No resources found\n' : `No resources found in ${ns.name} namespace.\n`;
    }
    let waitError = '';
    if (dry.mode === 'none' && p.flags['wait'] !== false && deleted.length > 0) {
      try {
        // the deletion messages go out before a background job that wakes during the wait writes
        const flush = (): void => {
          if (!env.emit) return;
          if (stderr) env.emit('stderr', stderr);
          if (stdout) env.emit('stdout', stdout);
          stderr = '';
          stdout = '';
        };
        waitError = await waitDeleted(env, deleted, durationFlag(p, 'timeout', 0), grace, flush);
      } catch (e) {
        // the learner's Ctrl-C: what was printed stays, the status is SIGINT's
        if (!(e instanceof BudgetExceeded && e.reason === 'patience')) throw e;
        return { stdout, stderr: `${stderr}${e.message}\n`, exitCode: INTERRUPTED_STATUS };
      }
    }
    for (const e of input?.errors ?? []) stderr += errorResult(e, 'delete').stderr;
    stderr += waitError;
    return { stdout, stderr, exitCode: failed || input?.errors.length || waitError ? 1 : 0 };
  },
};
