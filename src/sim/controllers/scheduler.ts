/**
 * kube-scheduler with the default profile (k8s.io/kubernetes pkg/scheduler/schedule_one.go): pods
 * without a node are taken in PrioritySort order (priority, then age); each runs PreFilter, Filter
 * and Score through the plugins of sim/scheduling, and binds to the best node, ties broken by the
 * seeded random source (selectHost). A pod that fits nowhere gets PodScheduled=False/Unschedulable
 * and a FailedScheduling event with FitError's text, after the DefaultPreemption PostFilter has
 * tried to make room by evicting lower-priority pods (Preempted events on the victims, the node in
 * status.nominatedNodeName; the pod binds there once the victims are gone).
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Labels, LabelSelector, Node, Pod, ReplicaSet, Service, StatefulSet, Toleration } from '../api/types.js';
import type { Taint } from '../api/types.js';
import { cloneTop } from '../api/store.js';
import { matchMap } from '../api/selectors.js';
import { computePodQOS } from '../api/qos.js';
import { unboundImmediateClaim, volumeBindingConflict, type PersistentVolumeClaim } from '../api/storage.js';
import { fitErrorMessage, findNodesThatFit } from '../scheduling/framework.js';
import { podPriority, preempt, terminatingByPreemption } from '../scheduling/preemption.js';
import { nodeInfo } from '../scheduling/resources.js';
import type { NodeInfo, SchedulingContext } from '../scheduling/types.js';
import { tolerates as toleratesTaint } from '../scheduling/plugins/taint-toleration.js';
import { deletePod } from './replicaset.js';
import { controllerOf } from './util.js';
import { NamespaceCache } from './namespace-cache.js';

export const schedulerController: Controller = {
  name: 'scheduler',
  watches: ['Pod', 'Node', 'PersistentVolumeClaim', 'Namespace', 'Service'],
  reconcile(c: Cluster): void {
    const st = c.state.scheduler;
    if (st && !st.up) return;
    const cache = new SchedulerCache(c);
    for (const pod of pendingPods(c)) {
      const cur = c.store.get<Pod>('Pod', pod.metadata.namespace, pod.metadata.name);
      if (!cur || cur.spec.nodeName || cur.metadata.deletionTimestamp) continue;
      scheduleOne(c, cur, cache);
      cache.sync(cur);
    }
  },
};

/** TaintToleration's matching, kept here for the DaemonSet controller. */
export function tolerates(tolerations: Toleration[] | undefined, taint: Pick<Taint, 'key' | 'value' | 'effect'>): boolean {
  return toleratesTaint(tolerations, taint);
}

