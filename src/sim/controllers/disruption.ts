/**
 * The disruption controller (kubernetes pkg/controller/disruption/disruption.go): keeps each
 * PodDisruptionBudget's status — expectedPods, currentHealthy, desiredHealthy,
 * disruptionsAllowed, observedGeneration, disruptedPods and the DisruptionAllowed condition
 * (policy/v1 helper UpdateDisruptionAllowedCondition: SufficientPods / InsufficientPods /
 * SyncFailed) — from the pods its selector matches and the scale of their controllers.
 *
 * minAvailable as a number counts the matching pods; minAvailable as a percentage and
 * maxUnavailable count the replicas their controllers (Deployment, ReplicaSet, StatefulSet,
 * ReplicationController) want, rounding up (GetScaledValueFromIntOrPercent(…, true)). A pod is
 * healthy when Ready and not being deleted, and not already counted as disrupted by an eviction
 * in the last two minutes (DeletionTimeout). The Eviction API (apiserver evict) reads this status.
 */
import type { Cluster, Controller } from '../cluster.js';
import { clone } from '../api/store.js';
import type { KObject, LabelSelector, Pod } from '../api/types.js';
import { matchLabelSelector } from '../api/selectors.js';

export interface PodDisruptionBudget extends KObject {
  spec: {
    minAvailable?: number | string;
    maxUnavailable?: number | string;
    selector?: LabelSelector;
    unhealthyPodEvictionPolicy?: 'IfHealthyBudget' | 'AlwaysAllow';
  };
  status?: {
    observedGeneration?: number;
    disruptedPods?: Record<string, string>;
    disruptionsAllowed: number;
    currentHealthy: number;
    desiredHealthy: number;
    expectedPods: number;
    conditions?: Array<{ type: string; status: string; reason: string; message: string; observedGeneration?: number; lastTransitionTime: string }>;
  };
}

/** disruption.go DeletionTimeout: an eviction's pod counts as disrupted this long. */
export const DELETION_TIMEOUT_MS = 2 * 60_000;

export function podReady(p: Pod): boolean {
  return !!p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
}

