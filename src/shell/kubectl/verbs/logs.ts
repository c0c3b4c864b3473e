/**
 * `kubectl logs` (k8s.io/kubectl pkg/cmd/logs/logs.go; polymorphichelpers logsforobject.go; the
 * kubelet's validateContainerLogStatus for the BadRequest texts). `POD` or `TYPE/NAME` (a
 * controller: its first pod), `-c`, the `Defaulted container` notice for multi-container pods,
 * `--previous`, `--tail`, `--all-containers`, and `-f`, which prints what exists and returns
 * (the simulated clock does not run while a command waits).
 */
import type { KObject, LabelSelector, Pod } from '../../../sim/api/types.js';
import { badRequest } from '../../../sim/api/errors.js';
import { matchLabelSelector } from '../../../sim/api/selectors.js';
import type { CommandResult } from '../../types.js';
import type { KubectlEnv, Verb } from '../context.js';
import { type FlagSpec, type Parsed, bool, int, parseFlags, str } from '../flags.js';
import { KubectlError, errorResult, seeHelp } from '../errors.js';
import { resolveTypes } from '../resource-args.js';
import { podLogs } from '../logs-source.js';
import { commandNamespace } from './get.js';

const LOGS_FLAGS: FlagSpec[] = [
  { name: 'container', short: 'c', type: 'string' },
  { name: 'previous', short: 'p', type: 'bool' },
  { name: 'follow', short: 'f', type: 'bool' },
  { name: 'tail', type: 'int', default: -1 },
  { name: 'all-containers', type: 'bool' },
  { name: 'prefix', type: 'bool' },
  { name: 'ignore-errors', type: 'bool' },
  { name: 'pod-running-timeout', type: 'string' },
];

/** podcmd allContainerNames: `a, b, init (init)`. */
function allContainerNames(pod: Pod): string {
  return [...pod.spec.containers.map((c) => c.name), ...(pod.spec.initContainers ?? []).map((c) => `${c.name} (init)`)].join(', ');
}

/** A controller's pods, the way GetFirstPod orders them (ready and running first, then oldest). */
function firstPodOf(env: KubectlEnv, obj: KObject, ns: string): { pod: Pod; count: number } {
  const spec = obj['spec'] as { selector?: LabelSelector | Record<string, string> } | undefined;
  const raw = spec?.selector;
  const sel: LabelSelector | undefined =
    obj.kind === 'Service' ? { matchLabels: raw as Record<string, string> } : (raw as LabelSelector | undefined);
  const pods = env.api
    .list<Pod>('Pod', ns)
    .filter((p) => sel !== undefined && matchLabelSelector(sel, p.metadata.labels))
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

/** kubelet validateContainerLogStatus: which run to read, or the BadRequest the kubelet returns. */
function checkStatus(pod: Pod, container: string, previous: boolean): void {
  const statuses = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];
  const st = statuses.find((s) => s.name === container);
  const podName = pod.metadata.name;
  const where = `container "${container}" in pod "${podName}"`;
  if (!pod.spec.nodeName) return;
  if (previous) {
    if (!st?.lastState?.terminated) throw badRequest(`previous terminated container "${container}" in pod "${podName}" not found`);
    return;
  }
  if (!st) throw badRequest(`${where} is waiting to start - no logs yet`);
  if (st.state.running || st.state.terminated || st.lastState?.terminated) return;
  const reason = st.state.waiting?.reason ?? '';
  if (reason === 'ErrImagePull') throw badRequest(`${where} is waiting to start: image can't be pulled`);
  if (reason === 'ImagePullBackOff') throw badRequest(`${where} is waiting to start: trying and failing to pull image`);
  if (st.state.waiting) throw badRequest(`${where} is waiting to start: ${reason}`);
  throw badRequest(`${where} is waiting to start - no logs yet`);
}

function tail(text: string, n: number | undefined): string {
  if (n === undefined || n < 0) return text;
  if (n === 0) return '';
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.slice(-n).map((l) => `${l}\n`).join('');
}

const USAGE = "expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command";

async function runLogs(argv: string[], env: KubectlEnv, global: Parsed): Promise<CommandResult> {
  const p = parseFlags(argv, LOGS_FLAGS);
  let container = str(p.flags, 'container');
  const [target, extra] = p.args;
  if (target === undefined) throw new KubectlError(USAGE, seeHelp('logs'));
  if (extra !== undefined) {
    if (container !== undefined || p.args.length > 2) throw new KubectlError(USAGE, seeHelp('logs'));
    container = extra;
  }
  env.api.ensureUp();
  const ns = commandNamespace(env, p, global);
  let stderr = '';
  let pod: Pod;
  const slash = target.indexOf('/');
  if (slash < 0) pod = env.api.get<Pod>('Pod', ns, target);
  else {
    const infos = resolveTypes(target.slice(0, slash));
    const info = infos[0]!;
    const obj = env.api.get(info.kind, ns, target.slice(slash + 1));
    if (info.kind === 'Pod') pod = obj as Pod;
    else {
      const first = firstPodOf(env, obj, ns);
      pod = first.pod;
      if (first.count > 1) stderr += `Found ${first.count} pods, using pod/${pod.metadata.name}\n`;
    }
  }
  const previous = bool(p.flags, 'previous');
  const names = bool(p.flags, 'all-containers') ? [...(pod.spec.initContainers ?? []), ...pod.spec.containers].map((c) => c.name) : [];
  if (names.length === 0) {
    if (container === undefined) {
      const annotated = pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'];
      const dflt = pod.spec.containers.find((c) => c.name === annotated) ?? pod.spec.containers[0];
      container = dflt?.name ?? '';
      if (pod.spec.containers.length + (pod.spec.initContainers ?? []).length > 1 && annotated === undefined)
        stderr += `Defaulted container "${container}" out of: ${allContainerNames(pod)}\n`;
    }
    if (![...pod.spec.containers, ...(pod.spec.initContainers ?? [])].some((c) => c.name === container))
      throw badRequest(`container ${container} is not valid for pod ${pod.metadata.name}`);
    names.push(container);
  }
  let stdout = '';
  for (const name of names) {
    checkStatus(pod, name, previous);
    const text = tail(podLogs(env.cluster, pod, name, previous), int(p.flags, 'tail'));
    stdout += bool(p.flags, 'prefix') ? text.replace(/^(?=.)/gm, `[pod/${pod.metadata.name}/${name}] `) : text;
  }
  return { stdout, stderr, exitCode: 0 };
}

export const logsVerb: Verb = {
  name: 'logs',
  short: 'Print the logs for a container in a pod',
  async run(argv, env, global) {
    try {
      return await runLogs(argv, env, global);
    } catch (e) {
      return errorResult(e, 'logs');
    }
  },
};
