/**
 * The HorizontalPodAutoscaler controller, autoscaling/v2 (k8s.io/kubernetes
 * pkg/controller/podautoscaler/horizontal.go, replica_calculator.go): every 15 s (its sync
 * period) it reads the resource metrics of the target's pods (sim/metrics.ts), proposes
 * `ceil(ratio × ready pods)` per metric (Utilization: usage/request against the target
 * percentage, tolerance 0.1; AverageValue: usage per pod against the target value), takes the
 * largest proposal, applies the behavior (stabilization windows over the recorded
 * recommendations, then the scaling policies over the recorded scale events), clamps to
 * min/max, scales the target and reports the real conditions and events.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { KObject, Pod } from '../api/types.js';
import { cloneTop } from '../api/store.js';
import { matchLabelSelector } from '../api/selectors.js';
import { cpuMilli, memBytes, metricsAvailability, podMetrics, type PodUsage } from '../metrics.js';

const SYNC_MS = 15_000;
const TOLERANCE = 0.1;
const COMPONENT = 'horizontal-pod-autoscaler';

export interface HpaHistory {
  lastSync: number;
  generation: number;
  /** Recommendations (replicas proposed before stabilization), for the stabilization windows. */
  recs: { t: number; r: number }[];
  /** Scale changes made, for the rate policies. */
  events: { t: number; delta: number }[];
}

interface MetricTarget {
  type: 'Utilization' | 'AverageValue' | 'Value';
  averageUtilization?: number;
  averageValue?: string;
}

interface MetricSpec {
  type: string;
  resource?: { name: string; target: MetricTarget };
}

interface Policy {
  type: 'Pods' | 'Percent';
  value: number;
  periodSeconds: number;
}

interface ScalingRules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: 'Max' | 'Min' | 'Disabled';
  policies?: Policy[];
}

