/**
 * The kubelet's container log files on a node, generated from the cluster on read (see
 * VirtualFiles in src/sim/node/vfs.ts): /var/log/pods/<ns>_<pod>_<uid>/<container>/<restarts>.log
 * in the CRI log format (pkg/kubelet/kuberuntime/logs: `<RFC3339Nano> <stream> F <line>`), and
 * the /var/log/containers/<pod>_<ns>_<container>-<containerID>.log links to them
 * (pkg/kubelet/kuberuntime/kuberuntime_container.go legacyLogSymlink), which `cat` follows.
 * The text is what `kubectl logs` shows (src/sim/runtime/logs). Static pods use
 * their config hash as the pod UID, as the kubelet does.
 */
import type { Cluster } from '../../../sim/cluster.js';
import type { Pod } from '../../../sim/api/types.js';
import type { Host } from '../../../sim/node/host.js';
import type { VirtualFile, VirtualFiles } from '../../../sim/node/vfs.js';
import { podLogs } from '../../../sim/runtime/logs/index.js';

/** klog and zap (etcd) both write to stderr. */
const KLOG = /^([IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d{6}|\{"level":)/;

/** RFC3339Nano as containerd writes it: nine fractional digits. */
function criTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}

/** One CRI log line per output line; klog text went to stderr (Go components log there). */
function criLines(text: string, at: number): string {
  if (text === '') return '';
  const t = criTime(at);
  return text
    .split('\n')
    .slice(0, text.endsWith('\n') ? -1 : undefined)
    .map((l) => `${t} ${KLOG.test(l) ? 'stderr' : 'stdout'} F ${l}\n`)
    .join('');
}

/** Each file's mtime is when its container started (the runtime creates the file then). */
export function podLogFiles(c: Cluster, host: Host): Record<string, VirtualFile> {
  const out: Record<string, VirtualFile> = {};
  for (const pod of c.store.list<Pod>('Pod')) {
    if (pod.spec.nodeName !== host.name) continue;
    const ns = pod.metadata.namespace ?? 'default';
    const uid = pod.metadata.annotations?.['kubernetes.io/config.hash'] ?? pod.metadata.uid ?? '';
    const dir = `/var/log/pods/${ns}_${pod.metadata.name}_${uid}`;
    for (const cs of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
      const id = (cs.containerID ?? '').replace(/^[a-z]+:\/\//, '');
      if (!id) continue; // never created: the kubelet has no log file for it yet
      const started = cs.state.running?.startedAt ?? cs.state.terminated?.startedAt ?? cs.lastState?.terminated?.startedAt ?? pod.status?.startTime;
      const at = Date.parse(started ?? '') || c.now();
      const file = { content: criLines(podLogs(c, pod, cs.name, false), at), mtime: at };
      out[`${dir}/${cs.name}/${cs.restartCount}.log`] = file;
      out[`/var/log/containers/${pod.metadata.name}_${ns}_${cs.name}-${id}.log`] = file;
    }
  }
  return out;
}

/** The generator the node's filesystem consults for /var/log/pods and /var/log/containers. */
export function nodeLogFiles(c: Cluster, host: Host): VirtualFiles {
  return { prefixes: ['/var/log/pods', '/var/log/containers'], files: () => podLogFiles(c, host) };
}
