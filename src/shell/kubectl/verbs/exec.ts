/**
 * `kubectl exec POD [-c CONTAINER] -- COMMAND [args…]` (k8s.io/kubectl pkg/cmd/exec/exec.go):
 * runs the command in the container through the session (env.execInPod). Since 1.35 the command
 * must follow `--`. `-it … -- sh` (an interactive shell) is handled by the session itself.
 */
import type { Pod } from '../../../sim/api/types.js';
import type { Verb } from '../context.js';
import { KubectlError, seeHelp } from '../errors.js';
import { str } from '../flags.js';
import { namespaceOf } from '../target.js';

export const execVerb: Verb = {
  name: 'exec',
  async run(inv, env) {
    const p = inv.parsed;
    if (p.args.length === 0) throw new KubectlError('pod, type/name or --filename must be specified');
    if (p.args.length > 1) throw new KubectlError('exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead', seeHelp('exec'));
    if (p.dashArgs.length === 0) throw new KubectlError('you must specify at least one command for the container');
    const ns = namespaceOf(env, p);
    let name = p.args[0]!;
    const slash = name.indexOf('/');
    if (slash >= 0) {
      const type = name.slice(0, slash).toLowerCase();
      name = name.slice(slash + 1);
      if (['deploy', 'deployment', 'deployments'].includes(type)) {
        const pods = env.api.list<Pod>('Pod', ns.name).filter((po) => po.metadata.name.startsWith(`${name}-`) && po.status?.phase === 'Running');
        if (!pods[0]) throw new KubectlError(`cannot exec into a container in a completed pod; current phase is Pending`);
        name = pods[0].metadata.name;
      }
    }
    const pod = env.api.get<Pod>('Pod', ns.name, name);
    const cname = str(p.flags, 'container');
    // podcmd.FindOrDefaultContainerByName: containers, then init containers (a running sidecar)
    const ct = cname ? [...pod.spec.containers, ...(pod.spec.initContainers ?? [])].find((c) => c.name === cname) : pod.spec.containers[0];
    if (!ct) throw new KubectlError(`container ${cname} not found in pod ${name}`);
    let stderr = '';
    if (!cname && pod.spec.containers.length > 1 && !p.flags['quiet']) stderr += `Defaulted container "${ct.name}" out of: ${pod.spec.containers.map((c) => c.name).join(', ')}\n`;
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') throw new KubectlError(`cannot exec into a container in a completed pod; current phase is ${pod.status.phase}`);
    const running = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])].find((s) => s.name === ct.name)?.state.running;
    if (!running) throw new KubectlError(`unable to upgrade connection: container not found ("${ct.name}")`);
    if (!env.execInPod) throw new KubectlError('exec is not available here');
    const r = await env.execInPod(ns.name, name, ct.name, p.dashArgs, env.stdin);
    if (r.exitCode !== 0 && !r.stderr.startsWith('error:')) return { stdout: r.stdout, stderr: `${stderr}${r.stderr}command terminated with exit code ${r.exitCode}\n`, exitCode: r.exitCode };
    return { ...r, stderr: stderr + r.stderr };
  },
};
