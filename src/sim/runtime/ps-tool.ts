/**
 * `ps` inside a container, as BusyBox's ps prints it (procps/ps.c: `PID   USER     TIME  COMMAND`,
 * `%5u %-8.8s %5s %s`): the processes of the container's PID namespace. A container has its own
 * (its entrypoint is PID 1); a pod with `shareProcessNamespace` shares one with the pause process
 * as PID 1 and every running container; an ephemeral container started with `--target` joins the
 * target's, so `kubectl debug -it POD --image=busybox --target=app -- ps` shows the app's
 * processes. Options are accepted and ignored (`ps aux`, `ps -ef` print the same table), as in
 * BusyBox. Used by the interactive `ps` (shell/commands/pod/ps.ts) and by a container's own script
 * (processes.ts localTool).
 *
 * An nginx container's master forks its workers (`worker_processes auto`: one per CPU of the node,
 * runtime/nginx/program.ts): each is listed as `nginx: worker process` under the pids the master
 * logged (`start worker process 29`), as the `nginx` user (uid 101) of the master's `user nginx;`
 * when the master is root. BusyBox names that uid from the /etc/passwd of the container ps runs in,
 * so a busybox container sharing the namespace shows `101` (the Kubernetes docs' "Share Process
 * Namespace between Containers in a Pod": `14 101  0:00 nginx: worker process`).
 */
import type { Container, Pod } from '../api/types.js';
import { podContainers } from '../api/types.js';
import type { Cluster } from '../cluster.js';
import { containerArgs } from './container-args.js';
import { processIdentity, userName } from './identity.js';
import { nginxInstance } from './nginx/program.js';

/** A process ps lists: its command line and the user column (a name, or the uid the image cannot name). */
export interface PsProc {
  cmd: string;
  user: string;
  /** Its pid is this far past the previous process's (a process that logged its own pid). */
  gap?: number;
}

/** The nginx image's worker user (its Dockerfile's `useradd --uid 101 nginx`, nginx.conf `user nginx;`). */
const NGINX_WORKER_UID = 101;

/** The USER column for `uid` as BusyBox's ps in `viewer` prints it: a name from that container's /etc/passwd, else the number. */
function viewedUser(pod: Pod, viewer: Container, uid: number): string {
  return userName(processIdentity(pod, viewer), uid) ?? String(uid);
}

/**
 * The worker processes the nginx master of `ct` runs now: their uid and their pids in the
 * container's PID namespace (the master is 1); none when the container runs no nginx.
 */
export function nginxWorkerProcs(c: Cluster, pod: Pod, ct: Container): { uid: number; pids: readonly number[] } | undefined {
  const inst = nginxInstance(c, pod, ct.name);
  if (!inst?.nginx || !inst.running || inst.workers.length === 0) return undefined;
  const master = processIdentity(pod, ct).uid;
  // an unprivileged master cannot switch users: its workers run as it does
  return { uid: master === 0 ? NGINX_WORKER_UID : master, pids: inst.workers };
}

/** The workers an nginx master of `ct` runs, named as ps in `viewer` shows them. */
function nginxWorkers(c: Cluster, pod: Pod, ct: Container, viewer: Container): PsProc[] {
  const w = nginxWorkerProcs(c, pod, ct);
  if (!w) return [];
  const user = viewedUser(pod, viewer, w.uid);
  return w.pids.map((pid, i) => ({ cmd: 'nginx: worker process', user, gap: i === 0 ? pid - 1 : pid - w.pids[i - 1]! }));
}

function running(pod: Pod, name: string): boolean {
  const st = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? []), ...(pod.status?.ephemeralContainerStatuses ?? [])];
  return st.some((s) => s.name === name && s.state.running !== undefined);
}

/** The USER column of a container's processes (identity.ts). */
export function psUser(pod: Pod, ct: Container): string {
  const id = processIdentity(pod, ct);
  return userName(id) ?? String(id.uid);
}

