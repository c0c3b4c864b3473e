/**
 * The time fields of a built-in kind's status conditions as the API server stores and returns
 * them. In k8s.io/api these are `metav1.Time` values, not pointers, tagged `json:",omitempty"`:
 * encoding/json never omits a struct, and metav1.Time.MarshalJSON writes a zero time as `null`
 * (k8s.io/apimachinery pkg/apis/meta/v1/time.go). So a condition set without one of them (the
 * kubelet's own conditions have no lastProbeTime; a condition patched in through the status
 * subresource may carry no time at all) reads back as `lastProbeTime: null`, never without the
 * field. Custom resources are unstructured and keep what they were given.
 */
import type { KObject } from './types.js';

/** Per kind, the metav1.Time fields of its status condition struct (k8s.io/api v0.35 types.go). */
const CONDITION_TIMES: Readonly<Record<string, readonly string[]>> = {
  Pod: ['lastProbeTime', 'lastTransitionTime'], // core/v1 PodCondition
  Node: ['lastHeartbeatTime', 'lastTransitionTime'], // core/v1 NodeCondition
  PersistentVolumeClaim: ['lastProbeTime', 'lastTransitionTime'], // core/v1 PersistentVolumeClaimCondition
  Namespace: ['lastTransitionTime'], // core/v1 NamespaceCondition
  ReplicationController: ['lastTransitionTime'], // core/v1 ReplicationControllerCondition
  Deployment: ['lastUpdateTime', 'lastTransitionTime'], // apps/v1 DeploymentCondition
  ReplicaSet: ['lastTransitionTime'], // apps/v1 ReplicaSetCondition
  StatefulSet: ['lastTransitionTime'], // apps/v1 StatefulSetCondition
  DaemonSet: ['lastTransitionTime'], // apps/v1 DaemonSetCondition
  Job: ['lastProbeTime', 'lastTransitionTime'], // batch/v1 JobCondition
  HorizontalPodAutoscaler: ['lastTransitionTime'], // autoscaling/v2 HorizontalPodAutoscalerCondition
  CustomResourceDefinition: ['lastTransitionTime'], // apiextensions/v1 CustomResourceDefinitionCondition
  APIService: ['lastTransitionTime'], // apiregistration/v1 APIServiceCondition
  FlowSchema: ['lastTransitionTime'], // flowcontrol/v1 FlowSchemaCondition
  PriorityLevelConfiguration: ['lastTransitionTime'], // flowcontrol/v1 PriorityLevelConfigurationCondition
};

/**
 * `obj` with every missing condition time of its kind written as `null`: the object itself when
 * nothing is missing, else a shallow copy with new `status` and `conditions` (the input may be
 * frozen, and shares its parts with the stored versions).
 */
export function conditionTimesAsNull<T extends KObject>(obj: T): T {
  const fields = CONDITION_TIMES[obj.kind];
  if (!fields) return obj;
  const status = (obj as { status?: unknown }).status;
  if (typeof status !== 'object' || status === null) return obj;
  const conditions = (status as { conditions?: unknown }).conditions;
  if (!Array.isArray(conditions)) return obj;
  const missing = (x: unknown): boolean => typeof x === 'object' && x !== null && fields.some((f) => (x as Record<string, unknown>)[f] === undefined);
  if (!conditions.some(missing)) return obj;
  const fixed = conditions.map((x: unknown) => {
    if (!missing(x)) return x;
    const out: Record<string, unknown> = { ...(x as Record<string, unknown>) };
    for (const f of fields) if (out[f] === undefined) out[f] = null;
    return out;
  });
  return { ...obj, status: { ...status, conditions: fixed } };
}
