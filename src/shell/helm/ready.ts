/**
 * The `legacy` wait strategy's readiness test (helm v4.1.4 pkg/kube/ready.go ReadyChecker.IsReady,
 * Helm 3's checker): a Pod by its Ready condition; a Job only with --wait-for-jobs (failed past
 * its backoffLimit is an error, `job is failed: NS/NAME`); a Deployment (paused counts as ready)
 * by its newest ReplicaSet's ready pods against replicas minus maxUnavailable; a PVC when Bound;
 * a Service once it has a ClusterIP (a LoadBalancer also needs an ingress or external IPs);
 * DaemonSets, StatefulSets, ReplicaSets and ReplicationControllers by their generation and
 * replica counts. Everything else is ready as soon as it exists.
 */
import type { ApiServer } from '../../sim/apiserver.js';
import { matchLabelSelector } from '../../sim/api/selectors.js';
import type { Deployment, KObject, LabelSelector, Pod, ReplicaSet } from '../../sim/api/types.js';
import { maxUnavailable } from '../../sim/api/deployment-strategy.js';
import { scaledValue } from '../../util/intstr.js';

export interface Readiness {
  ready: boolean;
  /** An error IsReady returned: a Job's failure is retried (30 times in a row), a NotFound ends the wait at once. */
  error?: string;
  retryable?: boolean;
}

const podReady = (p: KObject): boolean => ((p.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

type Any = Record<string, unknown>;
const spec = (o: KObject): Any => (o.spec ?? {}) as Any;
const status = (o: KObject): Any => (o.status ?? {}) as Any;
const num = (v: unknown, d = 0): number => (typeof v === 'number' ? v : d);
const generationObserved = (o: KObject): boolean => num(status(o)['observedGeneration']) === num(o.metadata.generation);

function podsReady(api: ApiServer, o: KObject, selector: LabelSelector | undefined): boolean {
  return api
    .list<Pod>('Pod', o.metadata.namespace)
    .filter((p) => matchLabelSelector(selector, p.metadata.labels))
    .every(podReady);
}

function deploymentReady(api: ApiServer, d: Deployment): boolean {
  if (d.spec.paused) return true;
  const owned = api.list<ReplicaSet>('ReplicaSet', d.metadata.namespace).filter((rs) => (rs.metadata.ownerReferences ?? []).some((r) => r.kind === 'Deployment' && r.name === d.metadata.name));
  const rev = (rs: ReplicaSet): number => Number(rs.metadata.annotations?.['deployment.kubernetes.io/revision'] ?? 0);
  const rs = owned.sort((a, b) => rev(b) - rev(a))[0];
  if (!rs || !generationObserved(rs) || !generationObserved(d)) return false;
  return num(rs.status?.readyReplicas) >= (d.spec.replicas ?? 1) - maxUnavailable(d);
}

function daemonSetReady(ds: KObject): boolean {
  if (!generationObserved(ds)) return false;
  const strategy = spec(ds)['updateStrategy'] as { type?: string; rollingUpdate?: { maxUnavailable?: number | string } } | undefined;
  if ((strategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return true;
  const st = status(ds);
  const desired = num(st['desiredNumberScheduled']);
  if (num(st['updatedNumberScheduled']) !== desired) return false;
  return num(st['numberReady']) >= desired - scaledValue(strategy?.rollingUpdate?.maxUnavailable, desired, true, 1);
}

function statefulSetReady(sts: KObject): boolean {
  if (!generationObserved(sts)) return false;
  const strategy = spec(sts)['updateStrategy'] as { type?: string; rollingUpdate?: { partition?: number } } | undefined;
  if ((strategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return true;
  const partition = strategy?.rollingUpdate?.partition ?? 0;
  const replicas = num(spec(sts)['replicas'], 1);
  const st = status(sts);
  if (num(st['updatedReplicas']) < replicas - partition) return false;
  if (num(st['readyReplicas']) !== replicas) return false;
  return !(partition === 0 && st['currentRevision'] !== st['updateRevision']);
}

/** IsReady for the object as it is now (`checkJobs` is --wait-for-jobs). */
export function isReady(api: ApiServer, want: KObject, checkJobs: boolean): Readiness {
  const ns = want.metadata.namespace;
  const o = api.tryGet(want.kind, ns, want.metadata.name);
  if (!o) {
    const d = api.discovery();
    const info = d.hasKind(want.kind) ? d.infoForKind(want.kind) : undefined;
    const res = info ? `${info.resource}${info.group ? `.${info.group}` : ''}` : want.kind.toLowerCase();
    return { ready: false, error: `${res} "${want.metadata.name}" not found`, retryable: false };
  }
  switch (o.kind) {
    case 'Pod':
      return { ready: podReady(o) };
    case 'Job': {
      if (!checkJobs) return { ready: true };
      const st = status(o);
      if (num(st['failed']) > num(spec(o)['backoffLimit'], 6)) return { ready: false, error: `job is failed: ${ns ?? ''}/${o.metadata.name}`, retryable: true };
      const completions = spec(o)['completions'];
      return { ready: !(typeof completions === 'number' && num(st['succeeded']) < completions) };
    }
    case 'Deployment':
      return { ready: deploymentReady(api, o as Deployment) };
    case 'PersistentVolumeClaim':
      return { ready: status(o)['phase'] === 'Bound' };
    case 'Service': {
      const s = spec(o);
      if (s['type'] === 'ExternalName') return { ready: true };
      if (!s['clusterIP']) return { ready: false };
      if (s['type'] === 'LoadBalancer' && !(Array.isArray(s['externalIPs']) && s['externalIPs'].length > 0)) {
        return { ready: (status(o)['loadBalancer'] as { ingress?: unknown } | undefined)?.ingress !== undefined };
      }
      return { ready: true };
    }
    case 'DaemonSet':
      return { ready: daemonSetReady(o) };
    case 'StatefulSet':
      return { ready: statefulSetReady(o) };
    case 'ReplicaSet':
      return { ready: generationObserved(o) && podsReady(api, o, spec(o)['selector'] as LabelSelector | undefined) };
    case 'ReplicationController':
      return { ready: generationObserved(o) && podsReady(api, o, { matchLabels: spec(o)['selector'] as Record<string, string> }) };
    default:
      return { ready: true };
  }
}
