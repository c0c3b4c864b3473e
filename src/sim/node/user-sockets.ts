/**
 * Listening sockets that a learner's own process holds on a host: `kubectl port-forward` and
 * `kubectl proxy` run in the background on the workstation (or on a node). connect() in
 * sim/traffic/path.ts hands a connection to 127.0.0.1:PORT there to the socket's owner, and `ss`
 * lists them. They live in the host's state, so a saved session keeps them; the shell's job
 * table (shell/jobs.ts) releases them when the process ends.
 */
import type { Host } from './host.js';
import type { Credentials } from '../authn.js';

/** What a running `kubectl proxy` holds: its filters (k8s.io/kubectl pkg/proxy FilterServer) and its client. */
export interface ProxyConfig {
  /** --api-prefix, with a final slash. */
  apiPrefix: string;
  /** Comma-separated Go regexps: --accept-paths, --reject-paths, --accept-hosts, --reject-methods; absent with --disable-filter. */
  filter?: { acceptPaths: string; rejectPaths: string; acceptHosts: string; rejectMethods: string };
  /** The kubeconfig's credentials and --as/--as-group, read when it started. */
  credentials: Credentials;
  impersonate?: { user: string; groups: string[] };
}

export interface UserSocket {
  /** The address bound: '127.0.0.1', '::1', '0.0.0.0', '::' or one of the host's addresses. */
  address: string;
  port: number;
  pid: number;
  /** The process name (/proc/PID/comm). */
  comm: string;
  /** Its command line (/proc/PID/cmdline), for ps. */
  cmdline?: string;
  /** When the process started (simulated ms), for ps. */
  started?: number;
  /** kubectl port-forward: connections go to localhost:port inside this pod's network namespace. */
  forward?: { namespace: string; pod: string; uid: string; port: number };
  /** kubectl proxy: plain HTTP in front of the API server, as the kubeconfig's user when it started. */
  proxy?: ProxyConfig;
  /** Connections accepted so far; the owner prints one line for each it has not reported yet. */
  accepted?: number;
  /** A forwarded connection found nothing listening on that port in the pod (the owner then ends). */
  refusedInPod?: true;
}

export function userSockets(host: Host): UserSocket[] {
  return host.data.state.sockets ?? [];
}

const ANY = new Set(['0.0.0.0', '::']);

function family(address: string): 4 | 6 {
  return address.includes(':') ? 6 : 4;
}

/**
 * Whether a socket bound at `bound` receives a connection to `dst` (the kernel's lookup: the exact
 * address, or the wildcard of the same family; a v6 wildcard also takes IPv4 unless v6only).
 */
export function receives(bound: string, dst: string): boolean {
  if (bound === dst) return true;
  if (bound === '0.0.0.0') return family(dst) === 4;
  return bound === '::';
}

/** The socket of `host` that takes a TCP connection to `dst`:`port`, if any. */
export function socketFor(host: Host, dst: string, port: number): UserSocket | undefined {
  const all = userSockets(host).filter((s) => s.port === port && receives(s.address, dst));
  return all.find((s) => s.address === dst) ?? all[0];
}

/** Two binds of the same port collide when their addresses overlap (same address, or a wildcard of that family). */
export function collides(a: string, b: string): boolean {
  if (a === b) return true;
  if (ANY.has(a) || ANY.has(b)) return family(a) === family(b) || a === '::' || b === '::';
  return false;
}

export function bindSocket(host: Host, s: UserSocket): void {
  host.data.state.sockets = [...userSockets(host), s];
}

/** Close every socket of process `pid` (it ended). */
export function releaseSockets(host: Host, pid: number): void {
  const left = userSockets(host).filter((s) => s.pid !== pid);
  if (left.length > 0) host.data.state.sockets = left;
  else delete host.data.state.sockets;
}
