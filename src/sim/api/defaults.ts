/**
 * Defaulting as the API server applies it on create (k8s.io/kubernetes pkg/apis/core/v1/defaults.go,
 * pkg/apis/apps/v1/defaults.go, pkg/apis/batch/v1/defaults.go), so that `-o yaml` shows the fields
 * a real cluster adds. Mutates the object it is given.
 */
import type {
  Container,
  CronJob,
  DaemonSet,
  Deployment,
  EndpointSlice,
  Job,
  KObject,
  Pod,
  PodSpec,
  PodStatus,
  PodTemplateSpec,
  ReplicaSet,
  Service,
  StatefulSet,
} from './types.js';
import { computePodQOS } from './qos.js';
import { fillCoreEventFields } from './events-core.js';

function defaultContainer(c: Container): void {
  c.imagePullPolicy ??= /:latest$/.test(c.image) || !/:[^/]+$/.test(c.image) ? 'Always' : 'IfNotPresent';
  c.resources ??= {};
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  for (const p of c.ports ?? []) p.protocol ??= 'TCP';
  // SetDefaults_ObjectFieldSelector (pkg/apis/core/v1/defaults.go): a fieldRef names apiVersion v1
  for (const e of c.env ?? []) {
    const ref = e.valueFrom?.['fieldRef'] as { apiVersion?: string } | undefined;
    if (ref) ref.apiVersion ??= 'v1';
  }
  for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) {
    if (!probe) continue;
    probe.timeoutSeconds ??= 1;
    probe.periodSeconds ??= 10;
    probe.successThreshold ??= 1;
    probe.failureThreshold ??= 3;
    if (probe.httpGet) {
      probe.httpGet.path ??= '/';
      probe.httpGet.scheme ??= 'HTTP';
    }
  }
}

/**
 * SetDefaults_Pod (pkg/apis/core/v1/defaults.go): a container with limits but no request for a
 * resource gets the limit as its request. Only Pods are defaulted so, never pod templates, so a
 * Deployment's template keeps what the user wrote and its pods show both. The API serializes
 * resource lists with sorted keys.
 */
function defaultRequestsFromLimits(c: Container): void {
  const limits = c.resources?.limits;
  if (!limits) return;
  const requests: Record<string, string> = { ...(c.resources!.requests ?? {}) };
  for (const [k, v] of Object.entries(limits)) requests[k] ??= v;
  c.resources!.requests = Object.fromEntries(Object.keys(requests).sort().map((k) => [k, requests[k]!]));
}

/** The built-in PriorityClasses' values (pkg/apis/scheduling/types.go SystemCriticalPriority + 1000 / + 0). */
const SYSTEM_PRIORITY: Record<string, number> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };

/** The value of a user PriorityClass by name, for pods naming one (set by the caller that has the store). */
export type PriorityLookup = (className: string) => number | undefined;

