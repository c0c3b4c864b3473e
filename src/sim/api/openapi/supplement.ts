/**
 * Schemas the decoder needs and `kubectl explain` does not document (so they stay out of
 * COMPONENTS): ObjectMeta, the workload kinds beyond Deployment, batch, Secret and Namespace, with
 * their fields as in k8s.io/api v1.35 (apps/v1, batch/v1, core/v1 types.go;
 * k8s.io/apimachinery pkg/apis/meta/v1/types.go). Types only: descriptions live in the explain
 * data. A `$ref` to a schema that exists nowhere is decoded as free-form JSON.
 */
import type { Schema, SchemaMap } from './schema.js';

const ref = (name: string): Schema => ({ allOf: [{ $ref: `#/components/schemas/${name}` }] });
const core = (n: string): Schema => ref(`io.k8s.api.core.v1.${n}`);
const meta = (n: string): Schema => ref(`io.k8s.apimachinery.pkg.apis.meta.v1.${n}`);
const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };
const bool: Schema = { type: 'boolean' };
const arr = (items: Schema): Schema => ({ type: 'array', items });
const map = (v: Schema): Schema => ({ type: 'object', additionalProperties: v });
const obj = (properties: Record<string, Schema>): Schema => ({ type: 'object', properties });
const intOrString = ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString');

/** A top-level kind: TypeMeta, ObjectMeta and the rest. */
const kind = (rest: Record<string, Schema>): Schema => obj({ apiVersion: str, kind: str, metadata: meta('ObjectMeta'), ...rest });

