/**
 * `cka-lab kubectl ARGS…`: one kubectl command against the most recently used session (created
 * on the default fixture when there is none), from the user's own terminal, so that
 * `alias k='cka-lab kubectl'` works there. It runs as root on the workstation whatever context
 * the interactive shell was left in, and the session is saved afterwards. Files named on the
 * command line (`-f ./web.yaml`, `--from-file`, `--kubeconfig`, $KUBECONFIG) are the user's own,
 * relative to the real working directory, as kubectl reads them (host-files.ts).
 */
import { buffer } from 'node:stream/consumers';
import type { CommandResult } from '../shell/types.js';
import { runKubectl } from '../shell/kubectl/index.js';
import { writeOrder } from '../shell/commands/types.js';
import { BudgetExceeded, INTERRUPTED_STATUS } from '../shell/budget.js';
import type { CliIo } from './io.js';
import { editorFor, envOf, type Env } from './context.js';
import { openSession, withSessionLock } from './shell.js';
import { hostFiles, routedFiles } from './host-files.js';
import { primeFromCache, saveToCache, yamlCacheDir } from './yaml-cache.js';
import { resolveLang } from '../scenario/lang.js';
import { messages } from '../ui/messages.js';

/** kubectl reads stdin only for `-f -` / `--filename=-`; anything else must not block on it. */
export function readsStdin(args: readonly string[]): boolean {
  return args.some((a, i) => ((a === '-f' || a === '--filename') && args[i + 1] === '-') || a === '--filename=-' || a === '-f=-' || a === '-f-');
}

/**
 * The session a one-shot command works on: the one named by CKA_LAB_SESSION; else the session a
 * running `cka-lab practice`, `check` or `shell` has open (the most recently used when several
 * are, saying so); else the most recently saved one. `recent` is undefined when there is none yet.
 */
export function targetSession(env: Env): { name: string; recent: string | undefined; note?: string } {
  const chosen = env.io.env['CKA_LAB_SESSION'];
  if (chosen) return { name: chosen, recent: env.sessions.stamp(chosen) === undefined ? undefined : chosen };
  const open = env.sessions.openSessions();
  const first = open[0];
  if (!first) {
    const recent = env.sessions.mostRecent();
    return { name: recent ?? 'default', recent };
  }
  if (open.length === 1) return { name: first.name, recent: first.name };
  const what = (o: (typeof open)[number]): string => `"${o.name}" (${o.mark.mode}${o.mark.task ? ` ${o.mark.task}` : ''})`;
  // no --lang here: the environment's language, as for every command without the flag
  const note = `cka-lab: ${messages(resolveLang(undefined, env.io.env)).session.severalOpen(open.map(what).join(', '), first.name)}\n`;
  return { name: first.name, recent: first.name, note };
}

export async function kubectlCommand(args: string[], io: CliIo): Promise<number> {
  const env = envOf(io);
  const { name, recent, note } = targetSession(env);
  if (note) io.stderr.write(note);
  // stdin first: a command reading `-f -` must not hold the session while the user types
  const stdin = readsStdin(args) ? (await buffer(io.stdin)).toString('utf8') : '';
  // read, run and save under the session's lock, so parallel one-shots and an open shell lose nothing
  return withSessionLock(env, name, () => runOneShot(args, io, env, name, recent, stdin));
}

async function runOneShot(args: string[], io: CliIo, env: Env, name: string, recent: string | undefined, stdin: string): Promise<number> {
  const editor = editorFor(env, () => undefined);
  const { session, fixture, seed } = await openSession(env, { session: name }, editor ? { editor } : {});
  const ws = { kind: 'workstation' as const, host: session.cluster.meta.workstation };
  const changes = (): string => `${session.cluster.store.generation}/${session.cluster.hostGeneration}/${session.cluster.workstationGeneration}`;
  const before = changes();
  const sessionKubeconfig = '/root/.kube/config';
  const cwd = io.cwd;
  const sessionEnv = session.kubectlEnv({
    argv: ['kubectl', ...args],
    stdin,
    env: { HOME: '/root', USER: 'root', KUBECONFIG: io.env['KUBECONFIG'] || sessionKubeconfig, PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' },
    cwd,
    user: 'root',
    fs: session.fsOf(ws),
    location: ws,
    now: () => session.cluster.now(),
    cluster: session.cluster,
  });
  const env_ = { ...sessionEnv, fs: routedFiles(hostFiles(cwd), sessionEnv.fs, new Set([sessionKubeconfig])) };
  // the session's kubeconfig, parsed by an earlier run (yaml-cache.ts)
  const kubeconfigText = io.env['KUBECONFIG'] ? undefined : sessionEnv.fs.tryRead(sessionKubeconfig);
  const yamlCache = yamlCacheDir(io.env);
  const primed = kubeconfigText !== undefined && primeFromCache(yamlCache, kubeconfigText);
  let res: CommandResult;
  try {
    res = await runKubectl(args, env_);
  } catch (e) {
    // a wait past the simulator's limit of simulated time (shell/budget.ts) ends like Ctrl-C
    if (!(e instanceof BudgetExceeded)) throw e;
    res = { stdout: '', stderr: `${e.message}\n`, exitCode: INTERRUPTED_STATUS };
  }
  if (res.enter) res = { stdout: '', stderr: `cka-lab: ${messages(resolveLang(undefined, io.env)).session.needsTerminal}\n`, exitCode: 1 };
  session.cluster.settle();
  // with 2>&1 on a terminal, a server's warning comes before the table it precedes, as kubectl writes it
  for (const c of writeOrder(res)) (c.stream === 'stdout' ? io.stdout : io.stderr).write(c.text);
  // a read-only command (get, describe, logs…) changed nothing: skip the write and its fsync
  // (a write to the workstation's own files, such as `config set-context`, is a change too)
  if (recent === undefined || changes() !== before) env.sessions.save(name, fixture, seed, session);
  if (kubeconfigText !== undefined && !primed) saveToCache(yamlCache, kubeconfigText);
  return res.exitCode;
}
