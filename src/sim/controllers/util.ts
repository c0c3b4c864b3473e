/** Helpers shared by the controllers: owner references, template hashing, pod readiness. */
import type { KObject, OwnerReference, Pod, PodTemplateSpec } from '../api/types.js';
import { clone, cloneTop } from '../api/store.js';
import { ApiError } from '../api/errors.js';
import { applyDefaults } from '../api/defaults.js';
import { admitMutating, admitValidating, type AdmissionAttributes } from '../api/admission/index.js';
import type { Cluster } from '../cluster.js';
import { canonicalJSON, sameCanonicalJSON } from '../../util/canonical-json.js';
import { fnv32a } from '../../util/fnv.js';
import { sameJSONText } from '../../util/json-copy.js';

export { canonicalJSON, sameCanonicalJSON, sameJSONText };

export function ownerRef(owner: KObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

export function controllerOf(obj: KObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((r) => r.controller);
}

export function isOwnedBy(obj: KObject, owner: KObject): boolean {
  return controllerOf(obj)?.uid === owner.metadata.uid;
}

export { fnv32a };

/**
 * pod-template-hash as controller.ComputeHash derives it: FNV-32a over the template (plus the
 * collision count), printed as a decimal and passed through rand.SafeEncodeString
 * (k8s.io/kubernetes pkg/controller/controller_utils.go, apimachinery util/rand). Upstream hashes
 * a spew dump of the Go struct; we hash canonical JSON, so the value differs from a real cluster's
 * for the same template but keeps every property users see (stable, 8–10 safe characters, changes
 * with the template).
 */
export function podTemplateHash(template: PodTemplateSpec, collisionCount = 0): string {
  // a stored template is frozen (sim/api/store.ts): hashed once per version and collision count
  const frozen = Object.isFrozen(template);
  const known = frozen ? TEMPLATE_HASHES.get(template)?.get(collisionCount) : undefined;
  if (known !== undefined) return known;
  const hash = safeEncode(String(fnv32a(canonicalJSON(withoutTemplateHash(template)) + (collisionCount ? String(collisionCount) : ''))));
  if (frozen) {
    let byCount = TEMPLATE_HASHES.get(template);
    if (!byCount) TEMPLATE_HASHES.set(template, (byCount = new Map()));
    byCount.set(collisionCount, hash);
  }
  return hash;
}

const TEMPLATE_HASHES = new WeakMap<object, Map<number, string>>();

/**
 * A template less its pod-template-hash label (what the hash is of, and what the Deployment
 * controller compares templates by), its other parts shared with the original (canonicalJSON
 * knows the texts of frozen ones already).
 */
export function withoutTemplateHash<T extends PodTemplateSpec>(template: T): T {
  const t = cloneTop(template);
  const labels = t.metadata?.labels;
  if (labels) {
    const rest = { ...labels };
    delete rest['pod-template-hash'];
    t.metadata = { ...t.metadata, labels: rest };
  }
  return t;
}

export function safeEncode(s: string): string {
  const alphanums = 'bcdfghjklmnpqrstvwxz2456789';
  let out = '';
  for (const ch of s) out += alphanums[ch.charCodeAt(0) % alphanums.length];
  return out;
}

export { scaledValue } from '../../util/intstr.js';

export function podIsReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

export function podIsActive(pod: Pod): boolean {
  return !pod.metadata.deletionTimestamp && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';
}

/** A pod object from a template, as the workload controllers create them. */
export function podFromTemplate(template: PodTemplateSpec, namespace: string, owner: KObject, extraLabels: Record<string, string> = {}): Pod {
  const t = clone(template);
  const labels = { ...(t.metadata?.labels ?? {}), ...extraLabels };
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: '',
      namespace,
      labels,
      ownerReferences: [ownerRef(owner)],
      ...(t.metadata?.annotations ? { annotations: t.metadata.annotations } : {}),
    },
    spec: t.spec,
  };
  return pod;
}

/**
 * Store a pod a workload controller made. Controllers create pods through the API server, so the
 * pod gets the Pod defaults (pkg/apis/core/v1/defaults.go: service account, enableServiceLinks,
 * priority, the not-ready/unreachable tolerations, requests from limits), which a template never
 * has. Run after the controller's own additions (a DaemonSet's tolerations come first). The
 * admission chain (sim/api/admission) runs as for any client: a refused pod throws the Forbidden
 * ApiError, which the controller reports as its FailedCreate event.
 */
export function createPod(c: Cluster, pod: Pod): Pod {
  applyDefaults(pod, priorityClassValue(c));
  // the name is generated before validating admission (rest.BeforeCreate), so a refusal names the pod
  const m = pod.metadata;
  if (!m.name && m.generateName) m.name = c.generateName('Pod', m.namespace, m.generateName);
  const attrs: AdmissionAttributes = { operation: 'CREATE', obj: pod, ...(m.namespace ? { namespace: m.namespace } : {}), store: c.store, warnings: [], now: c.now() };
  admitMutating(attrs);
  admitValidating(attrs);
  return c.insert(pod);
}

/**
 * createPod for a workload controller that reports a refusal as upstream's PodControl does
 * (pkg/controller/controller_utils.go createPods): a Warning FailedCreate event on the owner,
 * `Error creating: <the API server's error>` unless `message` words it otherwise (StatefulSet).
 * Returns undefined when the pod was refused; other errors propagate.
 */
export function createPodOrReport(c: Cluster, pod: Pod, owner: KObject, component: string, message: (err: string) => string = (err) => `Error creating: ${err}`): Pod | undefined {
  try {
    return createPod(c, pod);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    c.recordEvent(owner, 'Warning', 'FailedCreate', message(e.message), component);
    return undefined;
  }
}

/** A PriorityClass's value from the store, for the Priority admission the API server applies to pods. */
export function priorityClassValue(c: Cluster): (name: string) => number | undefined {
  return (name) => (c.store.get('PriorityClass', undefined, name) as { value?: number } | undefined)?.value;
}
