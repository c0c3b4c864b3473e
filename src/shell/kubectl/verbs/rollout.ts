/**
 * `kubectl rollout status|history|undo|restart|pause|resume` (k8s.io/kubectl pkg/cmd/rollout/*.go)
 * for Deployments, DaemonSets and StatefulSets; what each kind supports and how is in
 * rollout-kinds.ts (pkg/polymorphichelpers). Like the resource builder with ContinueOnError,
 * undo/restart/pause/resume act on every object and report the failures at the end.
 */
import type { Deployment, KObject } from '../../../sim/api/types.js';
import { infoForKind, kindPrefix, qualifiedResource } from '../../../sim/api/registry.js';
import { LIVE, type LiveOutput, type ShellResult } from '../../commands/types.js';
import type { KubectlEnv, Verb } from '../context.js';
import { KubectlError, RawError, seeHelp } from '../errors.js';
import { int, str } from '../flags.js';
import { printObject } from '../printobj.js';
import { namespaceOf, parseTargets, PROVIDE_RESOURCES } from '../target.js';
import { parseDryRun } from '../dry-run.js';
import { durationFlag } from '../duration.js';
import { pollUntil } from '../poll.js';
import { DeadlineReached } from '../../budget.js';
import { pausePatch, restartPatch, rollback, rolloutStatus, viewHistory } from './rollout-kinds.js';

/** How long `rollout status` without --timeout waits before the simulation gives up. */
const PATIENCE_MS = 600_000;

/**
 * When the deployment controller will next look at a rollout that shows no progress
 * (pkg/controller/deployment/progress.go requeueStuckDeployment: the Progressing condition's
 * lastUpdateTime + progressDeadlineSeconds, plus a second), if it will: an unbounded
 * `rollout status` waits that long at least, so that it ends as the real one does, with
 * `deployment "x" exceeded its progress deadline`.
 */
function progressCheckAt(obj: KObject | undefined): number | undefined {
  if (obj?.kind !== 'Deployment') return undefined;
  const d = obj as Deployment;
  const pds = d.spec.progressDeadlineSeconds;
  if (d.spec.paused || pds === undefined || pds === 2147483647) return undefined;
  const cond = d.status?.conditions?.find((c) => c.type === 'Progressing');
  if (!cond || cond.reason === 'NewReplicaSetAvailable' || cond.reason === 'ProgressDeadlineExceeded') return undefined;
  const from = Date.parse(cond.lastUpdateTime ?? '');
  return Number.isNaN(from) ? undefined : from + pds * 1000 + 1000;
}

/**
 * rollout_status.go: print each new status message; with --watch, wait on the simulated clock
 * (poll.ts) until done, until a status viewer error (`exceeded its progress deadline`), or until
 * --timeout, which ends it with `error: timed out waiting for the condition` (client-go
 * UntilWithoutRetry's wait.ErrWaitTimeout). Without a timeout the real command waits on; the
 * simulation waits ten minutes, or longer while the controller has a progress check due.
 */
async function status(env: KubectlEnv, obj0: KObject, watch: boolean, revision: number, timeout: number): Promise<ShellResult> {
  let out = '';
  // the messages so far go out before a background job that wakes meanwhile writes
  const flush = (): void => {
    if (!env.emit || out === '') return;
    env.emit('stdout', out);
    out = '';
  };
  let last = '';
  let failed: string | undefined;
  let seen: KObject | undefined;
  const check = (): true | undefined => {
    // polled until done: each poll only reads the object (the stored one, frozen)
    const obj = env.api.read<KObject>(obj0.kind, obj0.metadata.namespace, obj0.metadata.name);
    seen = obj;
    let s;
    try {
      s = rolloutStatus(obj, revision);
    } catch (e) {
      if (e instanceof KubectlError) {
        failed = `error: ${e.message}\n`;
        return true;
      }
      throw e;
    }
    if (s.msg !== last) out += s.msg;
    last = s.msg;
    return s.done || !watch ? true : undefined;
  };
  if (env.background && watch) {
    // a process that keeps running (held by the terminal, or `&`): it prints where the rollout
    // stands now and each new message as the clock moves, until done, a viewer error, --timeout
    // or Ctrl-C (no simulated patience: the learner can interrupt it)
    if (check()) return failed !== undefined ? { stdout: out, stderr: failed, exitCode: 1 } : { stdout: out, stderr: '', exitCode: 0 };
    return { stdout: out, stderr: '', exitCode: 0, keeps: { kind: 'watch', host: env.host ?? '', [LIVE]: statusLive(obj0, revision, last, timeout > 0 ? env.cluster.now() + timeout : undefined) } };
  }
  let deadline = env.cluster.now() + (timeout > 0 ? timeout : PATIENCE_MS);
  let done: true | undefined;
  try {
    done = await pollUntil(env, deadline, check, flush);
    for (let i = 0; done === undefined && timeout <= 0 && i < 100; i++) {
      const at = progressCheckAt(seen);
      if (at === undefined || at <= deadline) break;
      deadline = at;
      done = await pollUntil(env, deadline, check, flush);
    }
  } catch (e) {
    // killed by a `timeout` around it: the messages it printed stay on the terminal
    if (e instanceof DeadlineReached) e.stdout = out;
    throw e;
  }
  if (failed !== undefined) return { stdout: out, stderr: failed, exitCode: 1 };
  if (done) return { stdout: out, stderr: '', exitCode: 0 };
  return { stdout: out, stderr: 'error: timed out waiting for the condition\n', exitCode: 1 };
}