export function defaultPodSpec(spec: PodSpec, inTemplate: boolean, restartDefault: 'Always' | 'OnFailure' | 'Never' = 'Always', priorityLookup?: PriorityLookup, mirror = false): void {
  if (!inTemplate) for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) defaultRequestsFromLimits(c);
  for (const c of spec.containers ?? []) defaultContainer(c);
  for (const c of spec.initContainers ?? []) defaultContainer(c);
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.restartPolicy ??= restartDefault;
  spec.schedulerName ??= 'default-scheduler';
  spec.securityContext ??= {};
  spec.terminationGracePeriodSeconds ??= 30;
  // SetDefaults_ObjectFieldSelector for the downward API's files too (a volume's, a projection's)
  for (const v of spec.volumes ?? []) {
    const lists = [v['downwardAPI'], ...((v.projected?.['sources'] as unknown[] | undefined) ?? []).map((src) => (src as Record<string, unknown>)['downwardAPI'])];
    for (const d of lists) for (const item of ((d as { items?: unknown[] } | undefined)?.items ?? []) as { fieldRef?: { apiVersion?: string } }[]) if (item.fieldRef) item.fieldRef.apiVersion ??= 'v1';
  }
  if (!inTemplate) {
    // 'default' is the ServiceAccount admission plugin's choice, which skips mirror pods
    // (plugin/pkg/admission/serviceaccount/admission.go Admit): a static pod has no account
    if (!mirror || spec.serviceAccountName !== undefined || spec.serviceAccount !== undefined) {
      spec.serviceAccountName ??= spec.serviceAccount ?? 'default';
      spec.serviceAccount ??= spec.serviceAccountName;
    }
    spec.enableServiceLinks ??= true;
    // the Priority admission plugin (plugin/pkg/admission/priority): the class's value, 0 without one
    const cls = spec.priorityClassName ?? '';
    // and the class's preemptionPolicy: PreemptLowerPriority without a class and for the system
    // classes; a user class's is the admission plugin's to set, which refuses a pod that names
    // another one itself (so it is left as the pod gave it)
    if (cls === '' || SYSTEM_PRIORITY[cls] !== undefined) spec.preemptionPolicy ??= 'PreemptLowerPriority';
    if (spec.priority === undefined) {
      const value = cls === '' ? 0 : SYSTEM_PRIORITY[cls] ?? priorityLookup?.(cls);
      if (value !== undefined) spec.priority = value;
    }
    // DefaultTolerationSeconds (plugin/pkg/admission/defaulttolerationseconds): unless a
    // toleration already covers the taint — its key or an empty key, NoExecute or any effect
    const tol = spec.tolerations ?? [];
    for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']) {
      if (!tol.some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect)))
        tol.push({ effect: 'NoExecute', key, operator: 'Exists', tolerationSeconds: 300 });
    }
    spec.tolerations = tol;
  }
}

function defaultTemplate(t: PodTemplateSpec, restartDefault: 'Always' | 'OnFailure' | 'Never' = 'Always'): void {
  t.metadata ??= {};
  defaultPodSpec(t.spec, true, restartDefault);
}

const WITH_TEMPLATE = new Set(['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job']);

/**
 * Go's zero values: a struct-typed field that is not a pointer (a workload's spec, its template
 * and the template's spec) is never absent after decoding, even when the client sent `null` or
 * nothing; validation then reports what is missing inside (`spec.template.spec.containers:
 * Required value`).
 */
function materialize(obj: KObject): void {
  if (obj.kind !== 'Pod' && obj.kind !== 'CronJob' && !WITH_TEMPLATE.has(obj.kind)) return;
  const spec = (obj['spec'] ??= {}) as Record<string, Record<string, Record<string, unknown>>>;
  const template = (t: Record<string, unknown>): void => {
    t['spec'] ??= {};
  };
  if (WITH_TEMPLATE.has(obj.kind)) template((spec['template'] ??= {}));
  if (obj.kind === 'CronJob') {
    const jt = (spec['jobTemplate'] ??= {}) as Record<string, Record<string, Record<string, unknown>>>;
    const js = (jt['spec'] ??= {});
    template((js['template'] ??= {}));
  }
}

