/**
 * Container programs that are more than "serve" or "exit": a process whose start, liveness,
 * readiness and log output depend on cluster state (CoreDNS loading its Corefile). The kubelet
 * asks the override registered for a container's image repository instead of the generic
 * program model (program.ts). Controllers fill the registry at import time; the registry holds
 * functions only, all state lives in cluster.state so snapshots stay plain data.
 */
import type { Cluster } from '../cluster.js';
import type { Container, Pod } from '../api/types.js';
import type { HttpSite } from '../images.js';

export type OverrideStart = { ok: true } | { ok: false; exitCode: number; output: string };

export interface ProgramOverride {
  /** Start the process of a (re)started container; a failure terminates it at once with the output as its log. */
  start(c: Cluster, pod: Pod, ct: Container): OverrideStart;
  /** For a running container: whether the process still runs, and whether it is ready. */
  status(c: Cluster, pod: Pod, ct: Container): { running: boolean; ready: boolean; exitCode?: number };
  /** What `kubectl logs` shows for the current (or previous) instance, undefined when unknown. */
  logs(c: Cluster, pod: Pod, container: string, previous: boolean): string | undefined;
  /** Whether the running process listens on port/proto (undefined: use the image catalogue). */
  listens?(c: Cluster, pod: Pod, ct: Container, port: number, proto: 'tcp' | 'udp'): boolean | undefined;
  /** What the running process serves over HTTP on a port, when it depends on its state (kube-proxy's /proxyMode). */
  http?(c: Cluster, pod: Pod, ct: Container, port: number): HttpSite | undefined;
}

const registry = new Map<string, ProgramOverride>();

export function registerProgramOverride(repository: string, o: ProgramOverride): void {
  registry.set(repository, o);
}

export function programOverride(repository: string): ProgramOverride | undefined {
  return registry.get(repository);
}
