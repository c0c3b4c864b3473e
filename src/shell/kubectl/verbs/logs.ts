/**
 * `kubectl logs` (k8s.io/kubectl pkg/cmd/logs/logs.go; polymorphichelpers logsforobject.go; the
 * kubelet's validateContainerLogStatus for the BadRequest texts). `POD` or `TYPE/NAME` (a
 * controller: its first pod), `-c`, the `Defaulted container` notice for multi-container pods,
 * `--previous`, `--tail`, `--all-containers`, `--since`/`--since-time`, `--timestamps`,
 * `--limit-bytes`, `--prefix`, and `-f`: held by a terminal or run with `&` it keeps running and
 * prints each new line as the clock moves (followLive); under `timeout` it follows to the
 * deadline; elsewhere (a script) it prints what exists and returns. A Job, Deployment or other controller names its
 * first pod through its selector (a Job's pods also through their owner reference).
 */
import { podContainers, type Pod } from '../../../sim/api/types.js';
import { badRequest } from '../../../sim/api/errors.js';
import { LIVE, type LiveOutput, type ShellResult } from '../../commands/types.js';
import { podOfTarget, runtimeDownFor } from '../attachable.js';
import type { KubectlEnv, Verb } from '../context.js';
import { type Parsed, bool, int, str } from '../flags.js';
import { KubectlError, errorResult, seeHelp } from '../errors.js';
import { resolveTypes, selectObjects } from '../resource-args.js';
import { podLogLines, type LogLine } from '../logs-source.js';
import { commandNamespace } from './get.js';
import { pollUntil } from '../poll.js';


/** logs.go selectorTail: with `-l` and no `--tail`, only the last 10 lines of each container. */
const SELECTOR_TAIL = 10;

/** podcmd allContainerNames: `a, b, init (init)`. */
function allContainerNames(pod: Pod): string {
  return [...pod.spec.containers.map((c) => c.name), ...(pod.spec.initContainers ?? []).map((c) => `${c.name} (init)`), ...(pod.spec.ephemeralContainers ?? []).map((c) => `${c.name} (ephem)`)].join(', ');
}

/**
 * kubelet validateContainerLogStatus: which run to read, or the BadRequest the kubelet returns;
 * then, with the node's containerd down, kuberuntime GetContainerLogs's failed ContainerStatus
 * call ("unable to retrieve container logs for containerd://ID", BadRequest from server.go
 * getContainerLogs).
 */
function checkStatus(pod: Pod, container: string, previous: boolean, runtimeDown: boolean): void {
  validateLogStatus(pod, container, previous);
  if (!runtimeDown) return;
  const st = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.ephemeralContainerStatuses ?? [])].find((s) => s.name === container);
  const id = previous || !(st?.state.running || st?.state.terminated) ? st?.lastState?.terminated?.containerID : (st.containerID ?? st.state.terminated?.containerID);
  throw badRequest(`unable to retrieve container logs for ${id ?? ''}`);
}

function validateLogStatus(pod: Pod, container: string, previous: boolean): void {
  const statuses = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.ephemeralContainerStatuses ?? [])];
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

function tail(lines: LogLine[], n: number | undefined): LogLine[] {
  if (n === undefined || n < 0) return lines;
  if (n === 0) return [];
  return lines.slice(-n);
}

/** Go's time.ParseDuration for the units `--since` takes (`90s`, `5m`, `1h30m`, `1.5h`, `500ms`); undefined when invalid. */
function parseDuration(s: string): number | undefined {
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s|us|\u00b5s|ns)/y;
  let total = 0;
  let i = 0;
  while (i < s.length) {
    re.lastIndex = i;
    const m = re.exec(s);
    if (!m) return undefined;
    total += Number(m[1]) * { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, 'µs': 0.001, ns: 0.000001 }[m[2] as 'h']!;
    i = re.lastIndex;
  }
  return i === 0 ? undefined : total;
}

/** The kubelet's log timestamp (kuberuntime/logs timeFormatOut): RFC 3339 with nanoseconds, always nine digits. */
function logTimestamp(t: number): string {
  return new Date(t).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}

const USAGE = "expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command";

/** One log request: a pod's container (logsforobject.go: init containers, then containers). */
interface LogRequest {
  pod: Pod;
  container: string;
}

/** The requests for one pod (logsForObjectWithClient on a *corev1.Pod). */
function requestsFor(pod: Pod, container: string | undefined, all: boolean): { reqs: LogRequest[]; notice: string } {
  if (all) return { reqs: podContainers(pod).map((c) => ({ pod, container: c.name })), notice: '' };
  let notice = '';
  let name = container;
  if (name === undefined) {
    const annotated = pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'];
    const dflt = pod.spec.containers.find((c) => c.name === annotated) ?? pod.spec.containers[0];
    name = dflt?.name ?? '';
    if (podContainers(pod).length > 1 && annotated === undefined)
      notice = `Defaulted container "${name}" out of: ${allContainerNames(pod)}\n`;
  }
  if (!podContainers(pod).some((c) => c.name === name))
    throw badRequest(`container ${name} is not valid for pod ${pod.metadata.name}`);
  return { reqs: [{ pod, container: name }], notice };
}