export function applyDefaults(obj: KObject, priorityLookup?: PriorityLookup): void {
  materialize(obj);
  switch (obj.kind) {
    case 'Pod': {
      defaultPodSpec(obj['spec'] as PodSpec, false, 'Always', priorityLookup, obj.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined);
      // podStrategy.PrepareForCreate (pkg/registry/core/pod/strategy.go): a new pod is Pending with
      // its QoS class, so `kubectl get pods` shows STATUS Pending before any scheduler sees it
      const st = (obj['status'] ??= {}) as PodStatus;
      st.phase ??= 'Pending';
      st.qosClass ??= computePodQOS(obj as Pod);
      break;
    }
    case 'Service': {
      const s = obj as Service;
      s.spec ??= {};
      s.spec.type ??= 'ClusterIP';
      if (s.spec.type !== 'ExternalName') {
        s.spec.sessionAffinity ??= 'None';
        s.spec.internalTrafficPolicy ??= 'Cluster';
      } else {
        s.spec.sessionAffinity ??= 'None';
      }
      if (s.spec.type === 'NodePort' || s.spec.type === 'LoadBalancer') s.spec.externalTrafficPolicy ??= 'Cluster';
      if (s.spec.type === 'LoadBalancer') s.spec.allocateLoadBalancerNodePorts ??= true;
      for (const p of s.spec.ports ?? []) {
        p.protocol ??= 'TCP';
        p.targetPort ??= p.port;
      }
      s.status ??= { loadBalancer: {} };
      break;
    }
    case 'Deployment': {
      const d = obj as Deployment;
      d.spec.replicas ??= 1;
      d.spec.revisionHistoryLimit ??= 10;
      d.spec.progressDeadlineSeconds ??= 600;
      d.spec.strategy ??= {};
      d.spec.strategy.type ||= 'RollingUpdate';
      if (d.spec.strategy.type === 'RollingUpdate') {
        d.spec.strategy.rollingUpdate ??= {};
        d.spec.strategy.rollingUpdate.maxSurge ??= '25%';
        d.spec.strategy.rollingUpdate.maxUnavailable ??= '25%';
      }
      defaultTemplate(d.spec.template);
      break;
    }
    case 'ReplicaSet': {
      const r = obj as ReplicaSet;
      r.spec.replicas ??= 1;
      defaultTemplate(r.spec.template);
      break;
    }
    case 'DaemonSet': {
      const d = obj as DaemonSet;
      d.spec.revisionHistoryLimit ??= 10;
      // SetDefaults_DaemonSet: type RollingUpdate, then maxUnavailable 1 and maxSurge 0 where unset
      const us = (d.spec.updateStrategy ??= {}) as { type?: string; rollingUpdate?: { maxUnavailable?: number | string; maxSurge?: number | string } };
      us.type ||= 'RollingUpdate';
      if (us.type === 'RollingUpdate') {
        us.rollingUpdate ??= {};
        us.rollingUpdate.maxUnavailable ??= 1;
        us.rollingUpdate.maxSurge ??= 0;
      }
      defaultTemplate(d.spec.template);
      break;
    }
    case 'StatefulSet': {
      const s = obj as StatefulSet;
      s.spec.replicas ??= 1;
      s.spec.podManagementPolicy ??= 'OrderedReady';
      s.spec.revisionHistoryLimit ??= 10;
      s.spec.updateStrategy ??= { type: 'RollingUpdate', rollingUpdate: { partition: 0 } };
      // SetDefaults_StatefulSet (StatefulSetAutoDeletePVC, GA in 1.32): both Retain
      const retention = (s.spec.persistentVolumeClaimRetentionPolicy ??= {});
      retention.whenDeleted ||= 'Retain';
      retention.whenScaled ||= 'Retain';
      defaultTemplate(s.spec.template);
      break;
    }
    case 'Job': {
      const j = obj as Job;
      // SetDefaults_Job: completions only with parallelism (a work-queue job keeps it unset)
      if (j.spec.completions === undefined && j.spec.parallelism === undefined) j.spec.completions = 1;
      j.spec.parallelism ??= 1;
      j.spec.backoffLimit ??= j.spec['backoffLimitPerIndex'] !== undefined ? 2147483647 : 6;
      j.spec['completionMode'] ??= 'NonIndexed';
      j.spec['suspend'] ??= false;
      j.spec['podReplacementPolicy'] ??= j.spec['podFailurePolicy'] !== undefined ? 'Failed' : 'TerminatingOrFailed';
      // SetDefaults_Job: an onPodConditions pattern matches status True unless it says otherwise
      for (const rule of j.spec.podFailurePolicy?.rules ?? []) for (const pat of rule.onPodConditions ?? []) pat.status ||= 'True';
      defaultTemplate(j.spec.template);
      break;
    }
    case 'CronJob': {
      const cj = obj as CronJob;
      cj.spec.concurrencyPolicy ??= 'Allow';
      cj.spec.suspend ??= false;
      cj.spec.successfulJobsHistoryLimit ??= 3;
      cj.spec.failedJobsHistoryLimit ??= 1;
      defaultTemplate(cj.spec.jobTemplate.spec.template);
      break;
    }
    case 'Namespace':
      {
        // namespaceStrategy.PrepareForCreate: a new namespace always carries the `kubernetes`
        // finalizer (kubectl create namespace sends `spec: {}`); on update the API server keeps
        // the stored spec.finalizers (PrepareForUpdate), which only the finalize subresource changes
        const spec = ((obj['spec'] ??= {}) as { finalizers?: string[] });
        if (!spec.finalizers?.includes('kubernetes')) spec.finalizers = [...(spec.finalizers ?? []), 'kubernetes'];
      }
      // a client may send `status: {}` (kubectl create namespace does): the phase is the server's
      if (!(obj['status'] as { phase?: string } | undefined)?.phase) obj['status'] = { phase: 'Active' };
      obj.metadata.labels = { ...(obj.metadata.labels ?? {}), 'kubernetes.io/metadata.name': obj.metadata.name };
      break;
    case 'Event':
      fillCoreEventFields(obj);
      break;
    case 'Secret': {
      obj['type'] ??= 'Opaque';
      // Convert_v1_Secret_To_core_Secret (pkg/apis/core/v1/conversion.go): stringData is write-only,
      // merged into data (base64 of its UTF-8 bytes, overriding a data key of the same name) and
      // never stored or returned
      const sec = obj as KObject & { data?: Record<string, string>; stringData?: Record<string, string> };
      if (sec.stringData) {
        const data = { ...(sec.data ?? {}) };
        for (const [k, v] of Object.entries(sec.stringData)) data[k] = Buffer.from(v, 'utf8').toString('base64');
        sec.data = data;
        delete sec.stringData;
      }
      break;
    }
    case 'NetworkPolicy': {
      // pkg/apis/networking/v1/defaults.go and the registry: ports default to TCP; policyTypes
      // default to Ingress, plus Egress when egress rules are given
      const spec = (obj['spec'] ??= { podSelector: {} }) as { policyTypes?: string[]; ingress?: { ports?: { protocol?: string }[] }[]; egress?: { ports?: { protocol?: string }[] }[] };
      for (const rule of [...(spec.ingress ?? []), ...(spec.egress ?? [])]) for (const p of rule.ports ?? []) p.protocol ??= 'TCP';
      if (!spec.policyTypes || spec.policyTypes.length === 0) spec.policyTypes = spec.egress && spec.egress.length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
      break;
    }
    case 'EndpointSlice':
      // pkg/apis/discovery/v1/defaults.go SetDefaults_EndpointPort: name "" and protocol TCP
      for (const p of (obj as EndpointSlice).ports ?? []) {
        p.name ??= '';
        p.protocol ??= 'TCP';
      }
      break;
    case 'PersistentVolume': {
      const spec = (obj['spec'] ??= {}) as { persistentVolumeReclaimPolicy?: string; volumeMode?: string };
      spec.persistentVolumeReclaimPolicy ??= 'Retain';
      spec.volumeMode ??= 'Filesystem';
      obj['status'] ??= { phase: 'Pending' };
      break;
    }
    case 'PersistentVolumeClaim': {
      const spec = (obj['spec'] ??= {}) as { volumeMode?: string };
      spec.volumeMode ??= 'Filesystem';
      obj['status'] ??= { phase: 'Pending' };
      break;
    }
    case 'PriorityClass':
      // k8s.io/kubernetes pkg/apis/scheduling/v1/defaults.go SetDefaults_PriorityClass (v1.35):
      // real kubectl describe dereferences it (describe.go describePriorityClass) and crashes on a
      // class without one
      (obj as KObject & { preemptionPolicy?: string }).preemptionPolicy ??= 'PreemptLowerPriority';
      break;
    default:
      break;
  }
}
