/**
 * `ps` inside a container, as BusyBox's ps prints it (procps/ps.c: `PID   USER     TIME  COMMAND`,
 * `%5u %-8.8s %5s %s`): the processes of the container's PID namespace. A container has its own
 * (its entrypoint is PID 1); a pod with `shareProcessNamespace` shares one with the pause process
 * as PID 1 and every running container; an ephemeral container started with `--target` joins the
 * target's, so `kubectl debug -it POD --image=busybox --target=app` shows the app's processes.
 * Options are accepted and ignored (`ps aux`, `ps -ef` print the same table), as in BusyBox. The
 * later members of ps's pipeline are listed after it, as they run beside it.
 */
import type { Container, Pod } from '../../../sim/api/types.js';
import { podContainers } from '../../../sim/api/types.js';
import type { CommandFn } from '../../types.js';
import { shellExtras } from '../types.js';
import { containerArgs } from '../node/processes.js';

function running(pod: Pod, name: string): boolean {
  const st = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? []), ...(pod.status?.ephemeralContainerStatuses ?? [])];
  return st.some((s) => s.name === name && s.state.running !== undefined);
}

/** The command lines of the processes in `self`'s PID namespace, PID 1 first. */
export function namespaceProcesses(pod: Pod, self: Container): string[] {
  const all = podContainers(pod);
  if (pod.spec['shareProcessNamespace'] === true) return ['/pause', ...all.filter((ct) => running(pod, ct.name)).flatMap((ct) => containerArgs(ct, pod))];
  const target = self['targetContainerName'] as string | undefined;
  const members = target ? [all.find((ct) => ct.name === target), self] : [self];
  return members.filter((ct): ct is Container => ct !== undefined && running(pod, ct.name)).flatMap((ct) => containerArgs(ct, pod));
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
  const lines = [...namespaceProcesses(pod, self), ...(shell ? [shell.join(' ')] : []), ctx.argv.join(' '), ...peers];
  // PIDs: 1 for the first process, then the gaps short-lived processes (runc init, the shell) leave
  let pid = 1;
  const rows = lines.map((cmd, i) => {
    if (i > 0) pid += 6 + (i % 3) * 3;
    return `${String(pid).padStart(5)} ${'root'.padEnd(8)} ${'0:00'.padStart(5)} ${cmd}\n`;
  });
  return { stdout: `PID   USER     TIME  COMMAND\n${rows.join('')}`, stderr: '', exitCode: 0 };
};
