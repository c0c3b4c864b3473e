/**
 * The resource metrics a metrics-server would serve (metrics.k8s.io/v1beta1 NodeMetrics and
 * PodMetrics), modelled rather than measured: each running container uses what its image idles
 * at, plus the work its command does (`stress --cpu N --vm-bytes S`, a busy loop), plus its share
 * of the HTTP load that load-generator pods (`while true; do wget … http://SVC; done`) send to a
 * Service it backs; CPU is throttled at the container's limit and memory stays under it. Values
 * move a little from one 15 s scrape window to the next (a hash of the pod uid, container and
 * window, so the same seed and time give the same numbers). A node uses its pods' sum plus the
 * system's own share. Pure: read by `kubectl top` and the HPA controller alike.
 *
 * Availability follows the aggregator: no APIService v1beta1.metrics.k8s.io → `Metrics API not
 * available`; present but not Available → ServiceUnavailable; metrics exist for pods that have
 * run through one scrape (15 s) since metrics-server became ready.
 */
import type { Cluster } from './cluster.js';
import type { Container, KObject, Node, Pod, Service } from './api/types.js';
import { matchMap } from './api/selectors.js';
import { parseTime } from '../util/clock.js';

export const METRICS_APISERVICE_NAME = 'v1beta1.metrics.k8s.io';
/** metrics-server's --metric-resolution. */
export const SCRAPE_MS = 15_000;

export interface ContainerUsage {
  name: string;
  /** CPU in millicores. */
  cpu: number;
  /** Memory in bytes. */
  memory: number;
}

export interface PodUsage {
  namespace: string;
  name: string;
  containers: ContainerUsage[];
}

export type MetricsAvailability = { state: 'absent' } | { state: 'unavailable' } | { state: 'ready'; since: number };

interface APIServiceObj extends KObject {
  status?: { conditions?: { type: string; status: string; lastTransitionTime?: string }[] };
}

export function metricsAvailability(c: Cluster): MetricsAvailability {
  const svc = c.store.get<APIServiceObj>('APIService', undefined, METRICS_APISERVICE_NAME);
  if (!svc) return { state: 'absent' };
  const cond = svc.status?.conditions?.find((x) => x.type === 'Available');
  if (cond?.status !== 'True') return { state: 'unavailable' };
  return { state: 'ready', since: parseTime(cond.lastTransitionTime) };
}

const MI = 1024 * 1024;

/** Idle usage by image repository (the last path element): [millicores, MiB]. */
const IDLE: Record<string, [number, number]> = {
  nginx: [1, 3],
  httpd: [1, 7],
  busybox: [0, 0.4],
  alpine: [0, 0.5],
  redis: [2, 3],
  mysql: [6, 380],
  postgres: [1, 25],
  'hpa-example': [1, 11],
  stress: [0, 1],
  curl: [0, 1],
  coredns: [2, 14],
  'kube-apiserver': [38, 260],
  etcd: [22, 48],
  'kube-controller-manager': [14, 52],
  'kube-scheduler': [3, 22],
  'kube-proxy': [1, 16],
  node: [24, 118],
  'kube-controllers': [2, 16],
  flannel: [3, 14],
  'weave-kube': [2, 48],
  'metrics-server': [4, 19],
  'local-path-provisioner': [1, 9],
  controller: [2, 42],
};

function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** A factor in [1-spread, 1+spread], fixed for one scrape window. */
function wobble(key: string, window: number, spread: number): number {
  return 1 - spread + ((fnv(`${key}/${window}`) % 1000) / 999) * 2 * spread;
}

function repoName(image: string): string {
  const noTag = image.replace(/@.*$/, '').replace(/:[^/:]*$/, '');
  return noTag.split('/').pop() ?? noTag;
}

/** milli-units of a CPU quantity (`250m`, `1`, `0.5`). */
export function cpuMilli(q: string | undefined): number | undefined {
  if (q === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)(m?)$/.exec(q.trim());
  if (!m) return undefined;
  return m[2] ? Number(m[1]) : Number(m[1]) * 1000;
}

const MEM_UNITS: Record<string, number> = { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: MI, Gi: 1024 * MI, Ti: 1024 * 1024 * MI };

/** Bytes of a memory quantity (`128Mi`, `1G`, `500M`). */
export function memBytes(q: string | undefined): number | undefined {
  if (q === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)([kMGT]i?|Ki)?$/.exec(q.trim());
  if (!m) return undefined;
  return Number(m[1]) * (MEM_UNITS[m[2] ?? ''] ?? Number.NaN);
}

/** stress(1)'s size argument: `150M`, `1G`, `256k`, bytes (powers of 1024, as stress parses them). */
function stressBytes(s: string): number {
  const m = /^(\d+)([bBkKmMgG]?)$/.exec(s);
  if (!m) return 256 * MI;
  const mult: Record<string, number> = { '': 1, b: 1, k: 1024, m: MI, g: 1024 * MI };
  return Number(m[1]) * (mult[(m[2] ?? '').toLowerCase()] ?? 1);
}