/** The active queue in PrioritySort order: higher priority first, then the older pod. */
function pendingPods(c: Cluster): Pod[] {
  return c.store
    .list<Pod>('Pod')
    .filter((p) => !p.spec.nodeName && !p.metadata.deletionTimestamp && (p.spec.schedulerName ?? 'default-scheduler') === 'default-scheduler')
    .sort((a, b) => podPriority(b) - podPriority(a) || cmp(a.metadata.creationTimestamp ?? '', b.metadata.creationTimestamp ?? '') || cmp(`${a.metadata.namespace}/${a.metadata.name}`, `${b.metadata.namespace}/${b.metadata.name}`));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Pods in the store's order (namespace/name), as the snapshot lists them. */
function podKey(p: Pod): string {
  return `${p.metadata.namespace ?? ''}/${p.metadata.name}`;
}

function finished(p: Pod): boolean {
  const phase = p.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/**
 * The scheduler cache (pkg/scheduler/backend/cache/cache.go): the pods assigned to each node and
 * the pending pods nominated to one, built once per reconcile and kept current as this scheduler
 * binds or nominates pods, so each cycle's snapshot costs O(nodes) rather than a scan of every
 * pod (5,000 replicas would otherwise cost 5,000 scans of 5,000 pods). Any Pod write it did not
 * make itself (a preemption's deletions) is noticed by the store's change counter and the cache
 * is rebuilt from the store.
 */
export class SchedulerCache {
  private assigned = new Map<string, Pod[]>();
  private infos = new Map<string, NodeInfo>();
  private nominated = new Map<string, Pod>();
  private nodes: Node[] = [];
  private seen = -1;
  private seenNodes = -1;

  constructor(private readonly c: Cluster) {}

  private podChanges(): number {
    return this.c.store.changes.get('Pod') ?? 0;
  }

  private nodeChanges(): number {
    return this.c.store.changes.get('Node') ?? 0;
  }

  private rebuild(): void {
    this.assigned.clear();
    this.infos.clear();
    this.nominated.clear();
    for (const p of this.c.store.list<Pod>('Pod')) {
      if (finished(p)) continue;
      if (p.spec.nodeName) {
        const list = this.assigned.get(p.spec.nodeName);
        if (list) list.push(p);
        else this.assigned.set(p.spec.nodeName, [p]);
      } else if (p.status?.nominatedNodeName) this.nominated.set(podKey(p), p);
    }
    this.nodes = this.c.store.list<Node>('Node');
    this.seen = this.podChanges();
    this.seenNodes = this.nodeChanges();
  }

  private fresh(): void {
    if (this.seen !== this.podChanges() || this.seenNodes !== this.nodeChanges()) this.rebuild();
  }

  private info(node: Node): NodeInfo {
    const name = node.metadata.name;
    let ni = this.infos.get(name);
    if (!ni) {
      ni = nodeInfo(node, this.assigned.get(name) ?? []);
      this.infos.set(name, ni);
    }
    return ni;
  }

  /**
   * The snapshot for one pod: each node with its assigned pods plus, as
   * RunFilterPluginsWithNominatedPods does, pending pods of at least this priority nominated there
   * (finished pods do not count).
   */
  nodeInfos(forPod: Pod): NodeInfo[] {
    this.fresh();
    const extra = new Map<string, Pod[]>();
    for (const p of this.nominated.values()) {
      if (p.metadata.uid === forPod.metadata.uid || podPriority(p) < podPriority(forPod)) continue;
      const at = p.status!.nominatedNodeName!;
      extra.set(at, [...(extra.get(at) ?? []), p]);
    }
    return this.nodes.map((n) => {
      const more = extra.get(n.metadata.name);
      if (!more) return this.info(n);
      const pods = [...(this.assigned.get(n.metadata.name) ?? []), ...more].sort((a, b) => cmp(podKey(a), podKey(b)));
      return nodeInfo(n, pods);
    });
  }

  /**
   * After a scheduling cycle of `pod`: when the only Pod write since the cache was current is
   * this pod's own (bound, or marked unschedulable and perhaps nominated), apply it; otherwise
   * the next snapshot rebuilds.
   */
  sync(pod: Pod): void {
    const changes = this.podChanges();
    if (changes === this.seen) return;
    if (changes !== this.seen + 1 || this.seenNodes !== this.nodeChanges()) return;
    const key = podKey(pod);
    const cur = this.c.store.get<Pod>('Pod', pod.metadata.namespace, pod.metadata.name);
    this.nominated.delete(key);
    if (cur && !finished(cur)) {
      if (cur.spec.nodeName) {
        const node = cur.spec.nodeName;
        const list = [...(this.assigned.get(node) ?? [])];
        let i = list.length;
        while (i > 0 && cmp(podKey(list[i - 1]!), key) > 0) i--;
        list.splice(i, 0, cur);
        this.assigned.set(node, list);
        this.infos.delete(node);
      } else if (cur.status?.nominatedNodeName) this.nominated.set(key, cur);
    }
    this.seen = changes;
  }

  /** Writes this cache cannot follow (a preemption's victims): the next snapshot rebuilds. */
  invalidate(): void {
    this.seen = -1;
  }

  context(forPod: Pod): SchedulingContext {
    return schedulingContext(this.c, this.nodeInfos(forPod));
  }
}

/** The scheduler's snapshot over the given nodes, with the store behind the plugins' lookups. */
function schedulingContext(c: Cluster, nodes: NodeInfo[]): SchedulingContext {
  return {
    nodes,
    namespaceLabels: (ns) => c.store.get('Namespace', undefined, ns)?.metadata.labels,
    claimProblem: (ns, name) => {
      const claim = c.store.get<PersistentVolumeClaim>('PersistentVolumeClaim', ns, name);
      if (!claim) return `persistentvolumeclaim "${name}" not found`;
      // volumebinding binder.go GetPodVolumeClaims: a claim being deleted cannot be used
      if (claim.metadata.deletionTimestamp) return `persistentvolumeclaim "${name}" is being deleted`;
      return unboundImmediateClaim(c.store, claim) ? 'pod has unbound immediate PersistentVolumeClaims' : undefined;
    },
    volumeConflict: (pod, node) => volumeBindingConflict(pod, node, c.store),
    defaultSpreadSelector: (pod) => defaultSelector(c, pod),
  };
}

/**
 * helper.DefaultSelector: the labels of the Services selecting the pod and the selector of its
 * ReplicaSet or StatefulSet, ANDed; undefined when there is none (no default spreading).
 */
function defaultSelector(c: Cluster, pod: Pod): LabelSelector | undefined {
  const ns = pod.metadata.namespace ?? 'default';
  const matchLabels: Record<string, string> = {};
  const matchExpressions: NonNullable<LabelSelector['matchExpressions']> = [];
  let any = false;
  for (const svc of selectingServices(c, ns, pod.metadata.labels)) {
    Object.assign(matchLabels, svc.spec.selector);
    any = true;
  }
  const owner = controllerOf(pod);
  if (owner && (owner.kind === 'ReplicaSet' || owner.kind === 'StatefulSet')) {
    const o = c.store.get<ReplicaSet | StatefulSet>(owner.kind, ns, owner.name);
    const sel = o?.spec.selector;
    if (sel) {
      Object.assign(matchLabels, sel.matchLabels ?? {});
      matchExpressions.push(...(sel.matchExpressions ?? []));
      any = true;
    }
  }
  if (!any) return undefined;
  return { matchLabels, ...(matchExpressions.length ? { matchExpressions } : {}) };
}

/**
 * The Services of `ns` whose (non-empty) selector matches `labels`, in store order: what
 * filtering the namespace's Services with matchMap gives. Each pod's cycle asked it of every
 * Service of its namespace (333 pods of an applied file × 333 Services); the namespace's Services
 * are kept bucketed by one pair of their selector (its first), so only the Services with a pair
 * the pod has are matched. Exact while the namespace's Services are unchanged (namespace-cache.ts).
 */
export function selectingServices(c: Cluster, ns: string, labels: Labels | undefined): Service[] {
  if (!labels) return [];
  const index = SERVICE_SELECTORS.get(c.store, 'Service', ns);
  const found: Service[] = [];
  for (const [k, v] of Object.entries(labels)) {
    for (const svc of index.buckets.get(k)?.get(v) ?? []) if (matchMap(svc.spec.selector!, labels)) found.push(svc);
  }
  if (found.length > 1) found.sort((a, b) => index.at.get(a)! - index.at.get(b)!);
  return found;
}

interface ServiceSelectorIndex {
  /** By the first selector key, then its value. */
  readonly buckets: Map<string, Map<string, Service[]>>;
  readonly at: Map<Service, number>;
}

const SERVICE_SELECTORS = new NamespaceCache<ServiceSelectorIndex>((services) => {
  const buckets = new Map<string, Map<string, Service[]>>();
  const at = new Map<Service, number>();
  (services as readonly Service[]).forEach((svc, i) => {
    const sel = svc.spec.selector;
    const first = sel ? Object.keys(sel)[0] : undefined;
    if (first === undefined) return;
    at.set(svc, i);
    let byValue = buckets.get(first);
    if (!byValue) buckets.set(first, (byValue = new Map()));
    const value = sel![first]!;
    const bucket = byValue.get(value);
    if (bucket) bucket.push(svc);
    else byValue.set(value, [svc]);
  });
  return { buckets, at };
});

function scheduleOne(c: Cluster, pod: Pod, cache: SchedulerCache): void {
  // Victims of this pod's preemption are still terminating: the scheduling queue holds the pod
  // until their deletion (the assigned-pod delete event) moves it back.
  const nominated = pod.status?.nominatedNodeName;
  if (nominated && c.store.list<Pod>('Pod').some((p) => p.spec.nodeName === nominated && terminatingByPreemption(p) && podPriority(p) < podPriority(pod))) return;
  const ctx = cache.context(pod);
  if (ctx.nodes.length === 0) {
    recordFailure(c, pod, 'no nodes available to schedule pods');
    return;
  }
  const result = findNodesThatFit(ctx, pod);
  if ('feasible' in result) {
    const top = Math.max(...result.scores);
    const best = result.feasible.filter((_, i) => result.scores[i] === top);
    bind(c, pod, best[c.random.int(best.length)]!.node.metadata.name);
    return;
  }
  const outcome = preempt(ctx, pod, result.diagnosis);
  if (outcome.nominatedNode) {
    for (const v of outcome.victims) preemptVictim(c, v, pod, outcome.nominatedNode);
    cache.invalidate();
  }
  recordFailure(c, pod, fitErrorMessage(result.diagnosis, outcome.message), outcome.nominatedNode);
}

/**
 * handleSchedulingFailure: PodScheduled=False/Unschedulable with the message, the nominated node
 * when preemption chose one, and a FailedScheduling event. A retry that ends the same way changes
 * nothing (the real scheduler backs off; its repeated events only raise the count).
 */
function recordFailure(c: Cluster, pod: Pod, msg: string, nominatedNode?: string): void {
  const conds = pod.status?.conditions ?? [];
  const same = conds.some((x) => x.type === 'PodScheduled' && x.status === 'False' && x.message === msg);
  if (same && (nominatedNode === undefined || pod.status?.nominatedNodeName === nominatedNode)) return;
  const upd = cloneTop(pod);
  const prev = conds.find((x) => x.type === 'PodScheduled');
  upd.status = {
    ...(upd.status ?? {}),
    phase: 'Pending',
    conditions: [
      ...conds.filter((x) => x.type !== 'PodScheduled'),
      { type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: prev?.status === 'False' && prev.lastTransitionTime ? prev.lastTransitionTime : c.timestamp(), reason: 'Unschedulable', message: msg },
    ],
    qosClass: upd.status?.qosClass ?? computePodQOS(pod),
  };
  if (nominatedNode) upd.status.nominatedNodeName = nominatedNode;
  c.write(upd);
  c.recordEvent(pod, 'Warning', 'FailedScheduling', msg, 'default-scheduler');
}

/**
 * Evaluator.PreemptPod: the victim gets DisruptionTarget (PreemptionByScheduler), is deleted
 * gracefully, and records `Preempted by pod <preemptor uid> on node <node>`.
 */
function preemptVictim(c: Cluster, victim: Pod, preemptor: Pod, node: string): void {
  const upd = cloneTop(victim);
  upd.status = {
    ...upd.status,
    conditions: [
      ...(upd.status?.conditions ?? []).filter((x) => x.type !== 'DisruptionTarget'),
      { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: c.timestamp(), reason: 'PreemptionByScheduler', message: `${preemptor.spec.schedulerName ?? 'default-scheduler'}: preempting to accommodate a higher priority pod` },
    ],
  };
  c.write(upd);
  deletePod(c, upd);
  c.recordEvent(victim, 'Normal', 'Preempted', `Preempted by pod ${preemptor.metadata.uid ?? ''} on node ${node}`, 'default-scheduler');
}

export function bind(c: Cluster, pod: Pod, nodeName: string): void {
  const upd = cloneTop(pod);
  upd.spec = { ...upd.spec, nodeName };
  const conds = (upd.status?.conditions ?? []).filter((x) => x.type !== 'PodScheduled');
  upd.status = {
    ...(upd.status ?? {}),
    phase: 'Pending',
    conditions: [...conds, { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: c.timestamp() }],
    qosClass: upd.status?.qosClass ?? computePodQOS(pod),
  };
  delete upd.status.nominatedNodeName;
  c.write(upd);
  c.recordEvent(pod, 'Normal', 'Scheduled', `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${nodeName}`, 'default-scheduler');
}