async function runLogs(p: Parsed, env: KubectlEnv): Promise<ShellResult> {
  let container = str(p.flags, 'container');
  const selector = str(p.flags, 'selector') ?? '';
  const [target, extra] = p.args;
  // logs.go Complete: a selector replaces the POD argument
  if (target === undefined && selector === '') throw new KubectlError(USAGE, seeHelp('logs'));
  if (p.args.length === 1 && selector !== '') throw new KubectlError('only a selector (-l) or a POD name is allowed', seeHelp('logs'));
  if (p.args.length > 2) throw new KubectlError(USAGE, seeHelp('logs'));
  if (extra !== undefined) {
    if (container !== undefined) throw new KubectlError('only one of -c or an inline [CONTAINER] arg is allowed');
    container = extra;
  }
  const all = bool(p.flags, 'all-containers');
  if (all && container !== undefined) throw new KubectlError(`--all-containers=true should not be specified with container name ${container}`);
  env.api.ensureUp();
  const ns = commandNamespace(env, p);
  let stderr = '';
  const reqs: LogRequest[] = [];
  if (target !== undefined) {
    const { pod, notice } = podOfTarget(env, ns, target);
    stderr += notice;
    const r = requestsFor(pod, container, all);
    stderr += r.notice;
    reqs.push(...r.reqs);
  } else {
    const podInfo = resolveTypes('pods', env.cluster.discovery(), env.shortNames)[0]!;
    const pods = selectObjects(env.api.list<Pod>('Pod', ns), podInfo, { label: selector });
    if (pods.length === 0) stderr += `No resources found in ${ns} namespace.\n`;
    for (const pod of pods) {
      const r = requestsFor(pod, container, all);
      stderr += r.notice;
      reqs.push(...r.reqs);
    }
  }
  // logs.go RunLogs: following several streams is capped by --max-log-requests
  const max = int(p.flags, 'max-log-requests') ?? 5;
  if (bool(p.flags, 'follow') && reqs.length > 1 && reqs.length > max)
    throw new KubectlError(`you are attempting to follow ${reqs.length} log streams, but maximum allowed concurrency is ${max}, use --max-log-requests to increase the limit`);
  const tailFlag = int(p.flags, 'tail');
  const tailLines = selector !== '' && tailFlag === -1 && !p.changed.has('tail') ? SELECTOR_TAIL : tailFlag;
  const previous = bool(p.flags, 'previous');
  // logs.go Validate: one of --since and --since-time; the kubelet keeps lines at or after the time
  const sinceRaw = str(p.flags, 'since') ?? '0s';
  const sinceTime = str(p.flags, 'since-time') ?? '';
  if (p.changed.has('since') && sinceTime !== '' && sinceTime !== "''") throw new KubectlError('at most one of `sinceTime` or `sinceSeconds` may be specified');
  const sinceMs = parseDuration(sinceRaw);
  if (sinceMs === undefined) throw new KubectlError(`invalid argument "${sinceRaw}" for "--since" flag: time: invalid duration "${sinceRaw}"`, seeHelp('logs'));
  let since = sinceMs > 0 ? env.cluster.now() - Math.ceil(sinceMs / 1000) * 1000 : undefined;
  if (sinceTime !== '' && sinceTime !== "''") {
    const t = Date.parse(sinceTime);
    if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}T/.test(sinceTime)) throw new KubectlError(`parsing time "${sinceTime}" as "2006-01-02T15:04:05Z07:00": cannot parse "${sinceTime}" as "2006"`);
    since = t;
  }
  const timestamps = bool(p.flags, 'timestamps');
  const limitBytes = int(p.flags, 'limit-bytes') ?? 0;
  const startT = env.cluster.now();
  const line = (prefix: string, l: LogLine): string => `${prefix}${timestamps ? `${logTimestamp(l.t)} ` : ''}${l.text}`;
  let stdout = '';
  for (const { pod, container: name } of reqs) {
    try {
      checkStatus(pod, name, previous, runtimeDownFor(env, pod));
    } catch (e) {
      // sequentialConsumeRequest: what was already printed stays printed
      const r = errorResult(e, 'logs', stdout);
      return noticesFirst(stderr, r.stdout, r.stderr, r.exitCode);
    }
    const all = podLogLines(env.cluster, pod, name, previous).filter((l) => since === undefined || l.t >= since);
    const prefix = bool(p.flags, 'prefix') ? `[pod/${pod.metadata.name}/${name}] ` : '';
    let text = tail(all, tailLines)
      .map((l) => line(prefix, l))
      .join('');
    if (limitBytes > 0) text = text.slice(0, limitBytes);
    stdout += text;
  }
  if (bool(p.flags, 'follow') && !previous && env.background) {
    // a process that keeps running (held by the terminal, or `&`): the streams stay open and
    // each line written later is printed as the shell reports its jobs (background-output.ts)
    const render = (pod: string, l: LogLine & { container: string }): string => line(bool(p.flags, 'prefix') ? `[pod/${pod}/${l.container}] ` : '', l);
    const r = noticesFirst(stderr, stdout, '', 0);
    return { ...r, keeps: { kind: 'watch', host: env.host ?? '', [LIVE]: followLive(reqs, startT, render) } };
  }
  if (bool(p.flags, 'follow') && !previous && env.budget?.deadlineBinds()) {
    // what was printed so far goes out before a background job that wakes meanwhile writes
    const flush = (more: string): void => {
      if (!env.emit) {
        stdout += more;
        return;
      }
      if (stderr) env.emit('stderr', stderr);
      if (stdout + more) env.emit('stdout', stdout + more);
      stderr = '';
      stdout = '';
    };
    const rest = await followUntilKilled(env, reqs, startT, (pod, l) => line(bool(p.flags, 'prefix') ? `[pod/${pod}/${l.container}] ` : '', l), flush);
    stdout += rest;
  }
  return noticesFirst(stderr, stdout, '', 0);
}

