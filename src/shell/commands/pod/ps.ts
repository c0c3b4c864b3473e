/**
 * `ps` inside a container, as BusyBox's ps prints it (procps/ps.c: `PID   USER     TIME  COMMAND`,
 * `%5u %-8.8s %5s %s`): the processes of the container's PID namespace. A container has its own
 * (its entrypoint is PID 1); a pod with `shareProcessNamespace` shares one with the pause process
 * as PID 1 and every running container; an ephemeral container started with `--target` joins the
 * target's, so `kubectl debug -it POD --image=busybox --target=app` shows the app's processes.
 * Options are accepted and ignored (`ps aux`, `ps -ef` print the same table), as in BusyBox. The
 * later members of ps's pipeline are listed after it, as they run beside it. A container's own
 * command runs it too (script-tools.ts): `kubectl debug POD --image=busybox --target=app -- ps`.
 */
import type { Container, Pod } from '../../../sim/api/types.js';
import { podContainers } from '../../../sim/api/types.js';
import type { CommandFn } from '../../types.js';
import { shellExtras } from '../types.js';
import { containerArgs } from '../node/processes.js';
import { processIdentity, userName } from '../../../sim/runtime/identity.js';

function running(pod: Pod, name: string): boolean {
  const st = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? []), ...(pod.status?.ephemeralContainerStatuses ?? [])];
  return st.some((s) => s.name === name && s.state.running !== undefined);
}

/** A process ps lists: its command line and the user column (a name, or the uid the image cannot name). */
interface Proc {
  cmd: string;
  user: string;
}

/** The USER column of a container's processes (sim/runtime/identity.ts). */
function userOf(pod: Pod, ct: Container): string {
  const id = processIdentity(pod, ct);
  return userName(id) ?? String(id.uid);
}

/** The processes in `self`'s PID namespace, PID 1 first. */
export function namespaceProcesses(pod: Pod, self: Container): Proc[] {
  const all = podContainers(pod);
  const of = (ct: Container): Proc[] => containerArgs(ct, pod).map((cmd) => ({ cmd, user: userOf(pod, ct) }));
  // ps runs inside `self`, so it runs, whatever its status says yet (a container's own command
  // runs ps as it starts: `sh -c "echo hi; ps"`)
  const alive = (ct: Container): boolean => ct === self || running(pod, ct.name);
  // the pause image runs as 65535:65535 (its Dockerfile's USER), a uid no image names
  if (pod.spec['shareProcessNamespace'] === true) return [{ cmd: '/pause', user: '65535' }, ...all.filter(alive).flatMap(of)];
  const target = self['targetContainerName'] as string | undefined;
  const members = target ? [all.find((ct) => ct.name === target), self] : [self];
  return members.filter((ct): ct is Container => ct !== undefined && alive(ct)).flatMap(of);
}

export const ps: CommandFn = (ctx) => {
  const loc = ctx.location;
  const pod = loc.kind === 'pod' ? ctx.cluster?.store.get<Pod>('Pod', loc.namespace, loc.pod) : undefined;
  const self = pod && loc.kind === 'pod' ? podContainers(pod).find((ct) => ct.name === loc.container) : undefined;
  if (!pod || !self) return { stdout: '', stderr: `${ctx.argv[0]}: command not found\n`, exitCode: 127 };
  // the later members of its pipeline run too (`ps | grep sleep` lists the grep)
  const peers = (shellExtras(ctx).pipelinePeers ?? []).map((argv) => argv.join(' '));
  // the shell `kubectl exec -it POD -- sh` started runs in the container too
  const shell = shellExtras(ctx).execShell;
  // what the exec started runs as the container's user
  const me = userOf(pod, self);
  const procs = namespaceProcesses(pod, self);
  // a container whose command is ps itself (`kubectl debug … -- ps`, `sh -c ps` execs it): that process is this ps
  const own = !shell && procs[procs.length - 1]?.cmd === ctx.argv.join(' ');
  const lines = [...procs, ...[...(shell ? [shell.join(' ')] : []), ...(own ? [] : [ctx.argv.join(' ')]), ...peers].map((cmd) => ({ cmd, user: me }))];
  // PIDs: 1 for the first process, then the gaps short-lived processes (runc init, the shell) leave
  let pid = 1;
  const rows = lines.map(({ cmd, user }, i) => {
    if (i > 0) pid += 6 + (i % 3) * 3;
    return `${String(pid).padStart(5)} ${user.slice(0, 8).padEnd(8)} ${'0:00'.padStart(5)} ${cmd}\n`;
  });
  return { stdout: `PID   USER     TIME  COMMAND\n${rows.join('')}`, stderr: '', exitCode: 0 };
};