function words(c: Container): string[] {
  return [...(c.command ?? []), ...(c.args ?? [])].join(' ').split(/\s+/).filter(Boolean);
}

/**
 * commandWork and loadTargets of a stored container, kept by it: stored pods are deep-frozen, so a
 * frozen container's command and args never change, and every scrape (the HPA's at each of its
 * syncs, `kubectl top`) asked both of every container again, a scan of its joined command line
 * each. The answers are frozen, shared by every caller; an unfrozen container is read afresh.
 */
const WORK = new WeakMap<Container, Readonly<{ cpu: number; memory: number }>>();
const TARGETS = new WeakMap<Container, { namespace: string; targets: readonly Readonly<{ name: string; namespace: string }>[] }>();

/** Whether the container and its command line are frozen (a stored pod's are: the store deep-freezes what it keeps). */
function commandFrozen(c: Container): boolean {
  return Object.isFrozen(c) && (c.command === undefined || Object.isFrozen(c.command)) && (c.args === undefined || Object.isFrozen(c.args));
}

/** What the container's own command does (readCommandWork), remembered for a frozen container. */
export function commandWork(c: Container): Readonly<{ cpu: number; memory: number }> {
  if (!commandFrozen(c)) return readCommandWork(c);
  let work = WORK.get(c);
  if (work === undefined) WORK.set(c, (work = Object.freeze(readCommandWork(c))));
  return work;
}

/** The Services a container's load loop hits (readLoadTargets), remembered for a frozen container. */
export function loadTargets(c: Container, namespace: string): readonly Readonly<{ name: string; namespace: string }>[] {
  if (!commandFrozen(c)) return readLoadTargets(c, namespace);
  const had = TARGETS.get(c);
  if (had !== undefined && had.namespace === namespace) return had.targets;
  const targets = Object.freeze(readLoadTargets(c, namespace).map((t) => Object.freeze(t)));
  TARGETS.set(c, { namespace, targets });
  return targets;
}

/** What the container's own command does: stress workers or a busy shell loop. */
function readCommandWork(c: Container): { cpu: number; memory: number } {
  const w = words(c);
  const text = w.join(' ');
  let cpu = 0;
  let memory = 0;
  const stress = w.findIndex((x) => x === 'stress' || x.endsWith('/stress') || x === 'stress-ng');
  if (stress >= 0) {
    for (let i = stress + 1; i < w.length; i++) {
      const a = w[i]!;
      const v = w[i + 1] ?? '';
      if (a === '--cpu' || a === '-c') cpu += 1000 * (Number(v) || 1);
      if (a === '--vm' || a === '-m') memory = Math.max(memory, 1) * (Number(v) || 1);
      if (a === '--vm-bytes') memory = (memory > 0 ? memory : 1) * stressBytes(v);
    }
    if (memory > 0 && !w.includes('--vm-bytes')) memory *= 256 * MI;
  } else if (/while\s+(true|:)\s*;\s*do\s*(:|true)?\s*;?\s*done/.test(text) || /\byes\b.*\/dev\/null/.test(text) || /md5sum\s+\/dev\/zero|dd\s+if=\/dev\/zero/.test(text)) {
    cpu = 1000;
  }
  return { cpu, memory };
}

