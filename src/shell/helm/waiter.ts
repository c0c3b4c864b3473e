/**
 * helm v4.1.4's waiters on the simulated clock (pkg/kube/client.go GetWaiterWithOptions):
 *  - `watcher` (pkg/kube/statuswait.go statusWaiter): event-driven; Wait reads kstatus
 *    (kstatus.ts), WaitWithJobs reads Jobs with helm's job reader (hooks.ts hookStatus) and
 *    WatchUntilReady reads only Jobs and Pods that way (anything else is current). It waits until
 *    every resource that has not Failed is Current, then reports each one that is not
 *    (`resource KIND/NS/NAME not ready. status: S, message: M`) and, past the deadline,
 *    `context deadline exceeded`, joined by newlines (errors.Join). A zero timeout is 30 s.
 *    WaitForDelete waits until every resource is gone (`… still exists. status: …`);
 *  - `legacy` (pkg/kube/wait.go legacyWaiter): polls every 2 s from the start with ready.ts; a
 *    timeout is `context deadline exceeded`; hook Jobs and Pods are watched until they finish
 *    (`pod NAME failed`, `job NAME failed: REASON`, `timed out waiting for the condition`);
 *  - `hookOnly` (the default): waits for hooks as `watcher` does and for nothing else.
 * A wait moves the cluster's clock to the event that ends it (or the deadline) and no further.
 */
import type { ApiServer } from '../../sim/apiserver.js';
import type { KObject } from '../../sim/api/types.js';
import { pollUntil } from '../kubectl/poll.js';
import type { HelmEnv } from './env.js';
import { hookStatus } from './hooks.js';
import { computeStatus, type KResult, notReadyText } from './kstatus.js';
import { isReady } from './ready.js';

export type WaitStrategy = 'watcher' | 'legacy' | 'hookOnly';

const ZERO_TIMEOUT_MS = 30_000;
const LEGACY_INTERVAL_MS = 2_000;
const LEGACY_RETRIES = 30;

/** Move the clock until `check` holds or the deadline passes; whether it held. */
async function until(env: HelmEnv, deadline: number, check: () => boolean): Promise<boolean> {
  if (!env.cluster) return check();
  // the shell's one foreground wait: a background job due meanwhile runs at its time, after
  // what helm wrote before the wait (its log lines so far)
  return (await pollUntil({ cluster: env.cluster, ...(env.budget ? { budget: env.budget } : {}), ...(env.jobs ? { jobs: env.jobs } : {}) }, deadline, () => (check() ? true : undefined), env.flushLog)) === true;
}

/** wait.PollUntilContextCancel(ctx, 2s, immediate): `step` at each tick before the deadline until it settles. */
async function poll(env: HelmEnv, deadline: number, step: () => { done: boolean; error?: string }): Promise<string | undefined> {
  const start = env.now();
  for (let t = start; t < deadline; t += LEGACY_INTERVAL_MS) {
    if (t > env.now()) await until(env, t, () => false);
    const r = step();
    if (r.done || r.error) return r.error;
  }
  await until(env, deadline, () => false);
  return 'context deadline exceeded';
}

const current = (api: ApiServer, o: KObject): KObject | undefined => api.tryGet(o.kind, o.metadata.namespace, o.metadata.name);

/** statusWaiter.wait: until all but the Failed are Current; the resources short of Current, then the deadline. */
async function watch(env: HelmEnv, api: ApiServer, objs: KObject[], timeoutMs: number, read: (o: KObject | undefined) => KResult): Promise<string | undefined> {
  const statuses = (): KResult[] => objs.map((o) => read(current(api, o)));
  const settled = await until(env, env.now() + (timeoutMs || ZERO_TIMEOUT_MS), () => statuses().every((s) => s.status === 'Current' || s.status === 'Failed'));
  const final = statuses();
  const errs = objs.flatMap((o, i) => (final[i]!.status === 'Current' ? [] : [notReadyText(o, final[i]!)]));
  if (!settled) errs.push('context deadline exceeded');
  return errs.length > 0 ? errs.join('\n') : undefined;
}

/** The hook readers: helm's Job and Pod readers, everything else current; NotFound while missing. */
function hookRead(o: KObject | undefined): KResult {
  return o ? hookStatus(o) : { status: 'NotFound', message: 'Resource not found' };
}

