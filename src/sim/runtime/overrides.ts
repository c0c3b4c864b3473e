/**
 * Container programs that are more than "serve" or "exit": a process whose start, liveness,
 * readiness and log output depend on cluster state (CoreDNS loading its Corefile, kube-proxy its
 * config). The kubelet asks the override listed here for a container's image repository instead
 * of the generic program model (program.ts). Each override is a plain object declared beside the
 * controller that manages its component and listed, in order, in PROGRAM_OVERRIDES below: nothing
 * registers itself on import. Overrides hold functions only; all state lives in cluster.state so
 * snapshots stay plain data.
 *
 * The traffic path reaches this table through `Cluster.programOverride` rather than by importing
 * it: CoreDNS answers queries with a transport built on the traffic path, so a static import from
 * src/sim/traffic would close a module cycle.
 */
import type { Cluster } from '../cluster.js';
import type { Container, Pod } from '../api/types.js';
import type { HttpSite } from '../images.js';
import type { DnsMessage } from '../dns/message.js';
import { kubeProxyProgram } from '../controllers/kube-proxy.js';
import { coreDnsProgram } from '../controllers/coredns.js';
import { nginxProgram } from './nginx/program.js';

export type OverrideStart = { ok: true } | { ok: false; exitCode: number; output: string };

/** A process that answers DNS queries reaching its pod (CoreDNS's server). */
export interface DnsResponder {
  query(msg: DnsMessage, client: { ip: string; port: number; proto: 'udp' | 'tcp' }, port: number): DnsMessage | undefined;
}

export interface ProgramOverride {
  /** Image repositories (lookupImage(...).repository) whose containers run this program. */
  readonly repositories: readonly string[];
  /** Start the process of a (re)started container; a failure terminates it at once with the output as its log. */
  start(c: Cluster, pod: Pod, ct: Container): OverrideStart;
  /**
   * The kubelet runs the container's own readiness and liveness probes against what the program
   * serves (nginx); otherwise `status().ready` is the readiness (CoreDNS's /ready, kube-proxy).
   */
  readonly kubeletProbes?: boolean;
  /** For a running container: whether the process still runs, and whether it is ready. */
  status(c: Cluster, pod: Pod, ct: Container): { running: boolean; ready: boolean; exitCode?: number };
  /** What `kubectl logs` shows for the current (or previous) instance, undefined when unknown. */
  logs(c: Cluster, pod: Pod, container: string, previous: boolean): string | undefined;
  /** Whether the running process listens on port/proto (undefined: use the image catalogue). */
  listens?(c: Cluster, pod: Pod, ct: Container, port: number, proto: 'tcp' | 'udp'): boolean | undefined;
  /** What the running process serves over HTTP on a port, when it depends on its state (kube-proxy's /proxyMode). */
  http?(c: Cluster, pod: Pod, ct: Container, port: number): HttpSite | undefined;
  /**
   * A DNS server program: `serves(pod)` says whether queries reaching this pod are answered by it
   * (else a listener on 53 answers nothing the simulation models); `server` is the running
   * process, undefined when it is not running (the query is refused).
   */
  readonly dns?: {
    serves(pod: Pod): boolean;
    server(c: Cluster, pod: Pod): DnsResponder | undefined;
  };
}

/** Every program override, in lookup order (the first whose repositories match wins). */
export const PROGRAM_OVERRIDES: readonly ProgramOverride[] = [kubeProxyProgram, coreDnsProgram, nginxProgram];

export function programOverride(repository: string): ProgramOverride | undefined {
  return PROGRAM_OVERRIDES.find((o) => o.repositories.includes(repository));
}

/**
 * The overrides whose start, status, listeners and HTTP pages read no host but the pod's own node:
 * kube-proxy's (its ConfigMap and its own instances' state) and nginx's (its files, through the
 * container's mounts, and its node's kernel). CoreDNS's is not among them: its server's forward
 * and loop plugins send queries over the network, which reaches other hosts. The kubelet keys a
 * pod's quiet sync on its node's host alone only when this holds (controllers/kubelet.ts hostsKey).
 */
const NODE_LOCAL_OVERRIDES: ReadonlySet<ProgramOverride> = new Set([kubeProxyProgram, nginxProgram]);

export function overrideReadsOnlyItsNode(o: ProgramOverride): boolean {
  return NODE_LOCAL_OVERRIDES.has(o);
}

/**
 * The API objects (watch keys, `Kind@namespace/name`) a node-local override reads from the store
 * besides what its pod mounts: kube-proxy's process compares its ConfigMap with the config it
 * loaded (controllers/kube-proxy.ts configMapText); nginx reads only its files.
 */
const OVERRIDE_OBJECTS: ReadonlyMap<ProgramOverride, readonly string[]> = new Map([[kubeProxyProgram, ['ConfigMap@kube-system/kube-proxy']]]);

export function overrideObjects(o: ProgramOverride): readonly string[] {
  return OVERRIDE_OBJECTS.get(o) ?? [];
}
