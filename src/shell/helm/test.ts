/**
 * `helm test RELEASE [--logs] [--filter name=X|!name=X] [--timeout D]` as helm v4.1.4 runs it
 * (pkg/cmd/release_testing.go, pkg/action/release_testing.go, pkg/action/hooks.go
 * execHookWithDelayedShutdown):
 *  1. the release's last revision (any status); the test hooks that pass the filters, by weight;
 *  2. for each, in turn: delete the previous run's objects when its delete policies (default
 *     `before-hook-creation`) say so and wait until they are gone; record the run as started;
 *     create the objects (server-side apply leaves an existing one as it is; client-side create
 *     fails on it); wait (--timeout, 5m) until each is ready (hooks.ts hookStatus) or failed;
 *     record when it completed and whether it Succeeded or Failed; the first failure stops the run;
 *  3. the release record is updated with the runs (skipped hooks first), and the status printed
 *     without NOTES (statusPrinter hideNotes); --logs then prints a blank line and, per test hook,
 *     `POD LOGS: NAME`, its pod's log and a newline;
 *  4. only then are hooks deleted by policy (`hook-succeeded`, `hook-failed`), and a failed run
 *     ends with its error (`Error: resource Pod/NS/NAME not ready. status: Failed, message: pod NAME
 *     failed`) and exit status 1.
 * The hook pods run what their containers' scripts say, network tools included
 * (sim/runtime/net-tools.ts): a test that wgets a broken Service fails as it would for real.
 */
import { parse as parseYaml } from 'yaml';
import { ApiError } from '../../sim/api/errors.js';
import type { KObject, Pod } from '../../sim/api/types.js';
import type { ApiServer } from '../../sim/apiserver.js';
import { flushPod } from '../../sim/runtime/processes.js';
import { podLogs } from '../../sim/runtime/logs/index.js';
import { parseGoDuration } from '../kubectl/duration.js';
import { pollUntil } from '../kubectl/poll.js';
import { type HelmArgs, bool, flag, flags } from './args.js';
import { type HelmEnv, namespaceOf, requireApi } from './env.js';
import { byWeight, deletePolicies, filterHooks, type HookFilters, hookStatus, notReady, parseFilters } from './hooks.js';
import { splitManifests } from './manifests.js';
import { history, type Release, type ReleaseHook, updateRecord } from './release.js';
import { HelmError } from './repo.js';
import { statusText } from './status-text.js';

const NAME_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** --timeout's default; a zero timeout waits kube.DefaultStatusWatcherTimeout (30s). */
const DEFAULT_TIMEOUT_MS = 300_000;
const ZERO_TIMEOUT_MS = 30_000;

/** An error helm prints after what it already wrote to stdout (the status, the logs). */
class TestError extends HelmError {
  constructor(
    message: string,
    readonly stdout: string,
  ) {
    super(message);
  }
}

function timeoutOf(a: HelmArgs): number {
  const v = flag(a, 'timeout');
  if (v === undefined) return DEFAULT_TIMEOUT_MS;
  let ms: number;
  try {
    ms = parseGoDuration(v);
  } catch (e) {
    throw new HelmError(`invalid argument "${v}" for "--timeout" flag: ${(e as Error).message}`);
  }
  return ms === 0 ? ZERO_TIMEOUT_MS : ms;
}

/** kube.Client Build: the hook's objects, in the release namespace unless they name one. */
function objectsOf(h: ReleaseHook, namespace: string): KObject[] {
  return splitManifests(h.manifest)
    .map((d) => parseYaml(d) as KObject)
    .filter((o) => o && typeof o === 'object' && typeof o.kind === 'string')
    .map((o) => ({ ...o, metadata: { ...o.metadata, namespace: o.metadata?.namespace ?? namespace } }));
}

function iso(env: HelmEnv): string {
  return new Date(env.now()).toISOString();
}

/** Wait on the simulated clock until `check` holds or `timeoutMs` passes (false then). */
function waitFor(env: HelmEnv, timeoutMs: number, check: () => boolean): boolean {
  if (!env.cluster) return check();
  return pollUntil({ cluster: env.cluster, ...(env.budget ? { budget: env.budget } : {}) }, env.now() + timeoutMs, () => (check() ? true : undefined)) === true;
}

/** deleteHookByPolicy: delete the hook's objects when it has `policy`, and wait until they are gone. */
function deleteByPolicy(env: HelmEnv, api: ApiServer, h: ReleaseHook, policy: string, namespace: string, timeoutMs: number): string | undefined {
  if (h.kind === 'CustomResourceDefinition' || !(h.delete_policies ?? []).includes(policy)) return undefined;
  const objs = objectsOf(h, namespace);
  for (const o of objs) if (api.tryGet(o.kind, o.metadata.namespace, o.metadata.name)) api.delete(o.kind, o.metadata.namespace, o.metadata.name);
  const gone = waitFor(env, timeoutMs, () => objs.every((o) => !api.tryGet(o.kind, o.metadata.namespace, o.metadata.name)));
  if (gone) return undefined;
  const left = objs.filter((o) => api.tryGet(o.kind, o.metadata.namespace, o.metadata.name));
  return [...left.map((o) => `resource ${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name} still exists. status: Terminating, message: Resource scheduled for deletion`), 'context deadline exceeded'].join('\n');
}

/** Create a hook's objects: server-side apply keeps an existing object, a client-side create fails on it. */
function createObjects(api: ApiServer, objs: KObject[], ssa: boolean): string | undefined {
  const errs: string[] = [];
  for (const o of objs) {
    try {
      if (ssa && api.tryGet(o.kind, o.metadata.namespace, o.metadata.name)) continue;
      api.create(o);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      errs.push(e.message);
    }
  }
  return errs.length > 0 ? errs.join('\n') : undefined;
}

