/**
 * What the container's process printed (runtime/processes.ts): the current run, or with
 * `--previous` the run before it. Output is brought up to the present before it is read.
 */
import type { LogSource } from './index.js';
import { containerRuns, flushPod, runLogLines } from '../processes.js';

export const containerProgramLogs: LogSource = (cluster, pod, container, previous) => {
  const lines = containerLogLines(cluster, pod, container, previous);
  return lines === undefined ? undefined : lines.map((l) => l.text).join('');
};

/** The timed lines of a container's run, or undefined when the runtime has no record of it. */
export function containerLogLines(cluster: Parameters<LogSource>[0], pod: Parameters<LogSource>[1], container: string, previous: boolean): ReturnType<typeof runLogLines> | undefined {
  flushPod(cluster, pod);
  const runs = containerRuns(cluster, pod, container);
  if (runs.length === 0) return undefined;
  // kubelet validateContainerLogStatus: a container waiting to restart shows its last run both
  // ways; otherwise --previous is the run before the current one
  const st = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])].find((s) => s.name === container);
  const waiting = st?.state.waiting !== undefined && runs[runs.length - 1]!.finishedAt !== undefined;
  const run = previous && !waiting ? runs[runs.length - 2] : runs[runs.length - 1];
  return run ? runLogLines(run) : [];
}
