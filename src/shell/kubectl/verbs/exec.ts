/**
 * `kubectl exec POD [-c CONTAINER] -- COMMAND [args…]` (k8s.io/kubectl pkg/cmd/exec/exec.go):
 * runs the command in the container through the session (env.execInPod). Since 1.35 the command
 * must follow `--`. With `-i`/`-t` and a shell alone (`-it … -- sh`) the result asks the session
 * to continue inside the container (CommandResult.enter), as the real terminal would.
 */
import type { Verb } from '../context.js';
import type { CommandResult } from '../../types.js';
import { lookupImage } from '../../../sim/images.js';
import { podContainers } from '../../../sim/api/types.js';
import { KubectlError, seeHelp } from '../errors.js';
import { str } from '../flags.js';
import { namespaceOf } from '../target.js';
import { podOfTarget, runtimeDownFor, streamingRuntimeError } from '../attachable.js';
import { hexFrom } from '../../commands/node/host.js';

/** Commands that, run with -it and nothing else, leave the user at a prompt inside the container. */
const INTERACTIVE_SHELLS = new Set(['sh', 'bash', 'ash', '/bin/sh', '/bin/bash', '/bin/ash']);

/**
 * The runtime's answer when the container image has no such program (containerd/runc wording).
 * The exec ID is the 64 hex digits containerd's CRI generates per exec (random there); here it is
 * derived from `execSeed` (pod, container, command, time), so the same commands give the same bytes.
 */
export function notFoundInContainer(name: string, execSeed: string, stderr = ''): CommandResult {
  return {
    stdout: '',
    stderr: `${stderr}error: Internal error occurred: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "${hexFrom(`exec/${execSeed}`, 64)}": OCI runtime exec failed: exec failed: unable to start container process: exec: "${name}": executable file not found in $PATH: unknown\n`,
    exitCode: 1,
  };
}

export const execVerb: Verb = {
  name: 'exec',
  async run(inv, env) {
    const p = inv.parsed;
    if (p.args.length === 0) throw new KubectlError('pod, type/name or --filename must be specified');
    if (p.args.length > 1) throw new KubectlError('exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead', seeHelp('exec'));
    if (p.dashArgs.length === 0) throw new KubectlError('you must specify at least one command for the container');
    const ns = namespaceOf(env, p);
    // any TYPE/NAME kubectl accepts: a controller's or Service's first pod; unlike logs,
    // attachablepodforobject.go prints no "Found N pods" notice
    const { pod } = podOfTarget(env, ns.name, p.args[0]!);
    const name = pod.metadata.name;
    const cname = str(p.flags, 'container');
    // podcmd.FindOrDefaultContainerByName: containers, init containers (a running sidecar), ephemeral containers
    const ct = cname ? podContainers(pod).find((c) => c.name === cname) : pod.spec.containers[0];
    if (!ct) throw new KubectlError(`container ${cname} not found in pod ${name}`);
    let stderr = '';
    if (!cname && pod.spec.containers.length > 1 && !p.flags['quiet']) stderr += `Defaulted container "${ct.name}" out of: ${pod.spec.containers.map((c) => c.name).join(', ')}\n`;
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') throw new KubectlError(`cannot exec into a container in a completed pod; current phase is ${pod.status.phase}`);
    const running = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.ephemeralContainerStatuses ?? [])].find((s) => s.name === ct.name)?.state.running;
    if (runtimeDownFor(env, pod)) throw streamingRuntimeError(env, pod);
    if (!running) throw new KubectlError(`unable to upgrade connection: container not found ("${ct.name}")`);
    if ((p.flags['stdin'] === true || p.flags['tty'] === true) && p.dashArgs.length === 1 && INTERACTIVE_SHELLS.has(p.dashArgs[0]!)) {
      const tools = lookupImage(ct.image)?.tools;
      if (tools && !tools.includes(p.dashArgs[0]!.split('/').pop()!)) return notFoundInContainer(p.dashArgs[0]!, `${ns.name}/${name}/${ct.name}/${p.dashArgs.join(' ')}/${env.cluster.now()}`, stderr);
      return { stdout: '', stderr, exitCode: 0, enter: { kind: 'pod', namespace: ns.name, pod: name, container: ct.name }, enterArgv: [...p.dashArgs] };
    }
    if (!env.execInPod) throw new KubectlError('exec is not available here');
    const r = await env.execInPod(ns.name, name, ct.name, p.dashArgs, env.stdin);
    if (r.exitCode !== 0 && !r.stderr.startsWith('error:')) return { stdout: r.stdout, stderr: `${stderr}${r.stderr}command terminated with exit code ${r.exitCode}\n`, exitCode: r.exitCode };
    return { ...r, stderr: stderr + r.stderr };
  },
};