/** intstr.GetScaledValueFromIntOrPercent(v, total, roundUp). */
function scaled(v: number | string, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return v;
  const pct = Number(v.replace(/%$/, ''));
  const x = (pct * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

interface Owner {
  kind: string;
  name: string;
  uid?: string;
  controller?: boolean;
}

/** The controller whose scale a pod counts toward (disruption.go finders), and that scale. */
function controllerScale(c: Cluster, pod: Pod): { uid: string; replicas: number } | undefined {
  const ns = pod.metadata.namespace;
  const ref = (pod.metadata.ownerReferences as Owner[] | undefined)?.find((o) => o.controller);
  if (!ref) return undefined;
  const replicasOf = (o: KObject | undefined): number => ((o as { spec?: { replicas?: number } } | undefined)?.spec?.replicas ?? 1);
  if (ref.kind === 'ReplicaSet') {
    const rs = c.store.get(ref.kind, ns, ref.name);
    if (!rs) return undefined;
    const dep = (rs.metadata.ownerReferences as Owner[] | undefined)?.find((o) => o.controller && o.kind === 'Deployment');
    if (dep) {
      const d = c.store.get('Deployment', ns, dep.name);
      return d ? { uid: d.metadata.uid ?? dep.name, replicas: replicasOf(d) } : undefined;
    }
    return { uid: rs.metadata.uid ?? ref.name, replicas: replicasOf(rs) };
  }
  if (ref.kind === 'StatefulSet' || ref.kind === 'ReplicationController') {
    const o = c.store.get(ref.kind, ns, ref.name);
    return o ? { uid: o.metadata.uid ?? ref.name, replicas: replicasOf(o) } : undefined;
  }
  return undefined;
}

type Status = NonNullable<PodDisruptionBudget['status']>;

/** What disruption.go trySync computes; a string is the sync error (SyncFailed). */
export function computeStatus(c: Cluster, pdb: PodDisruptionBudget): Omit<Status, 'conditions'> | string {
  const ns = pdb.metadata.namespace;
  const pods = c.store.list<Pod>('Pod', ns).filter((p) => matchLabelSelector(pdb.spec.selector, p.metadata.labels));
  const now = c.now();
  // buildDisruptedPodMap: recent evictions whose pods still exist and are not being deleted
  const disrupted: Record<string, string> = {};
  for (const [name, at] of Object.entries(pdb.status?.disruptedPods ?? {})) {
    const p = pods.find((x) => x.metadata.name === name);
    if (!p || p.metadata.deletionTimestamp) continue;
    if (now - Date.parse(at) < DELETION_TIMEOUT_MS) disrupted[name] = at;
  }
  const currentHealthy = pods.filter((p) => !p.metadata.deletionTimestamp && podReady(p) && !(p.metadata.name in disrupted)).length;
  let expectedPods: number;
  let desiredHealthy: number;
  const { minAvailable, maxUnavailable } = pdb.spec;
  if (maxUnavailable !== undefined || (typeof minAvailable === 'string' && minAvailable.endsWith('%'))) {
    const scales = new Map<string, number>();
    for (const p of pods) {
      const s = controllerScale(c, p);
      if (!s) return `found no controllers for pod "${p.metadata.name}"`;
      scales.set(s.uid, s.replicas);
    }
    expectedPods = [...scales.values()].reduce((a, b) => a + b, 0);
    desiredHealthy = maxUnavailable !== undefined ? Math.max(0, expectedPods - scaled(maxUnavailable, expectedPods, true)) : scaled(minAvailable!, expectedPods, true);
  } else {
    expectedPods = pods.length;
    desiredHealthy = typeof minAvailable === 'number' ? minAvailable : 0;
  }
  let disruptionsAllowed = currentHealthy - desiredHealthy;
  if (expectedPods <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
  return {
    ...(pdb.metadata.generation !== undefined ? { observedGeneration: pdb.metadata.generation } : {}),
    ...(Object.keys(disrupted).length ? { disruptedPods: disrupted } : {}),
    disruptionsAllowed,
    currentHealthy,
    desiredHealthy,
    expectedPods,
  };
}

/** The DisruptionAllowed condition for a status (keeping its transition time when unchanged). */
export function withCondition(status: Omit<Status, 'conditions'>, old: Status | undefined, now: string, error?: string): Status {
  const prev = old?.conditions?.find((x) => x.type === 'DisruptionAllowed');
  const s = error ? 'False' : status.disruptionsAllowed > 0 ? 'True' : 'False';
  const reason = error ? 'SyncFailed' : status.disruptionsAllowed > 0 ? 'SufficientPods' : 'InsufficientPods';
  return {
    ...status,
    conditions: [
      {
        type: 'DisruptionAllowed',
        status: s,
        reason,
        message: error ?? '',
        ...(status.observedGeneration !== undefined ? { observedGeneration: status.observedGeneration } : {}),
        lastTransitionTime: prev && prev.status === s ? prev.lastTransitionTime : now,
      },
    ],
  };
}

export const disruptionController: Controller = {
  name: 'disruption',
  runsIn: 'controllerManager',
  watches: ['PodDisruptionBudget', 'Pod', 'Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController'],
  reconcile(c: Cluster): void {
    for (const pdb of c.store.list<PodDisruptionBudget>('PodDisruptionBudget')) {
      const r = computeStatus(c, pdb);
      const status =
        typeof r === 'string'
          ? withCondition({ ...(pdb.metadata.generation !== undefined ? { observedGeneration: pdb.metadata.generation } : {}), disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }, pdb.status, c.timestamp(), r)
          : withCondition(r, pdb.status, c.timestamp());
      if (JSON.stringify(status) === JSON.stringify(pdb.status)) continue;
      const upd = clone(pdb);
      upd.status = status;
      c.write(upd);
    }
  },
};
