/**
 * `helm test RELEASE [--logs] [--filter name=X|!name=X] [--timeout D]` as helm v4.1.4 runs it
 * (pkg/cmd/release_testing.go, pkg/action/release_testing.go, pkg/action/hooks.go
 * execHookWithDelayedShutdown):
 *  1. the release's last revision (any status); the test hooks that pass the filters;
 *  2. they run as every hook event runs (hook-exec.ts) with the watcher strategy and --timeout
 *     (5m; 0 is the watcher's 30 s);
 *  3. the release record is updated with the runs (skipped hooks first), and the status printed
 *     without NOTES (statusPrinter hideNotes); --logs then prints a blank line and, per test hook,
 *     `POD LOGS: NAME`, its pod's log and a newline;
 *  4. only then are hooks deleted by policy (`hook-succeeded`, `hook-failed`), and a failed run
 *     ends with its error (`Error: resource Pod/NS/NAME not ready. status: Failed, message: pod NAME
 *     failed`) and exit status 1.
 * The hook pods run what their containers' scripts say, network tools included
 * (sim/runtime/net-tools.ts): a test that wgets a broken Service fails as it would for real.
 */
import type { Pod } from '../../sim/api/types.js';
import type { ApiServer } from '../../sim/apiserver.js';
import { flushPod } from '../../sim/runtime/processes.js';
import { podLogs } from '../../sim/runtime/logs/index.js';
import { type HelmArgs, bool, flags } from './args.js';
import { type HelmEnv, namespaceOf, requireApi } from './env.js';
import { execHookWithDelayedShutdown } from './hook-exec.js';
import { byWeight, filterHooks, type HookFilters, parseFilters } from './hooks.js';
import { timeoutOf } from './options.js';
import { history, type Release, updateRecord, validReleaseName } from './release.js';
import { HelmError, withStdout } from './repo.js';
import { statusText } from './status-text.js';

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

export async function test(env: HelmEnv, a: HelmArgs): Promise<string> {
  if (a.args.length !== 1) throw new HelmError(`"helm test" requires 1 argument\n\nUsage:  helm test [RELEASE] [flags]`);
  const name = a.args[0]!;
  const timeoutMs = timeoutOf(a);
  const filters = parseFilters(flags(a, 'filter'));
  const api = requireApi(env);
  if (!validReleaseName(name)) throw new HelmError(`releaseTest: Release name is invalid: ${name}`);
  const ns = namespaceOf(a);
  const rel = history(api, ns, name).at(-1);
  if (!rel) throw new HelmError('release: not found');
  const { run, skipped } = filterHooks(rel.hooks ?? [], filters);
  // ReleaseTesting.Run: the watcher strategy, server-side apply as the release was applied
  const outcome = await execHookWithDelayedShutdown(env, api, rel, 'test', { strategy: 'watcher', timeoutMs, ssa: rel.apply_method === 'ssa' }, run);
  rel.hooks = [...skipped, ...run];
  updateRecord(api, rel, env.now());
  let out = statusText(rel, { hideNotes: true });
  const errors: string[] = outcome.error ? [outcome.error] : [];
  if (bool(a, 'logs')) {
    out += '\n';
    const logs = podLogsText(env, api, rel, ns, filters);
    out += logs.text;
    if (logs.error) errors.push(logs.error);
  }
  const shutdownErr = await outcome.shutdown();
  if (shutdownErr && errors.length === 0) errors.push(shutdownErr);
  if (errors.length > 0) throw withStdout(new HelmError(errors.join('\n')), out);
  return out;
}
