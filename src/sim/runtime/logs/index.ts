/**
 * Where `kubectl logs` text comes from (the kubelet's /containerLogs endpoint): an ordered list of
 * sources, the first that answers wins. Adding a source: write one file in this folder exporting
 * a LogSource and list it in LOG_SOURCES at the place its precedence calls for.
 */
import type { Cluster } from '../../cluster.js';
import type { Pod } from '../../api/types.js';
import { programOverrideLogs } from './program-override.js';
import { staticPodLogs } from './static-pod.js';
import { containerLogLines, containerProgramLogs } from './container-program.js';
import type { LogLine } from '../processes.js';

export type { LogLine } from '../processes.js';

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

/**
 * The lines of a container's log with the time each was written (`--timestamps`, `--since`):
 * a container program's lines carry their own times; text from another source is dated at the
 * start of the container's run.
 */
export function podLogLines(cluster: Cluster, pod: Pod, container: string, previous: boolean): LogLine[] {
  for (const s of LOG_SOURCES) {
    if (s === containerProgramLogs) {
      const lines = containerLogLines(cluster, pod, container, previous);
      if (lines !== undefined) return lines;
      continue;
    }
    const text = s(cluster, pod, container, previous);
    if (text !== undefined) return splitText(text, runStart(pod, container, previous));
  }
  return [];
}

function runStart(pod: Pod, container: string, previous: boolean): number {
  const st = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])].find((s) => s.name === container);
  const info = previous ? st?.lastState : st?.state;
  const at = info?.running?.startedAt ?? info?.terminated?.startedAt ?? pod.status?.startTime;
  const t = at ? Date.parse(at) : NaN;
  return Number.isNaN(t) ? 0 : t;
}

function splitText(text: string, t: number): LogLine[] {
  return text
    .split(/(?<=\n)/)
    .filter((l) => l !== '')
    .map((l) => ({ t, stream: 'stdout' as const, text: l }));
}
