/**
 * `kubectl top node|pod` (k8s.io/kubectl pkg/cmd/top top_node.go, top_pod.go;
 * pkg/metricsutil metrics_printer.go, metrics_sorter.go). The Metrics API is the simulated
 * metrics-server (sim/metrics.ts): without its APIService kubectl says `Metrics API not
 * available`; while it is not Available the aggregator answers ServiceUnavailable; right after
 * it starts there are no metrics yet. Columns go through cli-runtime's tabwriter with every cell
 * tab-terminated (printValue writes `%v\t`), so the last column is padded too. Nodes sort by
 * name, pods by namespace and name, unless `--sort-by=cpu|memory` (largest first).
 */
import type { Node, Pod } from '../../../sim/api/types.js';
import { ApiError } from '../../../sim/api/errors.js';
import { matchRequirements, parseLabelSelector, parseFieldSelector, matchFields } from '../../../sim/api/selectors.js';
import { memBytes, cpuMilli, metricsAvailability, nodeMetrics, podMetrics, type PodUsage } from '../../../sim/metrics.js';
import { parseTime } from '../../../util/clock.js';
import type { KubectlEnv, Verb } from '../context.js';
import { KubectlError } from '../errors.js';
import { type Parsed, bool, str } from '../flags.js';
import { namespaceOf } from '../target.js';
import { GET_TABWRITER, tabwrite } from '../../printers/tabwriter.js';
import { goDuration } from '../../../util/go-duration.js';

const MI = 1024 * 1024;

/** The checks both subcommands make before asking for metrics (RunTopNode/RunTopPod). */
function checkMetricsAPI(env: KubectlEnv, resource: 'nodes' | 'pods'): void {
  env.api.ensureUp();
  const a = metricsAvailability(env.cluster);
  if (a.state === 'absent') throw new KubectlError('Metrics API not available');
  if (a.state === 'unavailable')
    throw new ApiError('ServiceUnavailable', `the server is currently unable to handle the request (get ${resource}.metrics.k8s.io)`, 503);
}

function validateSort(p: Parsed): string {
  const sortBy = str(p.flags, 'sort-by') ?? '';
  if (sortBy !== '' && sortBy !== 'cpu' && sortBy !== 'memory') throw new KubectlError('--sort-by accepts only cpu or memory');
  return sortBy;
}

/** printSingleResourceUsage: `%vm` of milli-CPU, `%vMi` of whole mebibytes. */
const cpuCell = (m: number): string => `${Math.trunc(m)}m`;
const memCell = (b: number): string => `${Math.trunc(b / MI)}Mi`;

/** `%d%%` of int64(usage / available × 100). */
function percent(used: number, avail: number): string {
  return `${avail === 0 ? 0 : Math.trunc((used / avail) * 100)}%`;
}

function render(lines: string[][]): string {
  return tabwrite(lines.map((cells) => cells.map((c) => `${c}\t`).join('') + '\n').join(''), GET_TABWRITER);
}

function runTopNode(p: Parsed, env: KubectlEnv): string {
  const sortBy = validateSort(p);
  const name = p.args[0];
  const selector = str(p.flags, 'selector') ?? '';
  if (name && selector) throw new KubectlError('only one of NAME or --selector can be provided');
  const reqs = selector ? parseLabelSelector(selector) : [];
  checkMetricsAPI(env, 'nodes');
  let nodes = env.api.list<Node>('Node').filter((n) => matchRequirements(reqs, n.metadata.labels));
  let metrics = nodeMetrics(env.cluster).filter((m) => nodes.some((n) => n.metadata.name === m.name));
  if (name) {
    metrics = metrics.filter((m) => m.name === name);
    if (metrics.length === 0) throw new ApiError('NotFound', `nodemetrics.metrics.k8s.io "${name}" not found`, 404);
    nodes = [env.api.get<Node>('Node', undefined, name)];
  }
  if (metrics.length === 0) throw new KubectlError('metrics not available yet');
  const sorted = [...metrics].sort((a, b) => (sortBy === 'cpu' ? b.cpu - a.cpu : sortBy === 'memory' ? b.memory - a.memory : a.name < b.name ? -1 : 1));
  const lines: string[][] = bool(p.flags, 'no-headers') ? [] : [['NAME', 'CPU(cores)', 'CPU(%)', 'MEMORY(bytes)', 'MEMORY(%)']];
  const showCapacity = bool(p.flags, 'show-capacity');
  const available = new Map(
    nodes.map((n) => {
      const r = (showCapacity ? n.status?.capacity : n.status?.allocatable) as Record<string, string> | undefined;
      return [n.metadata.name, { cpu: cpuMilli(r?.['cpu']) ?? 0, memory: memBytes(r?.['memory']) ?? 0 }];
    }),
  );
  for (const m of sorted) {
    const a = available.get(m.name) ?? { cpu: 0, memory: 0 };
    lines.push([m.name, cpuCell(m.cpu), percent(m.cpu, a.cpu), memCell(m.memory), percent(m.memory, a.memory)]);
    available.delete(m.name);
  }
  // nodes without metrics (NotReady): printMissingMetricsNodeLine, in map order (here: name order)
  for (const n of [...available.keys()].sort()) lines.push([n, '<unknown>', '<unknown>', '<unknown>', '<unknown>']);
  return render(lines);
}

