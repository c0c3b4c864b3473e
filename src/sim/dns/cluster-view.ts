/**
 * What the kubernetes plugin sees of the cluster: the informer caches of CoreDNS
 * (plugin/kubernetes/controller.go watches Services, EndpointSlices, Pods and Namespaces).
 * The lead backs this with the API store; tests build it from plain objects.
 */
import type { EndpointSlice, Pod, Service } from '../api/types.js';

export interface ClusterView {
  services(): Service[];
  endpointSlices(): EndpointSlice[];
  pods(): Pod[];
  /** Names of existing namespaces (the plugin answers NXDOMAIN under a namespace that does not exist). */
  namespaces(): string[];
  /** Time (ms) of the last Service/EndpointSlice change the informers saw: the SOA serial, in seconds. */
  lastChangeMs(): number;
  /** False until the informers have synced (unsynced: would-be NXDOMAIN becomes SERVFAIL, /ready 503). */
  synced?(): boolean;
  /** Labels of a namespace (for the kubernetes plugin's namespace_labels selector). */
  namespaceLabels?(name: string): Record<string, string> | undefined;
}

/** A view over fixed arrays, for tests and for snapshots. */
export function staticClusterView(parts: {
  services?: Service[];
  endpointSlices?: EndpointSlice[];
  pods?: Pod[];
  namespaces?: string[];
  lastChangeMs?: number;
  namespaceLabels?: Record<string, Record<string, string>>;
}): ClusterView {
  return {
    services: () => parts.services ?? [],
    endpointSlices: () => parts.endpointSlices ?? [],
    pods: () => parts.pods ?? [],
    namespaces: () => parts.namespaces ?? ['default', 'kube-system', 'kube-public', 'kube-node-lease'],
    lastChangeMs: () => parts.lastChangeMs ?? 1718000000000,
    namespaceLabels: (n) => parts.namespaceLabels?.[n],
  };
}
