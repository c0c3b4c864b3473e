/**
 * The kubelet's prober (k8s.io/kubernetes pkg/kubelet/prober and pkg/probe): what one probe
 * answers, and the per-container workers that run the startup, liveness and readiness probes on
 * their own tickers and turn the answers into the container's `started` and `ready` and into
 * kills.
 *
 * A worker (prober/worker.go) starts when the kubelet takes the pod on and probes at once, then
 * every periodSeconds, always on that ticker: its ticks are `origin + k·period`, not counted from
 * the container's start. Each tick (doProbe) does nothing while the container has no running
 * instance, sets the result to the probe type's initial value when it sees a new container ID
 * (readiness Failure, liveness Success, startup Unknown) and resumes a worker on hold, skips while
 * fewer than initialDelaySeconds whole seconds have passed since the container started, and
 * gates on startup: liveness and readiness wait until the container has started, the startup
 * probe stops once it has. A probe that errors (a named port that does not exist) leaves the
 * result as it was. Otherwise the same result must repeat failureThreshold (successThreshold)
 * times in a row before it is set; a liveness or startup Failure puts the worker on hold until a
 * new container appears, and the kubelet kills the container (kuberuntime_manager.go
 * computePodActions, `Container NAME failed liveness probe, will be restarted`). Every probe that
 * does not succeed records a Warning `Unhealthy` event (prober.go probe), which the event recorder
 * aggregates into `(xN over …)`.
 *
 * The kubelet's status update asks the readiness worker for an immediate run when the container
 * is not ready yet (prober_manager.go UpdatePodStatus, manualTriggerCh): the sync that starts a
 * container, and the one a startup success causes, probe readiness at once.
 */
import type { Cluster } from '../cluster.js';
import type { Container, ContainerStatus, Pod, Probe } from '../api/types.js';
import { siteAnswer, type ImageInfo, type Listener } from '../images.js';
import type { ExecSyncResult } from '../runtime/processes.js';
import { remember } from '../../util/bounded-map.js';

/**
 * A probe's outcome as pkg/probe reports it: success, failure with the prober's output, or
 * unknown when the probe could not even be built (an error; the worker then throws the result
 * away, so the container keeps its previous readiness).
 */
export type ProbeResult = { result: 'success' | 'failure'; output: string } | { result: 'unknown'; output: ''; error: string };

const SUCCESS: ProbeResult = { result: 'success', output: '' };
const failure = (output: string): ProbeResult => ({ result: 'failure', output });

/**
 * A probe's port as pkg/probe/util.go ResolveContainerPort resolves it: a number as is, a name
 * through the container's ports (findPortByName), else the error `port "NAME" not found`.
 */
export function resolveContainerPort(port: number | string, container: Container): { port: number } | { error: string } {
  let n: number;
  if (typeof port === 'number') n = port;
  else {
    const named = container.ports?.find((cp) => cp.name === port);
    if (!named) return { error: `port ${JSON.stringify(port)} not found` };
    n = named.containerPort;
  }
  return n > 0 && n < 65536 ? { port: n } : { error: `invalid port number: ${n}` };
}