/**
 * The processes in `self`'s PID namespace, PID 1 first. `selfRunning`: the caller is `self`'s own
 * process, so it runs whatever its status says yet (a script's first command runs before the
 * kubelet reports the container running).
 */
export function namespaceProcesses(pod: Pod, self: Container, selfRunning = false, c?: Cluster): PsProc[] {
  const all = podContainers(pod);
  const up = (ct: Container): boolean => running(pod, ct.name) || (selfRunning && ct.name === self.name);
  const of = (ct: Container): PsProc[] => [...containerArgs(ct, pod).map((cmd) => ({ cmd, user: viewedUser(pod, self, processIdentity(pod, ct).uid) })), ...(c ? nginxWorkers(c, pod, ct, self) : [])];
  // the pause image runs as 65535:65535 (its Dockerfile's USER), a uid no image names
  if (pod.spec['shareProcessNamespace'] === true) return [{ cmd: '/pause', user: '65535' }, ...all.filter(up).flatMap(of)];
  const target = self['targetContainerName'] as string | undefined;
  const members = target ? [all.find((ct) => ct.name === target), self] : [self];
  return members.filter((ct): ct is Container => ct !== undefined && up(ct)).flatMap(of);
}

/** The table: PID 1 for the first process, then the gaps short-lived processes (runc init, the shell) leave. */
export function psTable(procs: readonly PsProc[]): string {
  let pid = 1;
  const rows = procs.map(({ cmd, user }, i) => {
    if (i > 0) pid += procs[i]!.gap ?? 6 + (i % 3) * 3;
    return `${String(pid).padStart(5)} ${user.slice(0, 8).padEnd(8)} ${'0:00'.padStart(5)} ${cmd}\n`;
  });
  return `PID   USER     TIME  COMMAND\n${rows.join('')}`;
}

/**
 * The last command of the container's `sh -c SCRIPT` when the list runs it last at top level
 * (after `;`, `&&`, `||` or a newline), with its words as written: busybox ash (and dash) evaluate
 * the `-c` string with EV_EXIT, so that command is exec'd in the shell's place (shell/ash.c
 * evalcommand: "very last command in a script ... does not need forking, we can just exec it").
 */
function lastCommand(ct: Container): string | undefined {
  const argv = [...(ct.command ?? []), ...(ct.args ?? [])];
  if (!/^(\/bin\/|\/usr\/bin\/)?(sh|ash|dash)$/.test(argv[0] ?? '') || argv[1] !== '-c' || argv[2] === undefined) return undefined;
  const last = argv[2].split(/;|&&|\|\||\n/).pop()?.trim() ?? '';
  return /^[A-Za-z0-9_./][A-Za-z0-9_./:,=+@%-]*( +[A-Za-z0-9_./:,=+@%-]+)*$/.test(last) ? last.replace(/ +/g, ' ') : undefined;
}

/**
 * `ps` run by the container's own program (`sh -c 'echo hi; ps'`, or `ps` as the command itself):
 * the namespace's processes, with ps as a child of the container's shell; or in the shell's place
 * when the shell exec'd it (its command, `sh -c ps`, or the last command of the `-c` list).
 */
export function scriptPs(pod: Pod, self: Container, argv: readonly string[], c?: Cluster): string {
  const procs = namespaceProcesses(pod, self, true, c);
  const line = argv.join(' ');
  const own = containerArgs(self, pod);
  if (own.length === 1 && own[0] === line) return psTable(procs);
  if (own.length === 1 && lastCommand(self) === line) {
    // the shell's own entry (self's, the last with its command line) becomes ps
    const at = procs.map((p) => p.cmd).lastIndexOf(own[0]!);
    if (at >= 0) return psTable(procs.map((p, i) => (i === at ? { ...p, cmd: line } : p)));
  }
  return psTable([...procs, { cmd: line, user: psUser(pod, self) }]);
}