/**
 * `rollout status` as a process that keeps running: each new status message as of the shell's
 * cluster (another one after a reload); it ends 0 when the rollout is done, 1 with the status
 * viewer's error or `error: timed out waiting for the condition` at `endsAt`. Stopped (Ctrl-Z),
 * it reads nothing; continued, it reports where the rollout stands then.
 */
function statusLive(obj0: KObject, revision: number, shown: string, endsAt: number | undefined): LiveOutput {
  let last = shown;
  let paused = false;
  return {
    take(c) {
      if (paused) return { stdout: '', done: false };
      const obj = c.store.get<KObject>(obj0.kind, obj0.metadata.namespace, obj0.metadata.name);
      // rollout_status.go: a Deleted event ends the watch ("to avoid cases of recreation")
      if (!obj || obj.metadata.uid !== obj0.metadata.uid) return { stdout: '', stderr: 'error: object has been deleted\n', done: true, status: 1 };
      let s;
      try {
        s = rolloutStatus(obj, revision);
      } catch (e) {
        if (e instanceof KubectlError) return { stdout: '', stderr: `error: ${e.message}\n`, done: true, status: 1 };
        throw e;
      }
      const stdout = s.msg !== last ? s.msg : '';
      last = s.msg;
      if (s.done) return { stdout, done: true };
      if (endsAt !== undefined && c.now() >= endsAt) return { stdout, stderr: 'error: timed out waiting for the condition\n', done: true, status: 1 };
      return { stdout, done: false };
    },
    stop: () => undefined,
    pause: (stopped) => {
      paused = stopped;
    },
  };
}

/** `deployment.apps/web` as the name printer writes an object. */
function nameOf(obj: KObject): string {
  return `${kindPrefix(infoForKind(obj.kind))}/${obj.metadata.name}`;
}

/** The patch error as rollout pause/resume/restart word it: `error: daemonsets.apps "x" pausing is not supported`. */
function patchError(obj: KObject, error: string): string {
  return `error: ${qualifiedResource(infoForKind(obj.kind))} "${obj.metadata.name}" ${error}`;
}

const SUBS = ['history', 'pause', 'restart', 'resume', 'status', 'undo'];

export const rolloutVerb: Verb = {
  name: 'rollout',
  async run(inv, env) {
    const p = inv.parsed;
    const sub = inv.path[1]?.name;
    if (!sub || !SUBS.includes(sub)) throw new KubectlError(`unknown command "${p.args[0] ?? ''}" for "kubectl rollout"`, seeHelp('rollout'));
    if (p.args.length === 0) throw new RawError(`error: ${PROVIDE_RESOURCES}`);
    parseDryRun(p.flags);
    const ns = namespaceOf(env, p);
    const { targets, typesOnly } = parseTargets(p.args, env.cluster.discovery(), env.shortNames);
    if (typesOnly.length) throw new KubectlError('resource(s) were provided, but no name was specified');
    let stdout = '';
    // the resource builder fetches every object before acting on any (r.Infos()), so one
    // missing name fails the whole command and changes nothing
    const objects = targets.map((t) => env.api.get<KObject>(t.info.kind, t.info.namespaced ? ns.name : undefined, t.name));
    const out = str(p.flags, 'output');
    const errors: string[] = [];
    const print = (obj: KObject, operation: string): string => printObject(obj, { output: out, operation, dryRun: 'none', generated: false });
    for (const obj of objects) {
      try {
        switch (sub) {
          case 'status':
            return await status(env, obj, p.flags['watch'] !== false, int(p.flags, 'revision') ?? 0, durationFlag(p, 'timeout', 0));
          case 'history': {
            const revision = int(p.flags, 'revision') ?? 0;
            const info = viewHistory(env, obj, revision);
            stdout += `${nameOf(obj)} ${revision > 0 ? `with revision #${revision}` : ''}\n${info}\n`;
            break;
          }
          case 'undo': {
            const result = rollback(env, obj, int(p.flags, 'to-revision') ?? 0, (next) => env.api.update(next));
            stdout += print(obj, result);
            break;
          }
          case 'restart':
          case 'pause':
          case 'resume': {
            const r = sub === 'restart' ? restartPatch(obj, env.cluster.timestamp()) : pausePatch(obj, sub === 'pause');
            if ('error' in r) errors.push(patchError(obj, r.error));
            else stdout += print(env.api.update(r.obj), sub === 'restart' ? 'restarted' : sub === 'pause' ? 'paused' : 'resumed');
            break;
          }
        }
      } catch (e) {
        if (!(e instanceof KubectlError)) throw e;
        errors.push(`error: ${e.message}`);
      }
    }
    if (errors.length) return { stdout, stderr: errors.map((e) => `${e}\n`).join(''), exitCode: 1 };
    return { stdout, stderr: '', exitCode: 0 };
  },
};
