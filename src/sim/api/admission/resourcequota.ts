/**
 * The ResourceQuota admission plugin and the usage evaluators it shares with the resourcequota
 * controller (staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go,
 * pkg/quota/v1/evaluator/core/{pods,services,persistent_volume_claims}.go, the generic object
 * count evaluator for `count/<resource>.<group>`).
 *
 * A create is charged against every quota of its namespace that tracks one of the resources it
 * uses; pods must name a request or limit for each of cpu/memory a quota tracks ("must specify
 * …"), and a quota whose hard limit would be passed refuses the write ("exceeded quota: …").
 * Usage here is computed from the store (what the controller writes to status.used once settled).
 */
import type { KObject, Pod, Service } from '../types.js';
import type { Store } from '../store.js';
import type { PersistentVolumeClaim } from '../storage.js';
import { infoForKind } from '../registry.js';
import { computePodQOS } from '../qos.js';
import { formatQuantity } from '../quantity.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';
import { addList, cmpQ, podTotal, q, type ResourceList } from './resources.js';

export interface ResourceQuota extends KObject {
  spec: { hard?: ResourceList; scopes?: string[] };
  status?: { hard?: ResourceList; used?: ResourceList };
}

/** `count/deployments.apps`, `count/pods`: the object count name of a kind. */
export function countName(kind: string): string {
  const info = infoForKind(kind);
  return `count/${info.group ? `${info.resource}.${info.group}` : info.resource}`;
}

/** Kinds with a legacy object-count name besides count/… (quota/v1/evaluator/core/registry.go). */
const LEGACY_COUNT: Record<string, string> = {
  Pod: 'pods',
  Service: 'services',
  PersistentVolumeClaim: 'persistentvolumeclaims',
  ConfigMap: 'configmaps',
  Secret: 'secrets',
  ReplicationController: 'replicationcontrollers',
  ResourceQuota: 'resourcequotas',
};

/**
 * QuotaV1Pod: pods that finished no longer count, nor pods still terminating after their grace
 * period (a lost node must not hold the namespace's quota).
 */
function podCounts(pod: Pod, now: number | undefined): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const del = pod.metadata.deletionTimestamp;
  const grace = pod.metadata.deletionGracePeriodSeconds;
  if (now !== undefined && del && grace !== undefined && now > Date.parse(del) + grace * 1000) return false;
  return true;
}

/** podComputeUsageHelper over the pod's effective requests and limits. */
function podUsage(pod: Pod): ResourceList {
  const out: ResourceList = { pods: '1', 'count/pods': '1' };
  const req = podTotal(pod, 'requests');
  const lim = podTotal(pod, 'limits');
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    if (req[r] !== undefined) {
      out[r] = req[r]!;
      out[`requests.${r}`] = req[r]!;
    }
    if (lim[r] !== undefined) out[`limits.${r}`] = lim[r]!;
  }
  for (const [k, v] of Object.entries(req)) if (k.startsWith('hugepages-') || k.includes('/')) out[`requests.${k}`] = v;
  return out;
}

function serviceUsage(svc: Service): ResourceList {
  const out: ResourceList = { services: '1', 'count/services': '1' };
  const type = svc.spec.type ?? 'ClusterIP';
  if (type === 'LoadBalancer') out['services.loadbalancers'] = '1';
  if (type === 'NodePort' || type === 'LoadBalancer') out['services.nodeports'] = String(svc.spec.ports?.length ?? 0);
  return out;
}

function claimUsage(pvc: PersistentVolumeClaim): ResourceList {
  const out: ResourceList = { persistentvolumeclaims: '1', 'count/persistentvolumeclaims': '1' };
  const storage = pvc.spec.resources?.requests?.storage;
  const sc = pvc.spec.storageClassName;
  if (sc) out[`${sc}.storageclass.storage.k8s.io/persistentvolumeclaims`] = '1';
  if (storage !== undefined) {
    out['requests.storage'] = storage;
    if (sc) out[`${sc}.storageclass.storage.k8s.io/requests.storage`] = storage;
  }
  return out;
}