/** The Services a load-generator container hits (`wget … http://NAME[.NS…][:PORT]` in a loop). */
function readLoadTargets(c: Container, namespace: string): { name: string; namespace: string }[] {
  const text = words(c).join(' ');
  if (!/\b(while|for)\b/.test(text) || !/\b(wget|curl)\b/.test(text)) return [];
  const out: { name: string; namespace: string }[] = [];
  for (const m of text.matchAll(/https?:\/\/([a-z0-9-]+)(?:\.([a-z0-9-]+))?[^\s;"']*/g)) out.push({ name: m[1]!, namespace: m[2] && m[2] !== 'svc' ? m[2] : namespace });
  return out;
}

/** CPU demand one load-generator loop puts on the pods behind a Service (millicores). */
const LOAD_PER_GENERATOR = 500;

function running(p: Pod): boolean {
  return p.status?.phase === 'Running' && !p.metadata.deletionTimestamp;
}

/** The extra CPU each pod gets from load generators, by pod uid. */
function serviceLoad(c: Cluster): Map<string, number> {
  const extra = new Map<string, number>();
  const pods = c.store.list<Pod>('Pod').filter(running);
  for (const gen of pods) {
    for (const ctr of gen.spec.containers) {
      for (const t of loadTargets(ctr, gen.metadata.namespace ?? 'default')) {
        const svc = c.store.get<Service>('Service', t.namespace, t.name);
        if (!svc?.spec.selector) continue;
        const backends = pods.filter((p) => p.metadata.namespace === t.namespace && matchMap(svc.spec.selector!, p.metadata.labels) && p.metadata.uid !== gen.metadata.uid);
        for (const b of backends) extra.set(b.metadata.uid ?? '', (extra.get(b.metadata.uid ?? '') ?? 0) + LOAD_PER_GENERATOR / backends.length);
      }
    }
  }
  return extra;
}

/** A container's usage at the present scrape window, whether or not metrics-server runs (ps, /proc). */
export function containerUsageNow(c: Cluster, pod: Pod, ctr: Container): ContainerUsage {
  return containerUsage(pod, ctr, Math.floor(c.now() / SCRAPE_MS), 0);
}

function containerUsage(pod: Pod, ctr: Container, window: number, load: number): ContainerUsage {
  const idle = IDLE[repoName(ctr.image ?? '')] ?? [1, 6];
  const key = `${pod.metadata.uid ?? pod.metadata.name}/${ctr.name}`;
  const work = commandWork(ctr);
  let cpu = Math.round((idle[0] + work.cpu + load) * wobble(`${key}/cpu`, window, 0.12));
  // a server's memory grows a little with the requests it handles
  let memory = Math.round((idle[1] * MI + work.memory + (load / 1000) * 4 * MI) * wobble(`${key}/mem`, window, 0.03));
  const cpuLimit = cpuMilli(ctr.resources?.limits?.['cpu']);
  const memLimit = memBytes(ctr.resources?.limits?.['memory']);
  if (cpuLimit !== undefined) cpu = Math.min(cpu, Math.round(cpuLimit * (0.97 + (fnv(`${key}/thr/${window}`) % 30) / 1000)));
  if (cpuLimit !== undefined) cpu = Math.min(cpu, cpuLimit);
  if (memLimit !== undefined) memory = Math.min(memory, Math.round(memLimit * 0.98));
  return { name: ctr.name, cpu: Math.max(0, cpu), memory: Math.max(0, memory) };
}

/**
 * PodMetrics of every running pod that has been scraped at least once (metrics-server needs one
 * full window after the pod started, and after it became ready itself).
 */
export function podMetrics(c: Cluster): PodUsage[] {
  const avail = metricsAvailability(c);
  if (avail.state !== 'ready') return [];
  const now = c.now();
  const window = Math.floor(now / SCRAPE_MS);
  const load = serviceLoad(c);
  const out: PodUsage[] = [];
  for (const pod of c.store.list<Pod>('Pod')) {
    if (!running(pod)) continue;
    const started = Math.max(
      avail.since,
      ...(pod.status?.containerStatuses ?? []).map((s) => parseTime((s.state as { running?: { startedAt?: string } } | undefined)?.running?.startedAt ?? pod.metadata.creationTimestamp)),
      parseTime(pod.metadata.creationTimestamp),
    );
    if (!(now - started >= SCRAPE_MS)) continue;
    const extra = (load.get(pod.metadata.uid ?? '') ?? 0) / Math.max(1, pod.spec.containers.length);
    out.push({ namespace: pod.metadata.namespace ?? 'default', name: pod.metadata.name, containers: pod.spec.containers.map((ctr) => containerUsage(pod, ctr, window, extra)) });
  }
  return out;
}

export interface NodeUsage {
  name: string;
  cpu: number;
  memory: number;
}

/** NodeMetrics: the node's pods plus the system (kubelet, containerd, the OS) — nodes that are Ready. */
export function nodeMetrics(c: Cluster): NodeUsage[] {
  const avail = metricsAvailability(c);
  if (avail.state !== 'ready' || c.now() - avail.since < SCRAPE_MS) return [];
  const window = Math.floor(c.now() / SCRAPE_MS);
  const pods = podMetrics(c);
  const podNode = new Map(c.store.list<Pod>('Pod').map((p) => [`${p.metadata.namespace}/${p.metadata.name}`, p.spec.nodeName ?? '']));
  const out: NodeUsage[] = [];
  for (const n of c.store.list<Node>('Node')) {
    const ready = n.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True');
    if (!ready) continue;
    const cp = 'node-role.kubernetes.io/control-plane' in (n.metadata.labels ?? {});
    let cpu = Math.round((cp ? 48 : 22) * wobble(`${n.metadata.name}/cpu`, window, 0.15));
    let memory = Math.round((cp ? 820 : 540) * MI * wobble(`${n.metadata.name}/mem`, window, 0.02));
    for (const p of pods) {
      if (podNode.get(`${p.namespace}/${p.name}`) !== n.metadata.name) continue;
      for (const ctr of p.containers) {
        cpu += ctr.cpu;
        memory += ctr.memory;
      }
    }
    out.push({ name: n.metadata.name, cpu, memory });
  }
  return out;
}