/** metricsCreationDelay: a pod younger than this simply has no metrics yet. */
const CREATION_DELAY_MS = 2 * 60_000;

function runTopPod(p: Parsed, env: KubectlEnv): { stdout: string; stderr: string } {
  const sortBy = validateSort(p);
  const name = p.args[0];
  const selector = str(p.flags, 'selector') ?? '';
  if (name && selector) throw new KubectlError('only one of NAME or selector can be provided');
  const all = bool(p.flags, 'all-namespaces');
  const ns = namespaceOf(env, p).name;
  const reqs = selector ? parseLabelSelector(selector) : [];
  const fieldSel = str(p.flags, 'field-selector') ?? '';
  const freqs = fieldSel ? parseFieldSelector(fieldSel) : [];
  checkMetricsAPI(env, 'pods');
  const pods = env.api.list<Pod>('Pod', all ? undefined : ns).filter((x) => matchRequirements(reqs, x.metadata.labels) && matchFields(freqs, x));
  const byKey = new Map(pods.map((x) => [`${x.metadata.namespace}/${x.metadata.name}`, x]));
  let metrics: PodUsage[] = podMetrics(env.cluster).filter((m) => byKey.has(`${m.namespace}/${m.name}`));
  if (name) {
    metrics = metrics.filter((m) => m.name === name && m.namespace === ns);
    if (metrics.length === 0) {
      const pod = env.api.tryGet<Pod>('Pod', ns, name);
      if (!pod) throw new ApiError('NotFound', `podmetrics.metrics.k8s.io "${ns}/${name}" not found`, 404);
    }
  }
  let stderr = '';
  if (metrics.length === 0) {
    // verifyEmptyMetrics: an old pod without metrics is an error; young ones are "not available yet"
    const candidates = name ? [env.api.get<Pod>('Pod', ns, name)] : pods;
    if (candidates.length > 0) {
      const now = env.cluster.now();
      for (const pod of candidates) {
        const age = now - parseTime(pod.metadata.creationTimestamp);
        if (age > CREATION_DELAY_MS) throw new KubectlError(`Metrics not available for pod ${pod.metadata.namespace}/${pod.metadata.name}, age: ${goDuration(age)}`);
      }
      throw new KubectlError('metrics not available yet');
    }
    stderr = all ? 'No resources found\n' : `No resources found in ${ns} namespace.\n`;
    return { stdout: '', stderr };
  }
  const containers = bool(p.flags, 'containers');
  const sum = (m: PodUsage, k: 'cpu' | 'memory'): number => m.containers.reduce((s, c) => s + c[k], 0);
  const sorted = [...metrics].sort((a, b) => {
    if (sortBy === 'cpu') return sum(b, 'cpu') - sum(a, 'cpu');
    if (sortBy === 'memory') return sum(b, 'memory') - sum(a, 'memory');
    if (all && a.namespace !== b.namespace) return a.namespace < b.namespace ? -1 : 1;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
  const lines: string[][] = [];
  if (!bool(p.flags, 'no-headers')) lines.push([...(all ? ['NAMESPACE'] : []), ...(containers ? ['POD'] : []), 'NAME', 'CPU(cores)', 'MEMORY(bytes)']);
  for (const m of sorted) {
    const prefix = all ? [m.namespace] : [];
    if (containers) {
      const cs = [...m.containers].sort((a, b) => (sortBy === 'cpu' ? b.cpu - a.cpu : sortBy === 'memory' ? b.memory - a.memory : a.name < b.name ? -1 : 1));
      for (const c of cs) lines.push([...prefix, m.name, c.name, cpuCell(c.cpu), memCell(c.memory)]);
    } else lines.push([...prefix, m.name, cpuCell(sum(m, 'cpu')), memCell(sum(m, 'memory'))]);
  }
  if (bool(p.flags, 'sum')) {
    const width = 3 + (all ? 1 : 0) + (containers ? 1 : 0);
    const cpu = sorted.reduce((s, m) => s + sum(m, 'cpu'), 0);
    const mem = sorted.reduce((s, m) => s + sum(m, 'memory'), 0);
    lines.push([...Array<string>(width - 2).fill(''), '________', '________']);
    lines.push([...Array<string>(width - 3).fill(''), '', cpuCell(cpu), memCell(mem)]);
  }
  return { stdout: render(lines), stderr };
}

export const topNodeVerb: Verb = {
  name: 'top node',
  run(inv, env) {
    return { stdout: runTopNode(inv.parsed, env), stderr: '', exitCode: 0 };
  },
};

export const topPodVerb: Verb = {
  name: 'top pod',
  run(inv, env) {
    const r = runTopPod(inv.parsed, env);
    return { ...r, exitCode: 0 };
  },
};
