/**
 * Running a release's hooks for one event, as helm v4.1.4 does for install, upgrade, rollback,
 * uninstall and test (pkg/action/hooks.go execHook, execHookWithDelayedShutdown):
 *  1. the hooks of the event, by weight then name (hooks.ts byWeight), in turn:
 *  2. a hook without delete policies gets `before-hook-creation` (hookSetDeletePolicy); with it,
 *     the previous run's objects are deleted and waited for (deleteHookByPolicy);
 *  3. the run is recorded as started (phase Running, the release record written), the objects
 *     created (server-side apply keeps an existing one; client-side create fails on it:
 *     `warning: Hook EVENT PATH failed: ERR`), then watched until ready (waiter.ts) and the
 *     run's completion and phase (Succeeded/Failed) noted; the first failure stops the event;
 *  4. deletion by policy waits for the caller (`helm test` prints logs first): after success,
 *     `hook-succeeded` hooks in reverse order; after a failure, the failed hook if `hook-failed`
 *     and the earlier ones if `hook-succeeded`. execHook runs it at once, and an error from the
 *     deletions replaces the hook's own.
 * A hook object of a kind the server does not serve fails as kube.Client Build does (`unable to
 * build kubernetes object for deleting hook PATH: resource mapping not found …`, the deletion by
 * before-hook-creation building it first). CustomResourceDefinition hooks are never deleted. The hooks' objects are created as written,
 * in the release namespace unless they name one.
 */
import { parseYamlMemo as parseYaml } from '../../util/yaml-memo.js';
import { ApiError } from '../../sim/api/errors.js';
import type { KObject } from '../../sim/api/types.js';
import type { ApiServer } from '../../sim/apiserver.js';
import { type HelmEnv, noMapping } from './env.js';
import { byWeight, deletePolicies } from './hooks.js';
import { splitManifests } from './manifests.js';
import { type Release, type ReleaseHook, updateRecord } from './release.js';
import { type WaitStrategy, waiter } from './waiter.js';

/** kube.Client Build: the objects of a manifest, in `namespace` unless they name one. */
export function hookObjects(h: ReleaseHook, namespace: string): KObject[] {
  return splitManifests(h.manifest)
    .map((d) => {
      try {
        return parseYaml(d) as KObject;
      } catch {
        return undefined;
      }
    })
    .filter((o): o is KObject => !!o && typeof o === 'object' && typeof o.kind === 'string')
    .map((o) => ({ ...o, metadata: { ...o.metadata, namespace: o.metadata?.namespace ?? namespace } }));
}

export interface HookRunOptions {
  strategy: WaitStrategy;
  timeoutMs: number;
  /** Server-side apply (an existing hook object is kept) or client-side create. */
  ssa: boolean;
}

export interface HookRun {
  error?: string;
  /** The deletions by policy, run when the caller is ready; their first error. */
  shutdown(): Promise<string | undefined>;
}

const iso = (env: HelmEnv): string => new Date(env.now()).toISOString();

const NO_SHUTDOWN = (): Promise<undefined> => Promise.resolve(undefined);

/** deleteHookByPolicy: delete the hook's objects when it has `policy`, and wait until they are gone. */
async function deleteByPolicy(env: HelmEnv, api: ApiServer, h: ReleaseHook, policy: string, namespace: string, o: HookRunOptions): Promise<string | undefined> {
  if (h.kind === 'CustomResourceDefinition' || !(h.delete_policies ?? []).includes(policy)) return undefined;
  const objs = hookObjects(h, namespace);
  const unmapped = objs.find((x) => !api.discovery().hasKind(x.kind));
  if (unmapped) return `unable to build kubernetes object for deleting hook ${h.path}: ${noMapping(unmapped)}`;
  for (const x of objs) if (api.tryGet(x.kind, x.metadata.namespace, x.metadata.name)) api.delete(x.kind, x.metadata.namespace, x.metadata.name);
  return waiter(env, api, o.strategy).waitForDelete(objs, o.timeoutMs);
}

async function deleteAllByPolicy(env: HelmEnv, api: ApiServer, hooks: readonly ReleaseHook[], policy: string, namespace: string, o: HookRunOptions): Promise<string | undefined> {
  for (const h of hooks) {
    const e = await deleteByPolicy(env, api, h, policy, namespace, o);
    if (e) return e;
  }
  return undefined;
}

/** Create a hook's objects; the API's refusals joined. */
function createObjects(api: ApiServer, objs: KObject[], ssa: boolean): string | undefined {
  const errs: string[] = [];
  for (const x of objs) {
    try {
      if (ssa && api.tryGet(x.kind, x.metadata.namespace, x.metadata.name)) continue;
      api.create(x);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      errs.push(e.message);
    }
  }
  return errs.length > 0 ? errs.join('\n') : undefined;
}

/** execHookWithDelayedShutdown for `event` over `hooks` (the release's own unless given). */
export async function execHookWithDelayedShutdown(env: HelmEnv, api: ApiServer, rel: Release, event: string, o: HookRunOptions, hooks: readonly ReleaseHook[] = rel.hooks ?? []): Promise<HookRun> {
  const executing = byWeight(hooks.filter((h) => (h.events ?? []).includes(event)));
  const ns = rel.namespace;
  for (let i = 0; i < executing.length; i++) {
    const h = executing[i]!;
    h.delete_policies = deletePolicies(h);
    const before = await deleteByPolicy(env, api, h, 'before-hook-creation', ns, o);
    if (before) return { error: before, shutdown: NO_SHUTDOWN };
    const objs = hookObjects(h, ns);
    const unmapped = objs.find((x) => !api.discovery().hasKind(x.kind));
    if (unmapped) return { error: `unable to build kubernetes object for ${event} hook ${h.path}: ${noMapping(unmapped)}`, shutdown: NO_SHUTDOWN };
    h.last_run = { started_at: iso(env), phase: 'Running' };
    updateRecord(api, rel, env.now());
    h.last_run.phase = 'Unknown';
    const created = createObjects(api, objs, o.ssa);
    if (created) {
      h.last_run = { ...h.last_run, completed_at: iso(env), phase: 'Failed' };
      return { error: `warning: Hook ${event} ${h.path} failed: ${created}`, shutdown: NO_SHUTDOWN };
    }
    const err = await waiter(env, api, o.strategy).watchUntilReady(objs, o.timeoutMs);
    h.last_run.completed_at = iso(env);
    if (err) {
      h.last_run.phase = 'Failed';
      return {
        error: err,
        shutdown: async () => {
          await deleteByPolicy(env, api, h, 'hook-failed', ns, o);
          return deleteAllByPolicy(env, api, executing.slice(0, i), 'hook-succeeded', ns, o);
        },
      };
    }
    h.last_run.phase = 'Succeeded';
  }
  return { shutdown: () => deleteAllByPolicy(env, api, [...executing].reverse(), 'hook-succeeded', ns, o) };
}

/** execHook: run the event's hooks and their deletions; the error helm reports, if any. */
export async function execHook(env: HelmEnv, api: ApiServer, rel: Release, event: string, o: HookRunOptions): Promise<string | undefined> {
  const run = await execHookWithDelayedShutdown(env, api, rel, event, o);
  const shutdownErr = await run.shutdown();
  return shutdownErr ?? run.error;
}
