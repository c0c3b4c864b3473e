/**
 * Where `kubectl logs` text comes from (the kubelet's /containerLogs endpoint): an ordered list of
 * sources, the first that answers wins. Adding a source: write one file in this folder exporting
 * a LogSource and list it in LOG_SOURCES at the place its precedence calls for.
 */
import type { Cluster } from '../../cluster.js';
import type { Pod } from '../../api/types.js';
import { programOverrideLogs } from './program-override.js';
import { staticPodLogs } from './static-pod.js';
import { containerProgramLogs } from './container-program.js';

/** The log text (lines ending in "\n"), or undefined when this source does not know the container. */
export type LogSource = (cluster: Cluster, pod: Pod, container: string, previous: boolean) => string | undefined;

/**
 * Most specific first: a process simulated by a runtime override (CoreDNS, kube-proxy) knows its
 * own lines; a mirror pod's text is the kubelet's record of the static pod's run; anything else
 * printed what its image's program prints.
 */
export const LOG_SOURCES: readonly LogSource[] = [programOverrideLogs, staticPodLogs, containerProgramLogs];

/** The logs of one container of a pod (current or previous instance); '' when nothing was printed. */
export function podLogs(cluster: Cluster, pod: Pod, container: string, previous: boolean): string {
  for (const s of LOG_SOURCES) {
    const text = s(cluster, pod, container, previous);
    if (text !== undefined) return text;
  }
  return '';
}