/** legacyWaiter.waitForResources: IsReady for each resource in turn at every tick. */
function legacyWait(env: HelmEnv, api: ApiServer, objs: KObject[], timeoutMs: number, withJobs: boolean): Promise<string | undefined> {
  const errors = objs.map(() => 0);
  return poll(env, timeoutMs === 0 ? Infinity : env.now() + timeoutMs, () => {
    for (let i = 0; i < objs.length; i++) {
      const r = isReady(api, objs[i]!, withJobs);
      if (r.error && r.retryable) {
        errors[i]! += 1;
        return errors[i]! > LEGACY_RETRIES ? { done: true, error: r.error } : { done: false };
      }
      errors[i] = 0;
      if (!r.ready) return { done: false, ...(r.error ? { error: r.error } : {}) };
    }
    return { done: true };
  });
}

/** legacyWaiter.watchUntilReady for each hook Job and Pod: until it finished, or failed. */
async function legacyWatch(env: HelmEnv, api: ApiServer, objs: KObject[], timeoutMs: number): Promise<string | undefined> {
  const errs: string[] = [];
  for (const o of objs.filter((x) => x.kind === 'Job' || x.kind === 'Pod')) {
    let err: string | undefined;
    const done = await until(env, timeoutMs === 0 ? Infinity : env.now() + timeoutMs, () => {
      const cur = current(api, o);
      if (!cur) return false;
      const st = cur.status as { phase?: string; conditions?: { type: string; status: string; reason?: string }[] } | undefined;
      if (o.kind === 'Pod') {
        if (st?.phase === 'Failed') err = `pod ${o.metadata.name} failed`;
        return st?.phase === 'Succeeded' || st?.phase === 'Failed';
      }
      const c = (st?.conditions ?? []).find((x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True');
      if (c?.type === 'Failed') err = `job ${o.metadata.name} failed: ${c.reason ?? ''}`;
      return c !== undefined;
    });
    if (!done) err = 'timed out waiting for the condition';
    if (err) errs.push(err);
  }
  return errs.length > 0 ? errs.join('\n') : undefined;
}

export interface Waiter {
  /** Wait / WaitWithJobs on the release's resources. */
  wait(objs: KObject[], timeoutMs: number, withJobs: boolean): Promise<string | undefined>;
  /** WatchUntilReady on a hook's resources. */
  watchUntilReady(objs: KObject[], timeoutMs: number): Promise<string | undefined>;
  /** WaitForDelete. */
  waitForDelete(objs: KObject[], timeoutMs: number): Promise<string | undefined>;
}

export function waiter(env: HelmEnv, api: ApiServer, strategy: WaitStrategy): Waiter {
  const waitForDelete = async (objs: KObject[], timeoutMs: number): Promise<string | undefined> => {
    const gone = await until(env, env.now() + (timeoutMs || ZERO_TIMEOUT_MS), () => objs.every((o) => !current(api, o)));
    if (gone) return undefined;
    const left = objs.filter((o) => current(api, o));
    return [...left.map((o) => notReadyText(o, computeStatus(current(api, o), env.now()), 'still exists')), 'context deadline exceeded'].join('\n');
  };
  if (strategy === 'legacy') {
    return {
      wait: (objs, timeoutMs, withJobs) => legacyWait(env, api, objs, timeoutMs, withJobs),
      watchUntilReady: (objs, timeoutMs) => legacyWatch(env, api, objs, timeoutMs),
      waitForDelete: (objs, timeoutMs) => poll(env, timeoutMs === 0 ? Infinity : env.now() + timeoutMs, () => ({ done: objs.every((o) => !current(api, o)) })),
    };
  }
  const watchUntilReady = (objs: KObject[], timeoutMs: number): Promise<string | undefined> => watch(env, api, objs, timeoutMs, hookRead);
  if (strategy === 'hookOnly') return { wait: () => Promise.resolve(undefined), watchUntilReady, waitForDelete: () => Promise.resolve(undefined) };
  return {
    wait: (objs, timeoutMs, withJobs) =>
      watch(
        env,
        api,
        objs.filter((o) => !(o.kind === 'Deployment' && (current(api, o)?.spec as { paused?: boolean } | undefined)?.paused)),
        timeoutMs,
        (o) => (withJobs && o?.kind === 'Job' ? hookStatus(o) : computeStatus(o, env.now())),
      ),
    watchUntilReady,
    waitForDelete,
  };
}