/** What one object uses, by every name a quota may track. */
export function usageOf(obj: KObject): ResourceList {
  let out: ResourceList;
  if (obj.kind === 'Pod') out = podUsage(obj as Pod);
  else if (obj.kind === 'Service') out = serviceUsage(obj as Service);
  else if (obj.kind === 'PersistentVolumeClaim') out = claimUsage(obj as PersistentVolumeClaim);
  else {
    out = { [countName(obj.kind)]: '1' };
    const legacy = LEGACY_COUNT[obj.kind];
    if (legacy) out[legacy] = '1';
  }
  return out;
}

/** The quota's scopes (BestEffort, NotBestEffort, Terminating, NotTerminating) matching a pod. */
function matchesScopes(quota: ResourceQuota, obj: KObject): boolean {
  const scopes = quota.spec.scopes ?? [];
  if (scopes.length === 0) return true;
  if (obj.kind !== 'Pod') return false;
  const pod = obj as Pod;
  return scopes.every((s) => {
    switch (s) {
      case 'BestEffort':
        return computePodQOS(pod) === 'BestEffort';
      case 'NotBestEffort':
        return computePodQOS(pod) !== 'BestEffort';
      case 'Terminating':
        return pod.spec.activeDeadlineSeconds !== undefined;
      case 'NotTerminating':
        return pod.spec.activeDeadlineSeconds === undefined;
      default:
        return true;
    }
  });
}

/** Kinds whose objects a quota can charge, by the names it tracks. */
function kindsFor(hard: ResourceList): Set<string> {
  const kinds = new Set<string>();
  for (const k of Object.keys(hard)) {
    if (k === 'pods' || /^(requests|limits)\./.test(k) && !k.endsWith('.storage') || k === 'cpu' || k === 'memory' || k === 'ephemeral-storage') kinds.add('Pod');
    else if (k.startsWith('services')) kinds.add('Service');
    else if (k === 'persistentvolumeclaims' || k === 'requests.storage' || k.includes('.storageclass.storage.k8s.io/')) kinds.add('PersistentVolumeClaim');
    else if (k === 'configmaps') kinds.add('ConfigMap');
    else if (k === 'secrets') kinds.add('Secret');
    else if (k === 'resourcequotas') kinds.add('ResourceQuota');
    else if (k === 'replicationcontrollers') kinds.add('ReplicationController');
    else if (k.startsWith('count/')) {
      const [resource, ...group] = k.slice('count/'.length).split('.');
      try {
        for (const kind of [kindForResource(resource!, group.join('.'))]) if (kind) kinds.add(kind);
      } catch {
        // a count of a resource the API does not serve charges nothing
      }
    }
  }
  return kinds;
}