export const SUPPLEMENT: SchemaMap = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': obj({
    annotations: map(str),
    creationTimestamp: meta('Time'),
    deletionGracePeriodSeconds: int,
    deletionTimestamp: meta('Time'),
    finalizers: arr(str),
    generateName: str,
    generation: int,
    labels: map(str),
    managedFields: arr(meta('ManagedFieldsEntry')),
    name: str,
    namespace: str,
    ownerReferences: arr(meta('OwnerReference')),
    resourceVersion: str,
    selfLink: str,
    uid: str,
  }),
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference': obj({ apiVersion: str, blockOwnerDeletion: bool, controller: bool, kind: str, name: str, uid: str }),
  'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry': obj({
    apiVersion: str,
    fieldsType: str,
    fieldsV1: meta('FieldsV1'),
    manager: str,
    operation: str,
    subresource: str,
    time: meta('Time'),
  }),
  'io.k8s.api.apps.v1.ReplicaSet': kind({ spec: ref('io.k8s.api.apps.v1.ReplicaSetSpec'), status: ref('io.k8s.api.apps.v1.ReplicaSetStatus') }),
  'io.k8s.api.apps.v1.ReplicaSetSpec': obj({ minReadySeconds: int, replicas: int, selector: meta('LabelSelector'), template: core('PodTemplateSpec') }),
  'io.k8s.api.apps.v1.DaemonSet': kind({ spec: ref('io.k8s.api.apps.v1.DaemonSetSpec'), status: ref('io.k8s.api.apps.v1.DaemonSetStatus') }),
  'io.k8s.api.apps.v1.DaemonSetSpec': obj({
    minReadySeconds: int,
    revisionHistoryLimit: int,
    selector: meta('LabelSelector'),
    template: core('PodTemplateSpec'),
    updateStrategy: ref('io.k8s.api.apps.v1.DaemonSetUpdateStrategy'),
  }),
  'io.k8s.api.apps.v1.DaemonSetUpdateStrategy': obj({ rollingUpdate: ref('io.k8s.api.apps.v1.RollingUpdateDaemonSet'), type: str }),
  'io.k8s.api.apps.v1.RollingUpdateDaemonSet': obj({ maxSurge: intOrString, maxUnavailable: intOrString }),
  'io.k8s.api.apps.v1.StatefulSet': kind({ spec: ref('io.k8s.api.apps.v1.StatefulSetSpec'), status: ref('io.k8s.api.apps.v1.StatefulSetStatus') }),
  'io.k8s.api.apps.v1.StatefulSetSpec': obj({
    minReadySeconds: int,
    ordinals: ref('io.k8s.api.apps.v1.StatefulSetOrdinals'),
    persistentVolumeClaimRetentionPolicy: ref('io.k8s.api.apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy'),
    podManagementPolicy: str,
    replicas: int,
    revisionHistoryLimit: int,
    selector: meta('LabelSelector'),
    serviceName: str,
    template: core('PodTemplateSpec'),
    updateStrategy: ref('io.k8s.api.apps.v1.StatefulSetUpdateStrategy'),
    volumeClaimTemplates: arr(core('PersistentVolumeClaim')),
  }),
  'io.k8s.api.apps.v1.StatefulSetUpdateStrategy': obj({ rollingUpdate: ref('io.k8s.api.apps.v1.RollingUpdateStatefulSetStrategy'), type: str }),
  'io.k8s.api.apps.v1.RollingUpdateStatefulSetStrategy': obj({ maxUnavailable: intOrString, partition: int }),
  'io.k8s.api.batch.v1.Job': kind({ spec: ref('io.k8s.api.batch.v1.JobSpec'), status: ref('io.k8s.api.batch.v1.JobStatus') }),
  'io.k8s.api.batch.v1.JobSpec': obj({
    activeDeadlineSeconds: int,
    backoffLimit: int,
    backoffLimitPerIndex: int,
    completionMode: str,
    completions: int,
    managedBy: str,
    manualSelector: bool,
    maxFailedIndexes: int,
    parallelism: int,
    podFailurePolicy: ref('io.k8s.api.batch.v1.PodFailurePolicy'),
    podReplacementPolicy: str,
    selector: meta('LabelSelector'),
    successPolicy: ref('io.k8s.api.batch.v1.SuccessPolicy'),
    suspend: bool,
    template: core('PodTemplateSpec'),
    ttlSecondsAfterFinished: int,
  }),
  'io.k8s.api.batch.v1.CronJob': kind({ spec: ref('io.k8s.api.batch.v1.CronJobSpec'), status: ref('io.k8s.api.batch.v1.CronJobStatus') }),
  'io.k8s.api.batch.v1.CronJobSpec': obj({
    concurrencyPolicy: str,
    failedJobsHistoryLimit: int,
    jobTemplate: ref('io.k8s.api.batch.v1.JobTemplateSpec'),
    schedule: str,
    startingDeadlineSeconds: int,
    successfulJobsHistoryLimit: int,
    suspend: bool,
    timeZone: str,
  }),
  'io.k8s.api.batch.v1.JobTemplateSpec': obj({ metadata: meta('ObjectMeta'), spec: ref('io.k8s.api.batch.v1.JobSpec') }),
  'io.k8s.api.core.v1.Secret': kind({ data: map(str), immutable: bool, stringData: map(str), type: str }),
  'io.k8s.api.core.v1.Namespace': kind({ spec: core('NamespaceSpec'), status: core('NamespaceStatus') }),
  'io.k8s.api.core.v1.NamespaceSpec': obj({ finalizers: arr(str) }),
};

/** The schema each kind's writes are decoded by; other kinds get TypeMeta and ObjectMeta only. */
export const DECODE_KINDS: Readonly<Record<string, string>> = {
  ReplicaSet: 'io.k8s.api.apps.v1.ReplicaSet',
  DaemonSet: 'io.k8s.api.apps.v1.DaemonSet',
  StatefulSet: 'io.k8s.api.apps.v1.StatefulSet',
  Job: 'io.k8s.api.batch.v1.Job',
  CronJob: 'io.k8s.api.batch.v1.CronJob',
  Secret: 'io.k8s.api.core.v1.Secret',
  Namespace: 'io.k8s.api.core.v1.Namespace',
};
