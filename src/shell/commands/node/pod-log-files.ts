/**
 * The kubelet's container log files on a node, generated from the cluster on read (see
 * VirtualFiles in src/sim/node/vfs.ts): /var/log/pods/<ns>_<pod>_<uid>/<container>/<restarts>.log
 * in the CRI log format (pkg/kubelet/kuberuntime/logs: `<RFC3339Nano> <stream> F <line>`), and
 * the /var/log/containers/<pod>_<ns>_<container>-<containerID>.log links to them
 * (pkg/kubelet/kuberuntime/kuberuntime_container.go legacyLogSymlink), which `cat` follows.
 * The text is what `kubectl logs` shows (src/sim/runtime/logs). Static pods come from the
 * kubelet's own run records, not from their mirror pods: the kubelet writes their logs while the
 * API server is down too (a broken kube-apiserver manifest is exactly when one reads these files),
 * under their config hash as the pod UID (pkg/kubelet/config/common.go applyDefaults).
 */
import type { Cluster } from '../../../sim/cluster.js';
import type { Pod } from '../../../sim/api/types.js';
import type { Host } from '../../../sim/node/host.js';
import type { VirtualFile, VirtualFiles } from '../../../sim/node/vfs.js';
import { podLogs } from '../../../sim/runtime/logs/index.js';
import { staticPods } from '../../../sim/node/runtime.js';

/** klog and zap (etcd) both write to stderr. */
const KLOG = /^([IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d{6}|\{"level":)/;

/** RFC3339Nano as containerd writes it: nine fractional digits. */
function criTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}

const KLOG_TIME = /^[IWEF](\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{3})/;
const ZAP_TIME = /^\{"level":"[a-z]+","ts":"([^"]+)"/;

/**
 * When a line was written: the time it logs itself (klog's `Lmmdd hh:mm:ss.uuuuuu`, which has
 * no year, or zap's "ts"), else the container's start. containerd stamps each line as it reads
 * it from the container's stdio, a moment after the component logged it.
 */
export function lineTime(line: string, start: number): number {
  const z = ZAP_TIME.exec(line);
  if (z) return Date.parse(z[1]!) || start;
  const k = KLOG_TIME.exec(line);
  if (!k) return start;
  const [mo, d, h, mi, sec, ms] = k.slice(1).map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 59) return start;
  const year = new Date(start).getUTCFullYear();
  const at = (y: number): number => Date.UTC(y, mo - 1, d, h, mi, sec, ms);
  // a line logged after New Year by a container started before it
  return at(year) < start - 86_400_000 ? at(year + 1) : at(year);
}

/** One CRI log line per output line; klog text went to stderr (Go components log there). */
function criLines(text: string, at: number): string {
  if (text === '') return '';
  return text
    .split('\n')
    .slice(0, text.endsWith('\n') ? -1 : undefined)
    .map((l) => `${criTime(lineTime(l, at))} ${KLOG.test(l) ? 'stderr' : 'stdout'} F ${l}\n`)
    .join('');
}

/** Each file's mtime is when its container started (the runtime creates the file then). */
export function podLogFiles(c: Cluster, host: Host): Record<string, VirtualFile> {
  const out: Record<string, VirtualFile> = {};
  for (const r of Object.values(staticPods(c)[host.name] ?? {})) {
    if (!r.name || !r.containerId || !(r.running || r.exited)) continue;
    const pod = `${r.name}-${host.name}`;
    const file = { content: criLines(r.logs.map((l) => (l.endsWith('\n') ? l : `${l}\n`)).join(''), r.since), mtime: r.since };
    out[`/var/log/pods/${r.namespace}_${pod}_${r.hash}/${r.name}/${r.restarts}.log`] = file;
    out[`/var/log/containers/${pod}_${r.namespace}_${r.name}-${r.containerId}.log`] = file;
  }
  for (const pod of c.store.list<Pod>('Pod')) {
    if (pod.spec.nodeName !== host.name || pod.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined) continue;
    const ns = pod.metadata.namespace ?? 'default';
    const uid = pod.metadata.uid ?? '';
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