/**
 * The notices (`Found N pods, using pod/NAME`, `Defaulted container …`) go to stderr while the
 * requests are made (logsforobject.go LogsForObject, before RunLogs consumes any stream), so a
 * terminal shows them before the log lines; an error that stopped the streams comes after what
 * they printed.
 */
function noticesFirst(notices: string, stdout: string, error: string, exitCode: number): ShellResult {
  const chunks: NonNullable<ShellResult['chunks']> = [];
  if (notices) chunks.push({ stream: 'stderr', text: notices });
  if (stdout) chunks.push({ stream: 'stdout', text: stdout });
  if (error) chunks.push({ stream: 'stderr', text: error });
  return { stdout, stderr: notices + error, exitCode, chunks };
}

/**
 * `logs -f` under `timeout N`: the streams stay open while the simulated clock runs to the
 * deadline, and every line written meanwhile is printed as it comes (several streams interleave
 * by time, as kubectl's parallel consumers write them). timeout.ts then reports the kill (124).
 * Without a deadline the simulation prints what is there and ends, as if Ctrl-C came at once.
 */
async function followUntilKilled(
  env: KubectlEnv,
  reqs: readonly LogRequest[],
  startT: number,
  render: (pod: string, l: LogLine & { container: string }) => string,
  flush: (more: string) => void,
): Promise<string> {
  let shown = startT;
  // the lines written after `shown` up to `now`, by time (several streams interleave)
  const fresh = (now: number): string => {
    const lines: (LogLine & { container: string; pod: string })[] = [];
    for (const { pod, container } of reqs) {
      const cur = env.api.get<Pod>('Pod', pod.metadata.namespace, pod.metadata.name);
      if (!cur || cur.metadata.uid !== pod.metadata.uid) continue;
      for (const l of podLogLines(env.cluster, cur, container, false)) if (l.t > shown && l.t <= now) lines.push({ ...l, container, pod: pod.metadata.name ?? '' });
    }
    shown = now;
    return lines
      .sort((a, b) => a.t - b.t)
      .map((l) => render(l.pod, l))
      .join('');
  };
  // a background job that wakes meanwhile writes after the lines up to its time (poll.ts)
  await pollUntil(env, startT + (env.budget?.timeLeft() ?? 0), () => undefined, () => flush(fresh(env.cluster.now())));
  return fresh(Infinity);
}

/**
 * `logs -f` as a process that keeps running: the lines its streams carry after `startT`, by time
 * (several streams interleave, as kubectl's parallel consumers write them), as of the shell's
 * cluster (another one after a reload). The streams close when every pod followed is gone or has
 * finished (Succeeded/Failed: the kubelet ends the stream with the container), and kubectl
 * exits 0. Stopped (Ctrl-Z), it reads nothing: the lines wait and come when it runs again.
 */
function followLive(reqs: readonly LogRequest[], startT: number, render: (pod: string, l: LogLine & { container: string }) => string): LiveOutput {
  let shown = startT;
  let paused = false;
  return {
    take(c) {
      if (paused) return { stdout: '', done: false };
      const now = c.now();
      const lines: (LogLine & { container: string; pod: string })[] = [];
      let open = false;
      for (const { pod, container } of reqs) {
        const cur = c.store.get<Pod>('Pod', pod.metadata.namespace, pod.metadata.name);
        if (!cur || cur.metadata.uid !== pod.metadata.uid) continue;
        for (const l of podLogLines(c, cur, container, false)) if (l.t > shown && l.t <= now) lines.push({ ...l, container, pod: pod.metadata.name ?? '' });
        if (cur.status?.phase !== 'Succeeded' && cur.status?.phase !== 'Failed') open = true;
      }
      shown = Math.max(shown, now);
      const stdout = lines
        .sort((a, b) => a.t - b.t)
        .map((l) => render(l.pod, l))
        .join('');
      return { stdout, done: !open };
    },
    stop: () => undefined,
    pause: (stopped) => {
      paused = stopped;
    },
  };
}

export const logsVerb: Verb = {
  name: 'logs',
  async run(inv, env) {
    try {
      return await runLogs(inv.parsed, env);
    } catch (e) {
      return errorResult(e, 'logs');
    }
  },
};
