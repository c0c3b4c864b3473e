/**
 * `kubectl attach (POD | TYPE/NAME) [-c CONTAINER] [-i] [-t]` (k8s.io/kubectl pkg/cmd/attach/attach.go):
 * connect to a running container's own process. With -i and a container that keeps stdin open
 * (`stdin: true`, a shell), the session continues inside it, and leaving ends that process, as
 * typing `exit` in an attached shell does. Without stdin, attach streams what the process prints
 * from now on; the simulator follows it until the container ends or a quiet simulated minute
 * passes (a real terminal waits for Ctrl-C). Texts from the kubectl v1.35.2 binary.
 */
import { podContainers, type Pod } from '../../../sim/api/types.js';
import { currentRun, flushPod, runLogLines } from '../../../sim/runtime/processes.js';
import type { ShellResult } from '../../commands/types.js';
import type { Verb } from '../context.js';
import { KubectlError } from '../errors.js';
import { bool, str } from '../flags.js';
import { namespaceOf } from '../target.js';
import { ATTACH_NOTICES, podOfTarget, runtimeDownFor, streamingRuntimeError } from '../attachable.js';
import { pollUntil } from '../poll.js';
import { WATCH_MAX_MS, WATCH_QUIET_MS } from './get-watch.js';

function runningState(pod: Pod | undefined, name: string): 'running' | 'ended' | undefined {
  const st = [...(pod?.status?.containerStatuses ?? []), ...(pod?.status?.initContainerStatuses ?? []), ...(pod?.status?.ephemeralContainerStatuses ?? [])].find((s) => s.name === name)?.state;
  if (st?.running) return 'running';
  if (st?.terminated) return 'ended';
  return undefined;
}

export const attachVerb: Verb = {
  name: 'attach',
  async run(inv, env): Promise<ShellResult> {
    const p = inv.parsed;
    if (p.args.length === 0) throw new KubectlError('at least 1 argument is required for attach');
    const ns = namespaceOf(env, p).name;
    let { pod } = podOfTarget(env, ns, p.args[0]!);
    const name = pod.metadata.name;
    // attach.go: wait (--pod-running-timeout, 1m) for the pod to leave Pending
    const ran = await pollUntil(env, env.cluster.now() + 60_000, () => {
      const cur = env.cluster.store.get<Pod>('Pod', ns, name);
      return cur && cur.status?.phase !== 'Pending' ? cur : undefined;
    });
    if (!ran) throw new KubectlError('timed out waiting for the condition');
    pod = ran;
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') throw new KubectlError(`cannot attach a container in a completed pod; current phase is ${pod.status.phase}`);
    const cname = str(p.flags, 'container');
    const quiet = bool(p.flags, 'quiet');
    const ct = cname ? podContainers(pod).find((c) => c.name === cname) : pod.spec.containers[0];
    if (!ct) throw new KubectlError(`container ${cname} not found in pod ${name}`);
    let stderr = '';
    if (!cname && podContainers(pod).length > 1 && !quiet) stderr += `Defaulted container "${ct.name}" out of: ${podContainers(pod).map((c) => c.name).join(', ')}\n`;
    let tty = bool(p.flags, 'tty');
    if (tty && ct['tty'] !== true) {
      tty = false;
      if (!quiet) stderr += `Error: Unable to use a TTY - container ${ct.name} did not allocate one\n`;
    }
    const stdin = bool(p.flags, 'stdin') && ct['stdin'] === true;
    if (runtimeDownFor(env, pod)) throw streamingRuntimeError(env, pod);
    if (runningState(pod, ct.name) !== 'running') throw new KubectlError(`unable to upgrade connection: container not found ("${ct.name}")`);
    if (stdin) {
      const ephemeral = (pod.spec.ephemeralContainers ?? []).some((c) => c.name === ct.name);
      const ref = `kubectl attach ${name} -c ${ct.name} -i -t`;
      const reattach =
        quiet || !tty || (pod.spec.restartPolicy ?? 'Always') !== 'Always'
          ? undefined
          : ephemeral
            ? `Session ended, the ephemeral container will not be restarted but may be reattached using '${ref}' if it is still running`
            : `Session ended, resume using '${ref}' command when the pod is running`;
      return { stdout: '', stderr: stderr + (quiet ? '' : ATTACH_NOTICES), exitCode: 0, enter: { kind: 'pod', namespace: ns, pod: name, container: ct.name }, attached: reattach ? { reattach } : {} };
    }
    // output only: what the process prints from now on, until it ends or a quiet minute passes
    flushPod(env.cluster, pod);
    const since = env.cluster.now();
    let last = since;
    let seen = 0;
    const start = since;
    await pollUntil(env, since + WATCH_MAX_MS, () => {
      const cur = env.cluster.store.get<Pod>('Pod', ns, name);
      if (!cur) return true;
      flushPod(env.cluster, cur);
      const run = currentRun(env.cluster, cur, ct.name);
      const fresh = run ? runLogLines(run).filter((l) => l.t >= start).length : 0;
      if (fresh > seen) {
        seen = fresh;
        last = env.cluster.now();
      }
      if (runningState(cur, ct.name) !== 'running') return true;
      return env.cluster.now() >= last + WATCH_QUIET_MS ? true : undefined;
    });
    const cur = env.cluster.store.get<Pod>('Pod', ns, name);
    const run = cur ? currentRun(env.cluster, cur, ct.name) : undefined;
    const lines = run ? runLogLines(run).filter((l) => l.t >= start) : [];
    const out = lines.filter((l) => l.stream === 'stdout').map((l) => l.text).join('');
    const err = lines.filter((l) => l.stream === 'stderr').map((l) => l.text).join('');
    return { stdout: out, stderr: stderr + err, exitCode: 0, chunks: [{ stream: 'stderr', text: stderr }, ...lines.map((l) => ({ stream: l.stream, text: l.text }))] };
  },
};
