/**
 * kube-scheduler (k8s.io/kubernetes pkg/scheduler, default plugins NodeUnschedulable,
 * NodeName, NodeAffinity(nodeSelector), TaintToleration, NodeResourcesFit-lite): binds each
 * pending pod to a feasible node, spreading by the number of pods already there, and records
 * Scheduled / FailedScheduling with the real message shape.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Node, Pod, Taint, Toleration } from '../api/types.js';
import { clone } from '../api/store.js';
import { matchMap } from '../api/selectors.js';
import { unboundImmediateClaim, volumeNodeAffinityOk, type PersistentVolumeClaim } from '../api/storage.js';

export const schedulerController: Controller = {
  name: 'scheduler',
  watches: ['Pod', 'Node', 'PersistentVolumeClaim'],
  reconcile(c: Cluster): void {
    const st = c.state.scheduler;
    if (st && !st.up) return;
    const nodes = c.store.list<Node>('Node');
    for (const pod of c.store.list<Pod>('Pod')) {
      if (pod.spec.nodeName || pod.metadata.deletionTimestamp) continue;
      if (pod.spec.schedulerName && pod.spec.schedulerName !== 'default-scheduler') continue;
      schedule(c, pod, nodes);
    }
  },
};

export function tolerates(tolerations: Toleration[] | undefined, taint: Taint): boolean {
  return (tolerations ?? []).some((t) => {
    if (t.effect && t.effect !== taint.effect) return false;
    if (t.operator === 'Exists') return !t.key || t.key === taint.key;
    return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
  });
}

function nodeReady(n: Node): boolean {
  return n.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True') ?? false;
}

/** PreFilter of the VolumeBinding plugin: every claim must exist and (immediate binding) be Bound. */
function volumeProblem(c: Cluster, pod: Pod): string | undefined {
  for (const v of pod.spec.volumes ?? []) {
    const name = v.persistentVolumeClaim?.claimName;
    if (!name) continue;
    const claim = c.store.get<PersistentVolumeClaim>('PersistentVolumeClaim', pod.metadata.namespace, name);
    if (!claim) return `persistentvolumeclaim "${name}" not found`;
    if (unboundImmediateClaim(c.store, claim)) return 'pod has unbound immediate PersistentVolumeClaims';
  }
  return undefined;
}

function schedule(c: Cluster, pod: Pod, nodes: Node[]): void {
  const vp = volumeProblem(c, pod);
  if (vp) {
    const msg = `0/${nodes.length} nodes are available: ${vp}. preemption: 0/${nodes.length} nodes are available: ${nodes.length} Preemption is not helpful for scheduling.`;
    if (!(pod.status?.conditions ?? []).some((x) => x.type === 'PodScheduled' && x.message === msg)) {
      const upd = clone(pod);
      upd.status = { ...(upd.status ?? {}), phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: c.timestamp(), reason: 'Unschedulable', message: msg }] };
      c.write(upd);
      c.recordEvent(pod, 'Warning', 'FailedScheduling', msg, 'default-scheduler');
    }
    return;
  }
  const reasons = new Map<string, number>();
  const bump = (r: string): void => {
    reasons.set(r, (reasons.get(r) ?? 0) + 1);
  };
  const feasible: Node[] = [];
  for (const n of nodes) {
    if (n.spec.unschedulable && !tolerates(pod.spec.tolerations, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' })) {
      bump('node(s) were unschedulable');
      continue;
    }
    const taints = [...(n.spec.taints ?? [])];
    if (!nodeReady(n)) taints.push({ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' });
    const untolerated = taints.find((t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerates(pod.spec.tolerations, t));
    if (untolerated) {
      bump(`node(s) had untolerated taint {${untolerated.key}: ${untolerated.value ?? ''}}`);
      continue;
    }
    if (pod.spec.nodeSelector && !matchMap(pod.spec.nodeSelector, n.metadata.labels)) {
      bump("node(s) didn't match Pod's node affinity/selector");
      continue;
    }
    if (!volumeNodeAffinityOk(pod, n, c.store)) {
      bump('node(s) had volume node affinity conflict');
      continue;
    }
    feasible.push(n);
  }
  if (feasible.length === 0) {
    // fitError.Error() sorts the formatted "<count> <reason>" strings
    const detail = [...reasons.entries()].map(([r, n]) => `${n} ${r}`).sort().join(', ');
    const msg = `0/${nodes.length} nodes are available: ${detail}${detail ? '. ' : ''}preemption: 0/${nodes.length} nodes are available: ${nodes.length} Preemption is not helpful for scheduling.`;
    const conds = pod.status?.conditions ?? [];
    if (!conds.some((x) => x.type === 'PodScheduled' && x.message === msg)) {
      const upd = clone(pod);
      upd.status = {
        ...(upd.status ?? {}),
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: c.timestamp(), reason: 'Unschedulable', message: msg }],
      };
      c.write(upd);
      c.recordEvent(pod, 'Warning', 'FailedScheduling', msg, 'default-scheduler');
    }
    return;
  }
  // Score: fewest pods of the same controller first (the default PodTopologySpread / SelectorSpread
  // behaviour), then fewest pods overall; ties broken by the seeded source.
  const owner = pod.metadata.ownerReferences?.find((r) => r.controller)?.uid;
  const load = new Map<string, number>();
  const siblings = new Map<string, number>();
  for (const p of c.store.list<Pod>('Pod')) {
    if (!p.spec.nodeName || p.metadata.deletionTimestamp) continue;
    load.set(p.spec.nodeName, (load.get(p.spec.nodeName) ?? 0) + 1);
    if (owner && p.metadata.ownerReferences?.some((r) => r.uid === owner)) siblings.set(p.spec.nodeName, (siblings.get(p.spec.nodeName) ?? 0) + 1);
  }
  const score = (n: Node): number => (siblings.get(n.metadata.name) ?? 0) * 10_000 + (load.get(n.metadata.name) ?? 0);
  const min = Math.min(...feasible.map(score));
  const best = feasible.filter((n) => score(n) === min);
  const chosen = best[c.random.int(best.length)]!;
  bind(c, pod, chosen.metadata.name);
}

export function bind(c: Cluster, pod: Pod, nodeName: string): void {
  const upd = clone(pod);
  upd.spec.nodeName = nodeName;
  upd.status = {
    ...(upd.status ?? {}),
    phase: 'Pending',
    conditions: [{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: c.timestamp() }],
    qosClass: upd.status?.qosClass ?? qosClass(pod),
  };
  c.write(upd);
  c.recordEvent(pod, 'Normal', 'Scheduled', `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${nodeName}`, 'default-scheduler');
}

/** QoS class (pkg/apis/core/helper/qos): Guaranteed when every container has equal cpu+memory requests and limits. */
export function qosClass(pod: Pod): string {
  const cs = pod.spec.containers;
  const any = cs.some((c) => Object.keys(c.resources?.requests ?? {}).length + Object.keys(c.resources?.limits ?? {}).length > 0);
  if (!any) return 'BestEffort';
  const guaranteed = cs.every((c) => {
    const l = c.resources?.limits ?? {};
    const r = { ...l, ...(c.resources?.requests ?? {}) };
    return l['cpu'] && l['memory'] && r['cpu'] === l['cpu'] && r['memory'] === l['memory'];
  });
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
