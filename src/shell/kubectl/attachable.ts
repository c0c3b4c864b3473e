/**
 * The pod a command attaches to for `TYPE/NAME` (k8s.io/kubectl pkg/polymorphichelpers
 * attachablepodforobject.go, GetFirstPod): a pod is itself; a controller or Service picks among
 * the pods its selector matches, ready and running first, then the oldest. Shared by `logs` and
 * `exec`, with what the kubelet answers them when the pod's node has no container runtime.
 */
import type { KObject, LabelSelector, Pod } from '../../sim/api/types.js';
import { matchLabelSelector } from '../../sim/api/selectors.js';
import { resolveTypes } from './resource-args.js';
import type { KubectlEnv } from './context.js';
import { KubectlError } from './errors.js';
import { kubeletRunning, kubeletRuntimeDialError } from '../../sim/controlplane.js';
import { RUNTIME_DIAL_ERROR } from '../../sim/node/runtime-health.js';

/** Whether the pod's node runs its kubelet but not containerd: every CRI call the kubelet makes fails. */
export function runtimeDownFor(env: KubectlEnv, pod: Pod): boolean {
  const host = pod.spec.nodeName ? env.cluster.host(pod.spec.nodeName) : undefined;
  return host !== undefined && kubeletRunning(host) && !host.unitActive('containerd');
}

/**
 * exec, attach and cp while the node's containerd is down: the kubelet's findContainer lists pods
 * through the runtime and fails, streaming.WriteError answers 500 with the gRPC error, the SPDY
 * upgrade fails with it (apimachinery spdy roundtripper.go "unable to upgrade connection: %s"), and
 * the API server's stream translator reports that as an InternalError to the WebSocket client
 * (apiserver util/proxy/streamtranslator.go).
 */
export function streamingRuntimeError(env: KubectlEnv, pod: Pod): KubectlError {
  const host = pod.spec.nodeName ? env.cluster.host(pod.spec.nodeName) : undefined;
  return new KubectlError(`Internal error occurred: unable to upgrade connection: ${host ? kubeletRuntimeDialError(host) : RUNTIME_DIAL_ERROR}`);
}

/** A controller's pods, the way GetFirstPod orders them (ready and running first, then oldest); the stored pods, frozen (read only). */
export function firstPodOf(env: KubectlEnv, obj: KObject, ns: string): { pod: Pod; count: number } {
  const spec = obj['spec'] as { selector?: LabelSelector | Record<string, string> } | undefined;
  const raw = spec?.selector;
  const sel: LabelSelector | undefined =
    obj.kind === 'Service' ? { matchLabels: raw as Record<string, string> } : (raw as LabelSelector | undefined);
  const uid = obj.metadata.uid;
  // a Job created without spec.selector still owns its pods: match them through ownerReferences
  const pods = env.api
    .readList<Pod>('Pod', ns)
    .filter((p) => (sel !== undefined ? matchLabelSelector(sel, p.metadata.labels) : uid !== undefined && (p.metadata.ownerReferences ?? []).some((o) => o.uid === uid)))
    .sort((a, b) => rank(a) - rank(b) || (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? ''));
  const pod = pods[0];
  if (!pod) throw new KubectlError('timed out waiting for the condition');
  return { pod, count: pods.length };
}

function rank(p: Pod): number {
  const running = p.status?.phase === 'Running' ? 0 : 2;
  const ready = p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ? 0 : 1;
  return running + ready;
}

/** The pod named by `POD` or `TYPE/NAME` (a controller: its first pod, with the notice): the stored pod, frozen, for callers that only read it. */
export function podOfTarget(env: KubectlEnv, ns: string, target: string): { pod: Pod; notice: string } {
  const slash = target.indexOf('/');
  if (slash < 0) return { pod: env.api.read<Pod>('Pod', ns, target), notice: '' };
  const info = resolveTypes(target.slice(0, slash), env.cluster.discovery(), env.shortNames)[0]!;
  const obj = env.api.read(info.kind, ns, target.slice(slash + 1));
  if (info.kind === 'Pod') return { pod: obj as Pod, notice: '' };
  const first = firstPodOf(env, obj, ns);
  return { pod: first.pod, notice: first.count > 1 ? `Found ${first.count} pods, using pod/${first.pod.metadata.name}\n` : '' };
}


/**
 * What attach.go prints on stderr before it attaches with stdin (`run -i`, `debug -i`, `attach -i`),
 * recorded from the kubectl v1.35.2 binary: the session-recording notice, then the prompt hint.
 */
export const ATTACH_NOTICES =
  'All commands and output from this session will be recorded in container logs, including credentials and sensitive information passed through the command prompt.\n' +
  "If you don't see a command prompt, try pressing enter.\n";
