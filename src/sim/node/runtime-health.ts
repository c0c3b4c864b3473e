/**
 * The kubelet's view of its container runtime while containerd is down, derived from the two
 * units' times rather than stored: a stopped containerd does not stop the kubelet, whose runtime
 * health check fails and turns the node NotReady (pkg/kubelet/runtime.go runtimeState).
 *
 * Timings and wording, from kubernetes v1.35:
 *  - pkg/kubelet/kubelet.go Run: `go wait.Until(kl.updateRuntimeUp, 5*time.Second, …)`: a runtime
 *    status check every 5 s; a failed one logs "Container runtime sanity check failed" and does not
 *    renew lastBaseRuntimeSync;
 *  - runtime.go runtimeErrors: "container runtime is down" once the last good check is
 *    maxWaitForContainerRuntime (30 s, kubelet.go) old; the PLEG health check (pleg/generic.go
 *    Healthy) adds "PLEG is not healthy: pleg was last seen active 3m5s ago; threshold is 3m0s"
 *    once the last relist (every genericPlegRelistPeriod, 1 s) is more than
 *    genericPlegRelistThreshold (3 min) old; several errors join as an aggregate,
 *    `[a, b]` (apimachinery util/errors);
 *  - nodestatus/setters.go ReadyCondition: any runtime error makes Ready False, reason
 *    KubeletNotReady, the aggregate's text as the message, posted by the node status sync every
 *    nodeStatusUpdateFrequency (10 s, config v1beta1 defaults);
 *  - the CRI client's error for a socket containerd removed when it stopped (cri-client
 *    remote_runtime.go, as vendored in cri-tools v1.35.0; grpc's transport error): `rpc error:
 *    code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix
 *    /run/containerd/containerd.sock: connect: no such file or directory"`, with the path of the
 *    endpoint the kubelet loaded: on kubeadm's nodes the instance configuration puts
 *    unix:///var/run/containerd/containerd.sock in config.yaml (controlplane.ts
 *    kubeletRuntimeDialError); an empty one means the default unix:///run/containerd/containerd.sock.
 * Every periodic loop is counted from the kubelet's start (its unit's `since`), so the same
 * commands give the same times.
 */
import type { Host } from './host.js';
import { goDuration } from '../../util/go-duration.js';

export { goDuration };

export const RUNTIME_CHECK_MS = 5_000;
export const RUNTIME_SYNC_THRESHOLD_MS = 30_000;
export const PLEG_RELIST_MS = 1_000;
export const PLEG_RELIST_THRESHOLD_MS = 180_000;
export const NODE_STATUS_UPDATE_MS = 10_000;

export const CONTAINERD_ENDPOINT = 'unix:///run/containerd/containerd.sock';
/** Where containerd listens on these nodes (/var/run is a link to /run). */
export const CONTAINERD_SOCKET = '/run/containerd/containerd.sock';

/** The socket path of an endpoint (`unix://` optional, as cri-client's fallback protocol), /var/run folded into /run. */
export function endpointSocket(endpoint: string): string {
  return endpoint.replace(/^unix:\/\//, '').replace(/^\/var\/run\//, '/run/');
}

/** gRPC's error for a CRI call to a unix socket nothing listens on (a path that does not exist). */
export function runtimeDialError(endpoint: string): string {
  return `rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix ${endpoint.replace(/^unix:\/\//, '')}: connect: no such file or directory"`;
}

/**
 * cri-client's NewRemoteRuntimeService for an endpoint nothing answers on: util.GetAddressAndDialer
 * takes unix sockets only, then validateServiceConnection's Version call fails with the dial error.
 */
export function runtimeValidateError(endpoint: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(endpoint)?.[1];
  if (scheme !== undefined && scheme !== 'unix') return 'only support unix socket endpoint';
  return `validate service connection: validate CRI v1 runtime API for endpoint "${endpoint}": ${runtimeDialError(endpoint)}`;
}

/** What every CRI call returns while containerd is stopped (its socket is gone). */
export const RUNTIME_DIAL_ERROR = runtimeDialError(CONTAINERD_ENDPOINT);
/** The kubelet's own start-up check of the runtime (cri-client NewRemoteRuntimeService validateServiceConnection). */
export const RUNTIME_VALIDATE_ERROR = runtimeValidateError(CONTAINERD_ENDPOINT);
export const RUNTIME_DOWN_MESSAGE = 'container runtime is down';

/** The last tick of a loop that runs every `period` from `origin`, at or before `t`. */
export function tickAtOrBefore(origin: number, period: number, t: number): number {
  return t <= origin ? origin : origin + Math.floor((t - origin) / period) * period;
}

/** The first tick of a loop that runs every `period` from `origin`, at or after `t`. */
export function tickAtOrAfter(origin: number, period: number, t: number): number {
  return t <= origin ? origin : origin + Math.ceil((t - origin) / period) * period;
}

/** An outage of the runtime as the running kubelet lives it, every time derived from the two units. */
export interface RuntimeOutage {
  /** containerd stopped. */
  stoppedAt: number;
  /** The kubelet's last good runtime status check (at or before the stop). */
  lastSync: number;
  /** The last good PLEG relist. */
  lastRelist: number;
  /** runtimeErrors() reports "container runtime is down" from here: the sync loop skips pods. */
  downAt: number;
  /** The node status sync that posts Ready=False. */
  notReadyAt: number;
}

/** The kubelet's start, the origin of its periodic loops. */
function kubeletOrigin(host: Host): number {
  return host.data.units['kubelet']?.since ?? 0;
}

/** containerd's outage while the kubelet runs, or undefined when containerd runs. */
export function runtimeOutage(host: Host): RuntimeOutage | undefined {
  const ctr = host.data.units['containerd'];
  if (!ctr || host.unitActive('containerd')) return undefined;
  const origin = kubeletOrigin(host);
  const stoppedAt = Math.max(ctr.since, origin);
  const lastSync = tickAtOrBefore(origin, RUNTIME_CHECK_MS, stoppedAt);
  const downAt = lastSync + RUNTIME_SYNC_THRESHOLD_MS;
  return {
    stoppedAt,
    lastSync,
    lastRelist: tickAtOrBefore(origin, PLEG_RELIST_MS, stoppedAt),
    downAt,
    notReadyAt: tickAtOrAfter(origin, NODE_STATUS_UPDATE_MS, downAt),
  };
}

/**
 * After containerd starts again: the runtime check that first succeeds (the next 5 s tick) and the
 * node status sync that posts Ready=True again.
 */
export function runtimeRecovery(host: Host): { syncAt: number; readyAt: number } | undefined {
  const ctr = host.data.units['containerd'];
  if (!ctr || !host.unitActive('containerd')) return undefined;
  const origin = kubeletOrigin(host);
  const syncAt = tickAtOrAfter(origin, RUNTIME_CHECK_MS, ctr.since);
  return { syncAt, readyAt: tickAtOrAfter(origin, NODE_STATUS_UPDATE_MS, syncAt) };
}

/**
 * The Ready condition's message at a node status sync `at` during an outage: the runtime is down,
 * and after three minutes without a relist the PLEG is not healthy either.
 */
export function outageMessage(outage: RuntimeOutage, at: number): string {
  const since = at - outage.lastRelist;
  if (since <= PLEG_RELIST_THRESHOLD_MS) return RUNTIME_DOWN_MESSAGE;
  return `[${RUNTIME_DOWN_MESSAGE}, PLEG is not healthy: pleg was last seen active ${goDuration(since)} ago; threshold is ${goDuration(PLEG_RELIST_THRESHOLD_MS)}]`;
}