function kindForResource(resource: string, group: string): string | undefined {
  const KNOWN = ['Pod', 'Service', 'PersistentVolumeClaim', 'ConfigMap', 'Secret', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Ingress', 'NetworkPolicy', 'ServiceAccount', 'Role', 'RoleBinding', 'ResourceQuota', 'LimitRange', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'Lease', 'Event', 'Endpoints', 'EndpointSlice'];
  return KNOWN.find((k) => {
    try {
      const info = infoForKind(k);
      return info.resource === resource && info.group === group;
    } catch {
      return false;
    }
  });
}

/** The usage a quota records (status.used): each tracked name over the namespace's objects. */
export function quotaUsage(store: Store, quota: ResourceQuota, now?: number): ResourceList {
  const hard = quota.spec.hard ?? {};
  let total: ResourceList = {};
  for (const kind of kindsFor(hard)) {
    for (const o of store.list(kind, quota.metadata.namespace)) {
      if (kind === 'Pod' && !podCounts(o as Pod, now)) continue;
      if (!matchesScopes(quota, o)) continue;
      total = addList(total, usageOf(o));
    }
  }
  const used: ResourceList = {};
  for (const k of Object.keys(hard)) used[k] = total[k] ?? '0';
  return used;
}

/** quota.Mask + prettyPrint: `k=v,k=v` over the names given, sorted. */
function pretty(list: ResourceList, names: readonly string[]): string {
  return [...names].sort().map((k) => `${k}=${formatQuantity(q(list[k] ?? '0'))}`).join(',');
}

const VALIDATION_SET = ['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'];

/** podEvaluator.Constraints: every container names each cpu/memory resource the quota tracks. */
export function podConstraints(pod: Pod, hardNames: readonly string[]): string | undefined {
  const required = hardNames.filter((n) => VALIDATION_SET.includes(n));
  const missing = new Map<string, Set<string>>();
  for (const c of [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])]) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    const has = new Set<string>();
    for (const r of ['cpu', 'memory']) {
      if (req[r] !== undefined) has.add(r).add(`requests.${r}`);
      if (lim[r] !== undefined) has.add(`limits.${r}`);
    }
    for (const r of required) if (!has.has(r)) (missing.get(r) ?? missing.set(r, new Set()).get(r)!).add(c.name);
  }
  if (missing.size === 0) return undefined;
  return `must specify ${[...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`).join('; ')}`;
}

/** Whether a quota charges this object at all (its evaluator matches a tracked name and scope). */
function interested(quota: ResourceQuota, obj: KObject): boolean {
  return matchesScopes(quota, obj) && kindsFor(quotaHard(quota)).has(obj.kind);
}

function quotaHard(quota: ResourceQuota): ResourceList {
  return quota.status?.hard ?? quota.spec.hard ?? {};
}

/** evaluator.Constraints for one quota: `failed quota: q: must specify …`. */
export function quotaConstraints(quota: ResourceQuota, obj: KObject): string | undefined {
  if (obj.kind !== 'Pod' || !interested(quota, obj)) return undefined;
  const e = podConstraints(obj as Pod, Object.keys(quotaHard(quota)));
  return e ? `failed quota: ${quota.metadata.name}: ${e}` : undefined;
}

/** The usage check of one create against one quota: `exceeded quota: …`. */
export function checkQuota(store: Store, quota: ResourceQuota, obj: KObject, now?: number): string | undefined {
  if (!interested(quota, obj)) return undefined;
  const hard = quotaHard(quota);
  const delta = usageOf(obj);
  const requested = Object.keys(hard).filter((k) => delta[k] !== undefined);
  if (requested.length === 0) return undefined;
  const used = quotaUsage(store, quota, now);
  const exceeded = requested.filter((k) => cmpQ(addList({ [k]: used[k] ?? '0' }, { [k]: delta[k]! })[k], hard[k]) > 0);
  if (exceeded.length === 0) return undefined;
  return `exceeded quota: ${quota.metadata.name}, requested: ${pretty(delta, exceeded)}, used: ${pretty(used, exceeded)}, limited: ${pretty(hard, exceeded)}`;
}

/**
 * checkRequest: first every quota's constraints, then every quota's limits; the first failure
 * refuses the request. Quotas in name order (the informer's list).
 */
export const resourceQuota: AdmissionPlugin = {
  name: 'ResourceQuota',
  validate(a: AdmissionAttributes) {
    if (a.operation !== 'CREATE' || !a.namespace) return undefined;
    const quotas = a.store.list<ResourceQuota>('ResourceQuota', a.namespace).sort((x, y) => (x.metadata.name < y.metadata.name ? -1 : 1));
    for (const quota of quotas) {
      const e = quotaConstraints(quota, a.obj);
      if (e) return e;
    }
    for (const quota of quotas) {
      const e = checkQuota(a.store, quota, a.obj, a.now);
      if (e) return e;
    }
    return undefined;
  },
};
