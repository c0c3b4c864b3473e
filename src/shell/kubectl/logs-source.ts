/**
 * Where `kubectl logs` text comes from (the kubelet's /containerLogs endpoint): an ordered
 * registry of sources, the first that answers wins. Built in: static pods (the kubelet's record
 * of each component run, c.state staticPods) and ordinary containers (what the container's
 * program printed: src/sim/runtime/program.ts). Other areas add sources, e.g. CoreDNS logs from
 * its server: `registerLogSource((c, pod, container, previous) => … ?? undefined)`.
 */
import type { Cluster } from '../../sim/cluster.js';
import type { Pod } from '../../sim/api/types.js';
import { staticPods } from '../../sim/controllers/static-pods.js';
import { lookupImage } from '../../sim/images.js';
import { containerProgram } from '../../sim/runtime/program.js';

/** The log text (lines ending in "\n"), or undefined when this source does not know the container. */
export type LogSource = (cluster: Cluster, pod: Pod, container: string, previous: boolean) => string | undefined;

const sources: LogSource[] = [];

/** Add a source ahead of the built-in ones. */
export function registerLogSource(source: LogSource): void {
  if (!sources.includes(source)) sources.unshift(source);
}

function joinLines(lines: readonly string[]): string {
  return lines.map((l) => (l.endsWith('\n') ? l : `${l}\n`)).join('');
}

/** A mirror pod `<component>-<node>`: the kubelet's run record of that component. */
const staticPodLogs: LogSource = (cluster, pod, _container, previous) => {
  const node = pod.spec.nodeName;
  if (!node || pod.metadata.annotations?.['kubernetes.io/config.mirror'] === undefined) return undefined;
  const rt = Object.values(staticPods(cluster)[node] ?? {}).find((r) => r.name !== '' && `${r.name}-${node}` === pod.metadata.name);
  if (!rt) return undefined;
  return previous ? '' : joinLines(rt.logs);
};

/** What the container's process printed; a restarted container printed the same on every run. */
const programLogs: LogSource = (_cluster, pod, container) => {
  const ct = [...pod.spec.containers, ...(pod.spec.initContainers ?? [])].find((c) => c.name === container);
  const image = ct ? lookupImage(ct.image) : undefined;
  if (!ct || !image) return undefined;
  const prog = containerProgram(ct, image);
  return prog.kind === 'not-found' ? '' : prog.output;
};

const BUILT_IN: readonly LogSource[] = [staticPodLogs, programLogs];

/** The logs of one container of a pod (current or previous instance); '' when nothing was printed. */
export function podLogs(cluster: Cluster, pod: Pod, container: string, previous: boolean): string {
  for (const s of [...sources, ...BUILT_IN]) {
    const text = s(cluster, pod, container, previous);
    if (text !== undefined) return text;
  }
  return '';
}
