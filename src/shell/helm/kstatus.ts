/**
 * The status `helm --wait` (the `watcher` strategy) reads for each release resource: kstatus'
 * Compute as helm v4.1.4 vendors it (github.com/fluxcd/cli-utils v0.37.2-flux.1
 * pkg/kstatus/status/generic.go checkGenericProperties, core.go's per-kind rules, status.go
 * Compute), as a pure function of the object. A resource that does not exist is NotFound.
 * helm's statusWaiter (pkg/kube/statuswait.go) words a resource that is not Current as
 * `resource KIND/NAMESPACE/NAME not ready. status: STATUS, message: MESSAGE`.
 */
import type { KObject } from '../../sim/api/types.js';

export type KStatus = 'Current' | 'InProgress' | 'Failed' | 'Terminating' | 'NotFound';

export interface KResult {
  status: KStatus;
  message: string;
}

type Cond = { type: string; status: string; reason?: string; message?: string };

/** status.GetIntField: a number at a dotted path, else the default. */
function int(o: unknown, path: string, dflt: number): number {
  let v: unknown = o;
  for (const k of path.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return typeof v === 'number' ? v : dflt;
}

function str(o: unknown, path: string, dflt: string): string {
  let v: unknown = o;
  for (const k of path.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return typeof v === 'string' ? v : dflt;
}

const conditions = (o: KObject): Cond[] => ((o.status as { conditions?: Cond[] } | undefined)?.conditions ?? []).filter((c) => c && typeof c === 'object');
const inProgress = (message: string): KResult => ({ status: 'InProgress', message });
const current = (message: string): KResult => ({ status: 'Current', message });
const failed = (message: string): KResult => ({ status: 'Failed', message });

/** checkGenericProperties: deletion, an unobserved generation, Reconciling/Stalled conditions. */
function generic(o: KObject): KResult | undefined {
  if (o.metadata.deletionTimestamp) return { status: 'Terminating', message: 'Resource scheduled for deletion' };
  const gen = o.metadata.generation;
  const observed = (o.status as { observedGeneration?: number } | undefined)?.observedGeneration;
  if (gen !== undefined && observed !== undefined && observed !== gen) return inProgress(`${o.kind} generation is ${gen}, but latest observed generation is ${observed}`);
  for (const c of conditions(o)) {
    if (c.type === 'Reconciling' && c.status === 'True') return inProgress(c.message ?? '');
    if (c.type === 'Stalled' && c.status === 'True') return failed(c.message ?? '');
  }
  return undefined;
}

function deployment(o: KObject): KResult {
  let progressing = int(o, 'spec.progressDeadlineSeconds', 2147483647) === 2147483647;
  let available = false;
  for (const c of conditions(o)) {
    if (c.type === 'Progressing') {
      if (c.reason === 'ProgressDeadlineExceeded') return failed('Progress deadline exceeded');
      if (c.status === 'True' && c.reason === 'NewReplicaSetAvailable') progressing = true;
    } else if (c.type === 'Available' && c.status === 'True') available = true;
  }
  const spec = int(o, 'spec.replicas', 1);
  const replicas = int(o, 'status.replicas', 0);
  const updated = int(o, 'status.updatedReplicas', 0);
  const ready = int(o, 'status.readyReplicas', 0);
  const avail = int(o, 'status.availableReplicas', 0);
  if (spec > replicas) return inProgress(`Replicas: ${replicas}/${spec}`);
  if (spec > updated) return inProgress(`Updated: ${updated}/${spec}`);
  if (replicas > spec) return inProgress(`Pending termination: ${replicas - spec}`);
  if (updated > avail) return inProgress(`Available: ${avail}/${updated}`);
  if (spec > ready) return inProgress(`Ready: ${ready}/${spec}`);
  if (!progressing) return inProgress('ReplicaSet not Available');
  if (!available) return inProgress('Deployment not Available');
  return current(`Deployment is available. Replicas: ${replicas}`);
}

function replicaSet(o: KObject): KResult {
  if (conditions(o).some((c) => c.type === 'ReplicaFailure' && c.status === 'True')) return inProgress('Replica Failure condition. Check Pods');
  const spec = int(o, 'spec.replicas', 1);
  const replicas = int(o, 'status.replicas', 0);
  const ready = int(o, 'status.readyReplicas', 0);
  const avail = int(o, 'status.availableReplicas', 0);
  const labelled = int(o, 'status.fullyLabeledReplicas', 0);
  if (spec > labelled) return inProgress(`Labelled: ${labelled}/${spec}`);
  if (spec > avail) return inProgress(`Available: ${avail}/${spec}`);
  if (spec > ready) return inProgress(`Ready: ${ready}/${spec}`);
  if (replicas > spec) return inProgress(`Pending termination: ${replicas - spec}`);
  return current(`ReplicaSet is available. Replicas: ${replicas}`);
}

function statefulSet(o: KObject): KResult {
  if (str(o, 'spec.updateStrategy.type', '') === 'OnDelete') return current('StatefulSet is using the ondelete update strategy');
  const spec = int(o, 'spec.replicas', 1);
  const ready = int(o, 'status.readyReplicas', 0);
  const cur = int(o, 'status.currentReplicas', 0);
  const updated = int(o, 'status.updatedReplicas', 0);
  const replicas = int(o, 'status.replicas', 0);
  const partition = int(o, 'spec.updateStrategy.rollingUpdate.partition', -1);
  if (spec > replicas) return inProgress(`Replicas: ${replicas}/${spec}`);
  if (spec > ready) return inProgress(`Ready: ${ready}/${spec}`);
  if (replicas > spec) return inProgress(`Pending termination: ${replicas - spec}`);
  if (partition !== -1) {
    if (updated < spec - partition) return inProgress(`updated: ${updated}/${spec - partition}`);
    return current(`Partition rollout complete. updated: ${updated}`);
  }
  if (spec > cur) return inProgress(`current: ${cur}/${spec}`);
  if (str(o, 'status.currentRevision', '') !== str(o, 'status.updateRevision', '')) return inProgress('Waiting for updated revision to match current');
  return current(`All replicas scheduled as expected. Replicas: ${replicas}`);
}

function daemonSet(o: KObject): KResult {
  if (o.metadata.generation === undefined) return inProgress('DaemonSet metadata.generation not found');
  if ((o.status as { observedGeneration?: number } | undefined)?.observedGeneration === undefined) return inProgress('DaemonSet status.observedGeneration not found');
  const desired = int(o, 'status.desiredNumberScheduled', -1);
  const cur = int(o, 'status.currentNumberScheduled', 0);
  const updated = int(o, 'status.updatedNumberScheduled', 0);
  const avail = int(o, 'status.numberAvailable', 0);
  const ready = int(o, 'status.numberReady', 0);
  if (desired === -1) return inProgress('Missing .status.desiredNumberScheduled');
  if (desired > cur) return inProgress(`Current: ${cur}/${desired}`);
  if (desired > updated) return inProgress(`Updated: ${updated}/${desired}`);
  if (desired > avail) return inProgress(`Available: ${avail}/${desired}`);
  if (desired > ready) return inProgress(`Ready: ${ready}/${desired}`);
  return current(`All replicas scheduled as expected. Replicas: ${desired}`);
}

/** podConditions; `now` decides whether an unschedulable pod is still inside the 15 s schedule window. */
function pod(o: KObject, now: number): KResult {
  const phase = str(o, 'status.phase', '');
  const conds = conditions(o);
  switch (phase) {
    case 'Succeeded':
      return current('Pod has completed successfully');
    case 'Failed':
      return current('Pod has completed, but not successfully');
    case 'Running': {
      if (conds.some((c) => c.type === 'Ready' && c.status === 'True')) return current('Pod is Ready');
      const statuses = ((o.status as { containerStatuses?: { name: string; state?: { waiting?: { reason?: string } } }[] }).containerStatuses ?? []);
      const looping = statuses.filter((c) => c.state?.waiting?.reason === 'CrashLoopBackOff').map((c) => c.name);
      if (looping.length > 0) return failed(`Containers in CrashLoop state: ${looping.join(',')}`);
      return inProgress('Pod is running but is not Ready');
    }
    case 'Pending': {
      const c = conds.find((x) => x.type === 'PodScheduled' && x.status === 'False');
      if (c?.reason === 'Unschedulable') {
        const created = Date.parse(o.metadata.creationTimestamp ?? '');
        return now - 15_000 < created ? inProgress('Pod has not been scheduled') : failed('Pod could not be scheduled');
      }
      return inProgress('Pod is in the Pending phase');
    }
    default:
      return inProgress('Pod phase not available');
  }
}

function job(o: KObject): KResult {
  const parallelism = int(o, 'spec.parallelism', 1);
  const completions = int(o, 'spec.completions', parallelism);
  const succeeded = int(o, 'status.succeeded', 0);
  const failedPods = int(o, 'status.failed', 0);
  for (const c of conditions(o)) {
    if (c.type === 'Complete' && c.status === 'True') return current(`Job Completed. succeeded: ${succeeded}/${completions}`);
    if (c.type === 'Failed' && c.status === 'True') return failed(`Job Failed. failed: ${failedPods}/${completions}`);
  }
  if (str(o, 'status.startTime', '') === '') return inProgress('Job not started');
  return current(`Job in progress. success:${succeeded}, active: ${int(o, 'status.active', 0)}, failed: ${failedPods}`);
}

function crd(o: KObject): KResult {
  for (const c of conditions(o)) {
    if (c.type === 'NamesAccepted' && c.status === 'False') return failed(c.message ?? '');
    if (c.type === 'Established') {
      if (c.status === 'False' && c.reason !== 'Installing') return failed(c.message ?? '');
      if (c.status === 'True') return current('CRD is established');
    }
  }
  return inProgress('Install in progress');
}

const ALWAYS = current('Resource is always ready');

const BY_KIND: Record<string, (o: KObject, now: number) => KResult> = {
  Service: (o) => (str(o, 'spec.type', 'ClusterIP') === 'LoadBalancer' && str(o, 'spec.clusterIP', '') === '' ? inProgress('ClusterIP not set. Service type: LoadBalancer') : current('Service is ready')),
  Pod: pod,
  Secret: () => ALWAYS,
  ConfigMap: () => ALWAYS,
  CronJob: () => ALWAYS,
  PersistentVolumeClaim: (o) => (str(o, 'status.phase', 'unknown') === 'Bound' ? current('PVC is Bound') : inProgress(`PVC is not Bound. phase: ${str(o, 'status.phase', 'unknown')}`)),
  StatefulSet: statefulSet,
  DaemonSet: daemonSet,
  Deployment: deployment,
  ReplicaSet: replicaSet,
  PodDisruptionBudget: () => current('AllowedDisruptions has been computed.'),
  Job: job,
  CustomResourceDefinition: crd,
};

/** status.Compute for an object, or NotFound when it does not exist. */
export function computeStatus(o: KObject | undefined, now: number): KResult {
  if (!o) return { status: 'NotFound', message: 'Resource not found' };
  const g = generic(o);
  if (g) return g;
  const fn = BY_KIND[o.kind];
  if (fn) return fn(o, now);
  const ready = conditions(o).find((c) => c.type === 'Ready');
  if (ready?.status === 'True') return current('Resource is Ready');
  if (ready?.status === 'False' || ready?.status === 'Unknown') return inProgress(ready.message ?? '');
  return current('Resource is current');
}

/** statusWaiter's error for a resource short of the wanted status. */
export function notReadyText(o: Pick<KObject, 'kind' | 'metadata'>, s: KResult, what = 'not ready'): string {
  return `resource ${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name} ${what}. status: ${s.status}, message: ${s.message}`;
}