/** WatchUntilReady: until every object is ready or failed; the waiter's error otherwise. */
function watchUntilReady(env: HelmEnv, api: ApiServer, objs: KObject[], timeoutMs: number): string | undefined {
  const statuses = (): { o: KObject; s: ReturnType<typeof hookStatus> | undefined }[] =>
    objs.map((o) => {
      const cur = api.tryGet(o.kind, o.metadata.namespace, o.metadata.name);
      return { o, s: cur ? hookStatus(cur) : undefined };
    });
  const settled = waitFor(env, timeoutMs, () => statuses().every((x) => x.s !== undefined && x.s.status !== 'InProgress'));
  const errs = statuses()
    .filter((x) => x.s?.status !== 'Current')
    .map((x) => notReady(x.o, x.s ?? { status: 'InProgress', message: `${x.o.kind} in progress` }));
  if (!settled) errs.push('context deadline exceeded');
  return errs.length > 0 ? errs.join('\n') : undefined;
}

interface RunOutcome {
  error?: string;
  /** Deletions by policy that wait until the status (and logs) are printed. */
  shutdown(): string | undefined;
}

/** execHookWithDelayedShutdown for the `test` event. */
function runTestHooks(env: HelmEnv, api: ApiServer, rel: Release, hooks: ReleaseHook[], timeoutMs: number): RunOutcome {
  const executing = byWeight(hooks.filter((h) => (h.events ?? []).includes('test')));
  const ssa = rel.apply_method === 'ssa';
  const ns = rel.namespace;
  for (let i = 0; i < executing.length; i++) {
    const h = executing[i]!;
    h.delete_policies = deletePolicies(h);
    const before = deleteByPolicy(env, api, h, 'before-hook-creation', ns, timeoutMs);
    if (before) return { error: before, shutdown: () => undefined };
    const objs = objectsOf(h, ns);
    h.last_run = { started_at: iso(env), phase: 'Running' };
    updateRecord(api, rel);
    h.last_run.phase = 'Unknown';
    const created = createObjects(api, objs, ssa);
    if (created) {
      h.last_run = { ...h.last_run, completed_at: iso(env), phase: 'Failed' };
      return { error: `warning: Hook test ${h.path} failed: ${created}`, shutdown: () => undefined };
    }
    const err = watchUntilReady(env, api, objs, timeoutMs);
    h.last_run.completed_at = iso(env);
    if (err) {
      h.last_run.phase = 'Failed';
      return {
        error: err,
        shutdown: () => {
          deleteByPolicy(env, api, h, 'hook-failed', ns, timeoutMs);
          for (const prev of executing.slice(0, i)) {
            const e = deleteByPolicy(env, api, prev, 'hook-succeeded', ns, timeoutMs);
            if (e) return e;
          }
          return undefined;
        },
      };
    }
    h.last_run.phase = 'Succeeded';
  }
  return {
    shutdown: () => {
      for (const h of [...executing].reverse()) {
        const e = deleteByPolicy(env, api, h, 'hook-succeeded', ns, timeoutMs);
        if (e) return e;
      }
      return undefined;
    },
  };
}

/** ReleaseTesting.GetPodLogs: each test hook's pod log, by weight, as the filters select. */
function podLogsText(env: HelmEnv, api: ApiServer, rel: Release, namespace: string, f: HookFilters): { text: string; error?: string } {
  let text = '';
  for (const h of byWeight(rel.hooks ?? [])) {
    if (!(h.events ?? []).includes('test') || f.exclude.includes(h.name) || (f.include.length > 0 && !f.include.includes(h.name))) continue;
    const pod = api.tryGet<Pod>('Pod', namespace, h.name);
    if (!pod) return { text, error: `unable to get pod logs for ${h.name}: pods "${h.name}" not found` };
    const names = pod.spec.containers.map((c) => c.name);
    if (names.length !== 1) return { text, error: `unable to get pod logs for ${h.name}: a container name must be specified for pod ${h.name}, choose one of: [${names.join(' ')}]` };
    let log = '';
    if (env.cluster) {
      flushPod(env.cluster, pod);
      log = podLogs(env.cluster, pod, names[0]!, false);
    }
    text += `POD LOGS: ${h.name}\n${log}\n`;
  }
  return { text };
}

export function test(env: HelmEnv, a: HelmArgs): string {
  if (a.args.length !== 1) throw new HelmError(`"helm test" requires 1 argument\n\nUsage:  helm test [RELEASE] [flags]`);
  const name = a.args[0]!;
  const timeoutMs = timeoutOf(a);
  const filters = parseFilters(flags(a, 'filter'));
  const api = requireApi(env);
  if (name.length > 53 || !NAME_RE.test(name)) throw new HelmError(`releaseTest: Release name is invalid: ${name}`);
  const ns = namespaceOf(a);
  const rel = history(api, ns, name).at(-1);
  if (!rel) throw new HelmError('release: not found');
  const { run, skipped } = filterHooks(rel.hooks ?? [], filters);
  const outcome = runTestHooks(env, api, rel, run, timeoutMs);
  rel.hooks = [...skipped, ...run];
  updateRecord(api, rel);
  let out = statusText(rel, { hideNotes: true });
  const errors: string[] = outcome.error ? [outcome.error] : [];
  if (bool(a, 'logs')) {
    out += '\n';
    const logs = podLogsText(env, api, rel, ns, filters);
    out += logs.text;
    if (logs.error) errors.push(logs.error);
  }
  const shutdownErr = outcome.shutdown();
  if (shutdownErr && errors.length === 0) errors.push(shutdownErr);
  if (errors.length > 0) throw new TestError(errors.join('\n'), out);
  return out;
}