/** Go's time.Duration String for whole seconds: 1s, 1m0s. */
function goSeconds(s: number): string {
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${s % 60}s`;
}

/**
 * Run a probe the way the kubelet's prober does (pkg/kubelet/prober/prober.go runProbe): an HTTP
 * GET or a TCP connect to the pod IP, a gRPC health check, or a command in the container. A
 * failure carries the output the `Unhealthy` event shows (pkg/probe/http/http.go: "HTTP probe
 * failed with statuscode: 404", `Get "http://IP:PORT/path": dial tcp IP:PORT: connect: connection
 * refused`; pkg/probe/tcp/tcp.go: `dial tcp IP:PORT: connect: connection refused`). What listens
 * and what it answers is `listenerAt` (the packet path's containerListener: nginx's loaded
 * configuration, else the image's site), asked through siteAnswer as curl asks it; 200–399 is
 * success (http.go DoHTTPProbe), anything else `HTTP probe failed with statuscode: N`.
 *
 * gRPC (pkg/probe/grpc/grpc.go): the dial blocks until the connection is ready or timeoutSeconds
 * pass, so a port where nothing listens, or where a server that does not speak gRPC listens, is
 * `timeout: failed to connect service "IP:PORT" within 1s: context deadline exceeded`; a gRPC
 * server without the health service answers Unimplemented, an unknown service name NotFound, and
 * a status other than SERVING is `service unhealthy (responded with "NOT_SERVING")`.
 *
 * exec (pkg/probe/exec/exec.go): `exec` runs the command in the container at the probe's time
 * (runtime/processes.ts execSync); exit 0 is success, any other code a failure whose output is
 * what the command printed; a command that outlives timeoutSeconds fails with the CRI client's
 * `command "…" timed out` (remote_runtime.go ExecSync, ExecProbeTimeout).
 */
export function runProbe(
  probe: Probe | undefined,
  container: Container,
  image: ImageInfo,
  podIP: string,
  exec: ((argv: readonly string[], timeoutMs: number) => ExecSyncResult) | undefined,
  listenerAt: (port: number) => Listener | true | undefined = (port) => image.listeners.find((x) => x.port === port && x.protocol === 'TCP'),
): ProbeResult {
  if (!probe) return SUCCESS;
  const timeoutSeconds = probe.timeoutSeconds ?? 1;
  if (probe.httpGet) {
    const resolved = resolveContainerPort(probe.httpGet.port, container);
    if ('error' in resolved) return { result: 'unknown', output: '', error: resolved.error };
    const port = resolved.port;
    const path = probe.httpGet.path ?? '/';
    const scheme = (probe.httpGet.scheme ?? 'HTTP').toLowerCase();
    const l = listenerAt(port);
    if (!l) return failure(`Get "${scheme}://${podIP}:${port}${path}": dial tcp ${podIP}:${port}: connect: connection refused`);
    if (l === true || !l.http) return failure(`Get "${scheme}://${podIP}:${port}${path}": EOF`);
    const q = path.indexOf('?');
    const host = probe.httpGet.host ?? podIP;
    const answer = siteAnswer(l.http, q >= 0 ? path.slice(0, q) : path, { host: `${host}:${port}`, method: 'GET', ...(q >= 0 ? { query: path.slice(q + 1) } : {}) });
    if (!answer) return failure(`Get "${scheme}://${podIP}:${port}${path}": EOF`);
    return answer.status >= 200 && answer.status < 400 ? SUCCESS : failure(`HTTP probe failed with statuscode: ${answer.status}`);
  }
  if (probe.tcpSocket) {
    const resolved = resolveContainerPort(probe.tcpSocket.port, container);
    if ('error' in resolved) return { result: 'unknown', output: '', error: resolved.error };
    const port = resolved.port;
    const ok = listenerAt(port) !== undefined;
    return ok ? SUCCESS : failure(`dial tcp ${podIP}:${port}: connect: connection refused`);
  }
  if (probe.grpc) {
    const port = probe.grpc.port;
    const service = probe.grpc.service ?? '';
    const addr = `${podIP}:${port}`;
    const l = listenerAt(port);
    if (!l || l === true || !l.grpc) return failure(`timeout: failed to connect service ${JSON.stringify(addr)} within ${goSeconds(timeoutSeconds)}: context deadline exceeded`);
    const health = l.grpc.health;
    if (!health) return failure('error: this server does not implement the grpc health protocol (grpc.health.v1.Health): unknown service grpc.health.v1.Health');
    const status = health[service];
    if (status === undefined) return failure('error: health rpc probe failed: rpc error: code = NotFound desc = unknown service');
    return status === 'SERVING' ? SUCCESS : failure(`service unhealthy (responded with ${JSON.stringify(status)})`);
  }
  if (probe.exec) {
    const argv = probe.exec.command;
    if (!exec) return { result: 'unknown', output: '', error: 'no container runtime to exec in' };
    const r = exec(argv, timeoutSeconds * 1000);
    if (r.kind === 'not-found')
      return failure(`OCI runtime exec failed: exec failed: unable to start container process: exec: "${r.exe}": executable file not found in $PATH: unknown`);
    if (r.kind === 'timeout') return failure(`command ${JSON.stringify(argv.join(' '))} timed out`);
    return r.exitCode === 0 ? { result: 'success', output: r.output } : failure(r.output);
  }
  return SUCCESS;
}

/**
 * The `Unhealthy` event text of a probe that did not succeed (prober.go probe): "Readiness probe
 * failed: OUTPUT", or for an error "Readiness probe errored and resulted in unknown state: ERR".
 */
export function unhealthyMessage(kind: 'Readiness' | 'Liveness' | 'Startup', r: ProbeResult): string | undefined {
  if (r.result === 'success') return undefined;
  if (r.result === 'unknown') return `${kind} probe errored and resulted in unknown state: ${r.error}`;
  return `${kind} probe failed: ${r.output}`;
}

// ---------------------------------------------------------------------------------------------
// Workers

export type ProbeType = 'startup' | 'liveness' | 'readiness';

const PROBE_NAME = { startup: 'Startup', liveness: 'Liveness', readiness: 'Readiness' } as const;
/** Tie order of workers whose ticks fall at the same instant. */
const ORDER: readonly ProbeType[] = ['startup', 'liveness', 'readiness'];

/** One worker's state (worker.go): its next tick, the container it last saw, the run of equal results and the result set. */
export interface ProbeWorker {
  /** The next tick not yet probed. */
  next: number;
  containerID?: string;
  lastResult?: 'success' | 'failure';
  resultRun: number;
  onHold?: true;
  /** The results manager's value for containerID; absent is Unknown (startup's initial value). */
  result?: 'success' | 'failure';
}

/** A container's workers, and the kill a liveness or startup failure began (its process gone at exitAt). */
export interface ContainerProbes {
  workers: Partial<Record<ProbeType, ProbeWorker>>;
  kill?: { at: number; exitAt: number; code: number; reason: 'liveness' | 'startup' };
}

/** `<pod uid>/<container>` → its probe workers. */
export type ProberState = Record<string, ContainerProbes>;

export function containerProbes(c: Cluster, pod: Pod, container: string): ContainerProbes {
  const t = (c.state.probers ??= {});
  return (t[`${pod.metadata.uid ?? ''}/${container}`] ??= { workers: {} });
}

export function forgetProbes(c: Cluster, uid: string): void {
  const t = c.state.probers;
  if (t) for (const k of Object.keys(t)) if (k.startsWith(`${uid}/`)) delete t[k];
}

function specOf(ct: Container, type: ProbeType): Probe | undefined {
  return type === 'startup' ? ct.startupProbe : type === 'liveness' ? ct.livenessProbe : ct.readinessProbe;
}

export interface ProbeHost {
  /** Run a probe against the container as it is at `t`. */
  probe(type: ProbeType, spec: Probe, t: number): ProbeResult;
  /**
   * When what this probe sees may next change without the kubelet being told: the container's
   * own script changing its files (an exec probe), `tick` for a server whose answers change with
   * its uptime, undefined when only an outside change can (which wakes the kubelet itself).
   */
  changesAt(spec: Probe): number | 'tick' | undefined;
  /** Record an event of the container at `t`. */
  event(type: 'Normal' | 'Warning', reason: string, message: string, t: number): void;
}

export interface ProbeSync {
  started: boolean;
  ready: boolean;
  /** A liveness or startup failure at `at`: the kubelet kills the container. */
  kill?: { at: number; reason: 'liveness' | 'startup' };
  /** The next tick a worker still has work at (the kubelet wakes then). */
  nextAt?: number;
}

/**
 * Date.parse of a container's start time, memoised by its text: V8 parses a date string through
 * its legacy parser, and every sync of every probed container parsed its start again (a third of
 * syncProbes' own time in a validate profile). A pure function of the string; bounded, so a long
 * session's many starts do not grow it.
 */
const STARTED_AT = new Map<string, number>();
const STARTED_AT_MAX = 4096;

/** How many start times were parsed rather than found in STARTED_AT (tests). */
export const startedAtParses = { count: 0 };

export function parseStartedAt(text: string): number {
  const had = STARTED_AT.get(text);
  if (had !== undefined) return had;
  startedAtParses.count++;
  return remember(STARTED_AT, text, Date.parse(text), STARTED_AT_MAX);
}

/**
 * Run a running container's workers over every tick from where they stopped up to now, in time
 * order across the three (startup decides what the others do), and say whether it has started,
 * whether it is ready, and whether a probe failure kills it. `origin` is when the workers
 * started (the kubelet took the pod on); `justStarted` is the sync that started the container
 * (readiness probes at once).
 */
export function syncProbes(c: Cluster, ct: Container, cs: ContainerStatus, state: ContainerProbes, origin: number, hostIn: ProbeHost, justStarted: boolean): ProbeSync {
  const now = c.now();
  // the newest probe this sync ran: steadyWake asks a worker's probe at `now` again (LastProbe)
  let last: LastProbe | undefined;
  const host: ProbeHost = {
    ...hostIn,
    probe: (type, spec, t) => {
      probeRuns.count++;
      const result = hostIn.probe(type, spec, t);
      last = { type, t, result: result.result };
      return result;
    },
  };
  const id = cs.containerID ?? '';
  const startedAt = parseStartedAt(cs.state.running?.startedAt ?? '');
  const types = ORDER.filter((t) => specOf(ct, t) !== undefined);
  for (const t of types) state.workers[t] ??= { next: origin, resultRun: 0 };
  const isStarted = (): boolean => {
    if (!ct.startupProbe) return true;
    const w = state.workers.startup!;
    return w.containerID === id && w.result === 'success';
  };
  const manual: { t: number; type: ProbeType }[] = justStarted && ct.readinessProbe ? [{ t: now, type: 'readiness' }] : [];
  let kill: ProbeSync['kill'];

  const doProbe = (type: ProbeType, t: number): void => {
    const spec = specOf(ct, type)!;
    const w = state.workers[type]!;
    if (w.containerID !== id) {
      w.containerID = id;
      if (type === 'readiness') w.result = 'failure';
      else if (type === 'liveness') w.result = 'success';
      else delete w.result;
      delete w.onHold;
    }
    if (w.onHold) return;
    // worker.go: int32(time.Since(startedAt).Seconds()) < InitialDelaySeconds
    if (Math.floor((t - startedAt) / 1000) < (spec.initialDelaySeconds ?? 0)) return;
    if (type === 'startup' ? isStarted() : !isStarted()) return;
    const r = host.probe(type, spec, t);
    const msg = unhealthyMessage(PROBE_NAME[type], r);
    if (msg) host.event('Warning', 'Unhealthy', msg, t);
    if (r.result === 'unknown') return;
    if (w.lastResult === r.result) w.resultRun++;
    else {
      w.lastResult = r.result;
      w.resultRun = 1;
    }
    if ((r.result === 'failure' && w.resultRun < (spec.failureThreshold ?? 3)) || (r.result === 'success' && w.resultRun < (spec.successThreshold ?? 1))) return;
    const was = w.result;
    w.result = r.result;
    if (type === 'startup' && r.result === 'success' && was !== 'success' && ct.readinessProbe) manual.push({ t, type: 'readiness' });
    if (type !== 'readiness' && r.result === 'failure') {
      w.onHold = true;
      w.resultRun = 0;
      kill = { at: t, reason: type };
    }
  };

  // A worker whose probe keeps succeeding is not woken at every tick (an idle cluster would wake
  // the kubelet every few seconds for ever): on a sync it probes only at its last tick due, the
  // results in between being the same success, and it is woken where the probe may first see
  // something else (steadyWake). What the simulation cannot foresee (a file removed through
  // `kubectl exec`) wakes the kubelet itself, and the probe then sees it at its next tick.
  for (const t of types) {
    const w = state.workers[t]!;
    const period = (specOf(ct, t)!.periodSeconds ?? 10) * 1000;
    if (steady(w, id) && w.next <= now) w.next += Math.floor((now - w.next) / period) * period;
  }
  for (let guard = 0; guard < 100_000 && !kill; guard++) {
    let best: ProbeType | undefined;
    for (const t of types) if (state.workers[t]!.next <= now && (best === undefined || state.workers[t]!.next < state.workers[best]!.next)) best = t;
    const m = manual[0];
    if (m && (best === undefined || m.t <= state.workers[best]!.next)) {
      manual.shift();
      doProbe(m.type, m.t);
      continue;
    }
    if (best === undefined) break;
    const w = state.workers[best]!;
    const t = w.next;
    w.next += (specOf(ct, best)!.periodSeconds ?? 10) * 1000;
    // a tick before this instance started saw no running container
    if (t >= startedAt) doProbe(best, t);
  }

  const started = isStarted();
  const rw = state.workers.readiness;
  const ready = started && (!ct.readinessProbe || (rw?.containerID === id && rw.result === 'success'));
  let nextAt: number | undefined;
  for (const t of types) {
    const w = state.workers[t]!;
    if (t === 'startup' && started) continue;
    if (t !== 'readiness' && w.onHold && w.containerID === id) continue;
    if (t !== 'startup' && !started && !kill) {
      // gated until started: the startup worker's tick wakes the kubelet
      continue;
    }
    const at = steady(w, id) && !kill ? steadyWake(ct, t, w, host, now, last) : w.next;
    if (at !== undefined) nextAt = nextAt === undefined ? at : Math.min(nextAt, at);
  }
  return { started, ready, ...(kill ? { kill } : {}), ...(nextAt !== undefined ? { nextAt } : {}) };
}

/**
 * The newest probe a sync ran, with its answer. A worker that probed at its tick `now` was asked
 * at once again by steadyWake (would the probe fail now?), on the very same state: nothing runs
 * between the two (the sync only records events), and a probe at a given time is a function of
 * the container's state then (an exec probe flushes the container's output up to its time, which
 * a second flush to the same time leaves as it is, and runs its command without writing; an
 * HTTP, TCP or gRPC probe asks what listens and what it serves). So while it is the newest probe
 * of the sync, its answer stands for the second one. Held for one sync only.
 */
interface LastProbe {
  type: ProbeType;
  t: number;
  result: ProbeResult['result'];
}

/** How many probes the kubelet's workers have run (not saved: for tests and benches). */
export const probeRuns = { count: 0 };

/** A worker whose last probe succeeded and whose result is success (nothing pending for it). */
function steady(w: ProbeWorker, id: string): boolean {
  return w.containerID === id && !w.onHold && w.result === 'success' && w.lastResult === 'success';
}

/**
 * The tick a steady worker must next be woken at: its next tick when the probe would fail now
 * (something changed since its last tick) or its server changes with uptime, the first tick at or
 * after the next change of the container's files for an exec probe, else none.
 */
function steadyWake(ct: Container, type: ProbeType, w: ProbeWorker, host: ProbeHost, now: number, last: LastProbe | undefined): number | undefined {
  const spec = specOf(ct, type)!;
  const result = last && last.type === type && last.t === now ? last.result : host.probe(type, spec, now).result;
  if (result !== 'success') return w.next;
  const change = host.changesAt(spec);
  if (change === undefined) return undefined;
  if (change === 'tick' || change <= w.next) return w.next;
  const period = (spec.periodSeconds ?? 10) * 1000;
  return w.next + Math.ceil((change - w.next) / period) * period;
}