interface Condition {
  type: string;
  status: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export interface HPA extends KObject {
  spec: {
    scaleTargetRef: { apiVersion?: string; kind: string; name: string };
    minReplicas?: number;
    maxReplicas: number;
    metrics?: MetricSpec[];
    behavior?: { scaleUp?: ScalingRules; scaleDown?: ScalingRules };
  };
  status?: {
    currentReplicas?: number;
    desiredReplicas?: number;
    lastScaleTime?: string;
    currentMetrics?: unknown[] | null;
    conditions?: Condition[];
  };
}

interface ScaleTarget extends KObject {
  spec: { replicas?: number; selector?: { matchLabels?: Record<string, string>; matchExpressions?: never[] } };
}

/** pkg/apis/autoscaling/v2/defaults.go: the behavior every HPA gets when it sets none. */
const DEFAULT_UP: Required<ScalingRules> = {
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
};
const DEFAULT_DOWN: Required<ScalingRules> = { stabilizationWindowSeconds: 300, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };

function rules(r: ScalingRules | undefined, d: Required<ScalingRules>): Required<ScalingRules> {
  return { stabilizationWindowSeconds: r?.stabilizationWindowSeconds ?? d.stabilizationWindowSeconds, selectPolicy: r?.selectPolicy ?? d.selectPolicy, policies: r?.policies ?? d.policies };
}

function podReady(p: Pod): boolean {
  return p.status?.phase === 'Running' && (p.status.conditions ?? []).some((x) => x.type === 'Ready' && x.status === 'True');
}

/** The human name of a metric in messages (`cpu resource utilization (percentage of request)`). */
function metricName(m: MetricSpec): string {
  const r = m.resource;
  if (!r) return `${m.type} metric`;
  return r.target.type === 'Utilization' ? `${r.name} resource utilization (percentage of request)` : `${r.name} resource`;
}

interface Proposal {
  replicas: number;
  current: unknown;
  name: string;
}

class MetricError extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

function fmtQuantity(resource: string, v: number): string {
  if (resource === 'cpu') return v % 1000 === 0 ? `${v / 1000}` : `${Math.round(v)}m`;
  const mi = 1024 * 1024;
  if (v % mi === 0) return `${v / mi}Mi`;
  if (v % 1024 === 0) return `${v / 1024}Ki`;
  return `${Math.round(v)}`;
}

/** GetResourceReplicas (replica_calculator.go) for one Resource metric. */
function resourceReplicas(m: MetricSpec, pods: Pod[], metrics: Map<string, PodUsage>, current: number): Proposal {
  const r = m.resource!;
  const res = r.name;
  const usageOf = (u: PodUsage): number => u.containers.reduce((s, x) => s + (res === 'cpu' ? x.cpu : x.memory), 0);
  const ready = pods.filter((p) => metrics.has(`${p.metadata.namespace}/${p.metadata.name}`) && podReady(p));
  if (ready.length === 0 && pods.length > 0)
    throw new MetricError('FailedGetResourceMetric', `failed to get ${res} utilization: unable to get metrics for resource ${res}: no metrics returned from resource metrics API`);
  const missing = pods.filter((p) => !ready.includes(p));
  let usage = 0;
  let request = 0;
  for (const p of ready) {
    usage += usageOf(metrics.get(`${p.metadata.namespace}/${p.metadata.name}`)!);
    for (const ctr of p.spec.containers) {
      const q = ctr.resources?.requests?.[res];
      const v = res === 'cpu' ? cpuMilli(q) : memBytes(q);
      if (v === undefined && r.target.type === 'Utilization')
        throw new MetricError('FailedGetResourceMetric', `failed to get ${res} utilization: missing request for ${res} in container ${ctr.name} of Pod ${p.metadata.name}`);
      request += v ?? 0;
    }
  }
  const n = ready.length;
  if (r.target.type === 'Utilization') {
    const target = r.target.averageUtilization ?? 80;
    const utilization = Math.trunc((usage * 100) / request);
    let ratio = utilization / target;
    let count = n;
    // missing pods: assumed at 0 % on a scale up and at 100 % of target on a scale down
    if (missing.length > 0 && Math.abs(1 - ratio) > TOLERANCE) {
      const upward = ratio > 1;
      const perPodRequest = request / n;
      const adjUsage = usage + (upward ? 0 : (missing.length * perPodRequest * target) / 100);
      const adjRequest = request + missing.length * perPodRequest;
      ratio = (adjUsage * 100) / adjRequest / target;
      count = n + missing.length;
      if ((upward && ratio < 1) || (!upward && ratio > 1)) ratio = 1;
    }
    const replicas = Math.abs(1 - ratio) <= TOLERANCE ? current : Math.ceil(ratio * count);
    return { replicas, name: metricName(m), current: { type: 'Resource', resource: { name: res, current: { averageUtilization: utilization, averageValue: fmtQuantity(res, usage / n) } } } };
  }
  const target = res === 'cpu' ? cpuMilli(r.target.averageValue) ?? 0 : memBytes(r.target.averageValue) ?? 0;
  const ratio = usage / (target * n);
  const replicas = Math.abs(1 - ratio) <= TOLERANCE ? current : Math.ceil(usage / target);
  return { replicas, name: metricName(m), current: { type: 'Resource', resource: { name: res, current: { averageValue: fmtQuantity(res, usage / n) } } } };
}

/** stabilizeRecommendationWithBehaviors: the lowest recent proposal caps a scale up, the highest a scale down. */
function stabilize(current: number, desired: number, recs: HpaHistory['recs'], now: number, up: Required<ScalingRules>, down: Required<ScalingRules>): { replicas: number; reason: string; message: string } {
  let upRec = desired;
  let downRec = desired;
  for (const r of recs) {
    if (r.t > now - up.stabilizationWindowSeconds * 1000) upRec = Math.min(upRec, r.r);
    if (r.t > now - down.stabilizationWindowSeconds * 1000) downRec = Math.max(downRec, r.r);
  }
  let rec = current;
  if (rec < upRec) rec = upRec;
  if (rec > downRec) rec = downRec;
  if (rec === desired) return { replicas: rec, reason: 'ReadyForNewScale', message: 'recommended size matches current size' };
  return rec < desired
    ? { replicas: rec, reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' }
    : { replicas: rec, reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' };
}

/**
 * calculateScaleUpLimitWithScalingRules / calculateScaleDownLimitWithBehaviors: each policy counts
 * from the replicas at the start of its period, i.e. the current count minus every change (up and
 * down) made within the period.
 */
function rateLimit(current: number, events: HpaHistory['events'], now: number, r: Required<ScalingRules>, up: boolean): number {
  if (r.selectPolicy === 'Disabled') return current;
  const limits = r.policies.map((p) => {
    const start = current - events.filter((e) => e.t > now - p.periodSeconds * 1000).reduce((s, e) => s + e.delta, 0);
    if (p.type === 'Pods') return up ? start + p.value : start - p.value;
    return up ? Math.ceil(start * (1 + p.value / 100)) : Math.ceil(start * (1 - p.value / 100));
  });
  if (limits.length === 0) return up ? Number.MAX_SAFE_INTEGER : 0;
  const pickMost = r.selectPolicy === 'Max';
  return up ? (pickMost ? Math.max(...limits) : Math.min(...limits)) : pickMost ? Math.min(...limits) : Math.max(...limits);
}

function setCondition(conds: Condition[], type: string, status: string, reason: string, message: string, ts: string): Condition[] {
  const old = conds.find((x) => x.type === type);
  const cond: Condition = { type, status, lastTransitionTime: old && old.status === status ? old.lastTransitionTime : ts, reason, message };
  return old ? conds.map((x) => (x.type === type ? cond : x)) : [...conds, cond];
}

function history(c: Cluster, key: string): HpaHistory {
  const all = (c.state.hpa ??= {});
  return (all[key] ??= { lastSync: Number.NEGATIVE_INFINITY, generation: 0, recs: [], events: [] });
}

function sync(c: Cluster, hpa: HPA): void {
  const ns = hpa.metadata.namespace ?? 'default';
  const key = `${ns}/${hpa.metadata.name}`;
  const h = history(c, key);
  const now = c.now();
  const ts = c.timestamp();
  h.lastSync = now;
  h.generation = hpa.metadata.generation ?? 0;
  const ref = hpa.spec.scaleTargetRef;
  const upd = cloneTop(hpa);
  let conds = [...(hpa.status?.conditions ?? [])];
  const target = c.store.get<ScaleTarget>(ref.kind, ns, ref.name);
  if (!target || !['Deployment', 'ReplicaSet', 'StatefulSet'].includes(ref.kind)) {
    const msg = `the HPA controller was unable to get the target's current scale: ${ref.kind.toLowerCase()}s.apps "${ref.name}" not found`;
    conds = setCondition(conds, 'AbleToScale', 'False', 'FailedGetScale', msg, ts);
    upd.status = { ...(upd.status ?? {}), currentMetrics: null, conditions: conds, currentReplicas: 0, desiredReplicas: 0 };
    c.write(upd);
    c.recordEvent(hpa, 'Warning', 'FailedGetScale', `${ref.kind.toLowerCase()}s.apps "${ref.name}" not found`, COMPONENT);
    return;
  }
  const current = target.spec.replicas ?? 1;
  const min = hpa.spec.minReplicas ?? 1;
  const max = hpa.spec.maxReplicas;
  conds = setCondition(conds, 'AbleToScale', 'True', 'SucceededGetScale', 'the HPA controller was able to get the target\'s current scale', ts);
  let desired = current;
  let rescaleReason = '';
  let currentMetrics: unknown[] | null = null;
  let limitedReason = '';
  if (current === 0 && min !== 0) {
    conds = setCondition(conds, 'ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero', ts);
    upd.status = { ...(upd.status ?? {}), currentReplicas: 0, desiredReplicas: 0, currentMetrics: null, conditions: conds };
    c.write(upd);
    return;
  }
  if (current > max) {
    desired = max;
    rescaleReason = 'Current number of replicas above Spec.MaxReplicas';
  } else if (current < min) {
    desired = min;
    rescaleReason = 'Current number of replicas below Spec.MinReplicas';
  } else {
    const pods = c.store.list<Pod>('Pod', ns).filter((p) => !p.metadata.deletionTimestamp && p.status?.phase !== 'Failed' && p.status?.phase !== 'Succeeded' && matchLabelSelector(target.spec.selector as never, p.metadata.labels));
    const metrics = new Map(podMetrics(c).map((m) => [`${m.namespace}/${m.name}`, m]));
    const specs = hpa.spec.metrics ?? [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
    const proposals: Proposal[] = [];
    let error: MetricError | undefined;
    let failedSpec: MetricSpec | undefined;
    currentMetrics = [];
    for (const m of specs) {
      try {
        if (m.type !== 'Resource' || !m.resource) throw new MetricError('FailedGetExternalMetric', `unable to get metric of type ${m.type}`);
        if (metricsAvailability(c).state !== 'ready')
          throw new MetricError('FailedGetResourceMetric', `failed to get ${m.resource.name} utilization: unable to get metrics for resource ${m.resource.name}: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)`);
        const p = resourceReplicas(m, pods, metrics, current);
        proposals.push(p);
        currentMetrics.push(p.current);
      } catch (e) {
        if (!(e instanceof MetricError)) throw e;
        error ??= e;
        failedSpec ??= m;
        currentMetrics.push({ type: 'Resource', resource: { name: m.resource?.name ?? '', current: {} } });
      }
    }
    if (proposals.length === 0 && error) {
      const what = failedSpec?.resource ? `${failedSpec.resource.name} resource metric value` : 'metric value';
      conds = setCondition(conds, 'ScalingActive', 'False', error.reason, `the HPA was unable to compute the replica count: ${error.message}`, ts);
      upd.status = { ...(upd.status ?? {}), currentReplicas: current, desiredReplicas: upd.status?.desiredReplicas ?? 0, currentMetrics: currentMetrics.every((x) => JSON.stringify(x).includes('"current":{}')) ? null : currentMetrics, conditions: conds };
      c.write(upd);
      c.recordEvent(hpa, 'Warning', error.reason, error.message, COMPONENT);
      c.recordEvent(hpa, 'Warning', 'FailedComputeMetricsReplicas', `invalid metrics (${specs.length} invalid out of ${specs.length}), first error is: failed to get ${what}: ${error.message}`, COMPONENT);
      return;
    }
    const best = proposals.reduce((a, b) => (b.replicas > a.replicas ? b : a));
    conds = setCondition(conds, 'ScalingActive', 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${best.name}`, ts);
    const proposed = best.replicas;
    // normalizeDesiredReplicasWithBehaviors
    const up = rules(hpa.spec.behavior?.scaleUp, DEFAULT_UP);
    const down = rules(hpa.spec.behavior?.scaleDown, DEFAULT_DOWN);
    const longest = Math.max(up.stabilizationWindowSeconds, down.stabilizationWindowSeconds) * 1000;
    h.recs = h.recs.filter((r) => r.t > now - longest);
    const stab = stabilize(current, proposed, h.recs, now, up, down);
    h.recs.push({ t: now, r: proposed });
    conds = setCondition(conds, 'AbleToScale', 'True', stab.reason, stab.message, ts);
    desired = stab.replicas;
    const longestPeriod = Math.max(0, ...[...up.policies, ...down.policies].map((p) => p.periodSeconds)) * 1000;
    h.events = h.events.filter((e) => e.t > now - longestPeriod);
    // convertDesiredReplicasWithBehaviorRate: a limit below the current count (pods added by a
    // policy the HPA no longer has, e.g. before its behavior was patched in) holds the count
    // instead of scaling the other way, until those changes leave the period.
    if (desired > current) {
      const rate = Math.max(rateLimit(current, h.events, now, up, true), current);
      const lim = Math.min(rate, max);
      if (desired > lim) {
        limitedReason = lim === max && rate >= max ? 'TooManyReplicas' : 'ScaleUpLimit';
        desired = lim;
      }
    } else if (desired < current) {
      const rate = Math.min(rateLimit(current, h.events, now, down, false), current);
      const lim = Math.max(rate, min);
      if (desired < lim) {
        limitedReason = lim === min && rate <= min ? 'TooFewReplicas' : 'ScaleDownLimit';
        desired = lim;
      }
    }
    if (desired > max) {
      desired = max;
      limitedReason = 'TooManyReplicas';
    }
    if (desired < min) {
      desired = min;
      limitedReason = 'TooFewReplicas';
    }
    if (desired > current) rescaleReason = `${best.name} above target`;
    else if (desired < current) rescaleReason = 'All metrics below target';
  }
  const limitedMessages: Record<string, string> = {
    TooManyReplicas: 'the desired replica count is more than the maximum replica count',
    TooFewReplicas: 'the desired replica count is less than the minimum replica count',
    ScaleUpLimit: 'the desired replica count is increasing faster than the maximum scale rate',
    ScaleDownLimit: 'the desired replica count is decreasing faster than the maximum scale rate',
  };
  conds = limitedReason
    ? setCondition(conds, 'ScalingLimited', 'True', limitedReason, limitedMessages[limitedReason]!, ts)
    : setCondition(conds, 'ScalingLimited', 'False', 'DesiredWithinRange', 'the desired count is within the acceptable range', ts);
  let lastScaleTime = upd.status?.lastScaleTime;
  if (desired !== current) {
    const scaled = cloneTop(target);
    scaled.spec = { ...scaled.spec, replicas: desired };
    c.write(scaled);
    h.events.push({ t: now, delta: desired - current });
    lastScaleTime = ts;
    conds = setCondition(conds, 'AbleToScale', 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${desired}`, ts);
    c.recordEvent(hpa, 'Normal', 'SuccessfulRescale', `New size: ${desired}; reason: ${rescaleReason}`, COMPONENT);
  }
  // the status keeps its field order: currentMetrics, currentReplicas, desiredReplicas, lastScaleTime, conditions
  upd.status = {
    ...(currentMetrics && currentMetrics.length > 0 ? { currentMetrics } : { currentMetrics: null }),
    currentReplicas: current,
    desiredReplicas: desired,
    ...(lastScaleTime ? { lastScaleTime } : {}),
    conditions: conds,
  };
  c.write(upd);
}

export const hpaController: Controller = {
  name: 'horizontal-pod-autoscaler',
  runsIn: 'controllerManager',
  watches: ['HorizontalPodAutoscaler', 'time'],
  reconcile(c: Cluster): void {
    const hpas = c.store.list<HPA>('HorizontalPodAutoscaler');
    const now = c.now();
    const live = new Set<string>();
    for (const hpa of hpas) {
      const key = `${hpa.metadata.namespace ?? 'default'}/${hpa.metadata.name}`;
      live.add(key);
      const h = c.state.hpa?.[key];
      if (!h || now - h.lastSync >= SYNC_MS || h.generation !== (hpa.metadata.generation ?? 0)) sync(c, hpa);
    }
    for (const key of Object.keys(c.state.hpa ?? {})) if (!live.has(key)) delete c.state.hpa![key];
    if (hpas.length > 0) c.wakeAt((Math.floor(now / SYNC_MS) + 1) * SYNC_MS);
  },
};
