/** A mirror pod `<component>-<node>`: the kubelet's run record of that static pod. */
import type { LogSource } from './index.js';
import { staticPods } from '../../node/runtime.js';

function joinLines(lines: readonly string[]): string {
  return lines.map((l) => (l.endsWith('\n') ? l : `${l}\n`)).join('');
}

export const staticPodLogs: LogSource = (cluster, pod, _container, previous) => {
  const node = pod.spec.nodeName;
  if (!node || pod.metadata.annotations?.['kubernetes.io/config.mirror'] === undefined) return undefined;
  const rt = Object.values(staticPods(cluster)[node] ?? {}).find((r) => r.name !== '' && `${r.name}-${node}` === pod.metadata.name);
  if (!rt) return undefined;
  return previous ? '' : joinLines(rt.logs);
};
