/**
 * The network tools a container's script runs (busybox wget, nc, nslookup; curl in images that
 * have it). They travel the simulated network exactly as `kubectl exec POD -- wget …` does: DNS
 * through the pod's resolv.conf to CoreDNS, Services through kube-proxy's rules, NetworkPolicy,
 * the destination's listeners. That implementation lives with the shell's pod commands
 * (shell/commands/pod/), above this layer, so the session hands it to the cluster here when it
 * opens (shell/commands/pod/script-tools.ts); a cluster without a session (a fixture being built)
 * has none, and its scripts' network tools print nothing and succeed, as before.
 *
 * Registered per Cluster object, not in cluster.state: it is code, and state stays plain JSON.
 */
import type { Cluster } from '../cluster.js';
import type { NetResult } from './script.js';

/** Where the tool runs: the pod and container. */
export interface NetToolPlace {
  namespace: string;
  pod: string;
  container: string;
}

export interface NetToolCall {
  argv: string[];
  stdin: string;
  /** The container's working directory (where wget saves index.html). */
  cwd: string;
  /** A file as the script sees it (what it wrote earlier in the run included). */
  readFile(path: string): string | undefined;
}

export interface NetTools {
  /** The tools it answers (argv[0]). */
  readonly names: readonly string[];
  /** Run one now, from `place`; undefined when it cannot run synchronously. */
  run(c: Cluster, place: NetToolPlace, call: NetToolCall): NetResult | undefined;
}

const registry = new WeakMap<Cluster, NetTools>();

export function provideNetTools(c: Cluster, tools: NetTools): void {
  registry.set(c, tools);
}

export function netToolsOf(c: Cluster): NetTools | undefined {
  return registry.get(c);
}
