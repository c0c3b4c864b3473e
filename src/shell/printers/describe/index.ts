/**
 * Describers by kind (kubectl pkg/describe/describe.go DescriberFor, v1.35). `describe` returns
 * undefined for a kind without a describer here (kubectl then uses the generic describer,
 * src/shell/kubectl/describers/generic.ts).
 * Several objects are joined by kubectl's cmd/describe as `first + "\n\n" + next…`: see joinDescribed.
 */
import type { ConfigMap, CronJob, DaemonSet, Deployment, Endpoints, Ingress, Job, KObject, Namespace, Pod, ReplicaSet, Secret, Service, StatefulSet } from '../../../sim/api/types.js';
import { describeIngress } from './ingress.js';
import { describePodDisruptionBudget, describePriorityClass, type PodDisruptionBudget, type PriorityClass } from './policy.js';
import { describeStatefulSet } from './statefulset.js';
import { describeRole, describeRoleBinding } from './rbac.js';
import { describeServiceAccount } from './serviceaccount.js';
import type { BindingObject, RoleObject } from '../../../sim/api/rbac.js';
import { describeCronJob, describeJob } from './job.js';
import { describeDaemonSet } from './daemonset.js';
import { describeConfigMap } from './configmap.js';
import { describeEndpoints } from './endpoints.js';
import { describeIngressClass } from './ingressclass.js';
import { describeServiceCIDR } from './servicecidr.js';
import { describeIPAddress } from './ipaddress.js';
import { describeCSINode } from './csinode.js';
import { describeVolumeAttributesClass } from './volumeattributesclass.js';
import { describeReplicationController } from './replicationcontroller.js';
import { describeCertificateSigningRequest } from './csr.js';
import { describeDeployment } from './deployment.js';
import { describeNamespace } from './namespace.js';
import { describePod } from './pod.js';
import { describeReplicaSet } from './replicaset.js';
import { describeSecret } from './secret.js';
import { describeLimitRange, describeResourceQuota } from './resourcequota.js';
import { describeService } from './service.js';
import { describePersistentVolume, describePersistentVolumeClaim, describeStorageClass } from './storage.js';
import { describeHorizontalPodAutoscaler, type HorizontalPodAutoscaler } from './hpa.js';
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '../../../sim/api/storage.js';
import type { DescribeContext } from './writer.js';

export type { DescribeContext } from './writer.js';
export { describeEvents } from './events.js';

export type DescribedKind =
  | 'Pod'
  | 'Service'
  | 'Endpoints'
  | 'Deployment'
  | 'ReplicaSet'
  | 'DaemonSet'
  | 'StatefulSet'
  | 'Job'
  | 'CronJob'
  | 'Ingress'
  | 'Role'
  | 'ClusterRole'
  | 'RoleBinding'
  | 'ClusterRoleBinding'
  | 'ServiceAccount'
  | 'PodDisruptionBudget'
  | 'PriorityClass'
  | 'ConfigMap'
  | 'Secret'
  | 'Namespace'
  | 'PersistentVolumeClaim'
  | 'PersistentVolume'
  | 'StorageClass'
  | 'HorizontalPodAutoscaler'
  | 'ResourceQuota'
  | 'LimitRange'
  | 'IngressClass'
  | 'ServiceCIDR'
  | 'IPAddress'
  | 'CSINode'
  | 'VolumeAttributesClass'
  | 'ReplicationController'
  | 'CertificateSigningRequest';

/** One describer per kind, each taking its own object type (a missing kind fails to compile). */
interface DescriberTable {
  readonly Pod: (obj: Pod, ctx: DescribeContext) => string;
  readonly Service: (obj: Service, ctx: DescribeContext) => string;
  readonly Endpoints: (obj: Endpoints, ctx: DescribeContext) => string;
  readonly Deployment: (obj: Deployment, ctx: DescribeContext) => string;
  readonly ReplicaSet: (obj: ReplicaSet, ctx: DescribeContext) => string;
  readonly DaemonSet: (obj: DaemonSet, ctx: DescribeContext) => string;
  readonly StatefulSet: (obj: StatefulSet, ctx: DescribeContext) => string;
  readonly Job: (obj: Job, ctx: DescribeContext) => string;
  readonly CronJob: (obj: CronJob, ctx: DescribeContext) => string;
  readonly Ingress: (obj: Ingress, ctx: DescribeContext) => string;
  readonly Role: (obj: RoleObject) => string;
  readonly ClusterRole: (obj: RoleObject) => string;
  readonly RoleBinding: (obj: BindingObject) => string;
  readonly ClusterRoleBinding: (obj: BindingObject) => string;
  readonly ServiceAccount: (obj: KObject, ctx: DescribeContext) => string;
  readonly PodDisruptionBudget: (obj: PodDisruptionBudget, ctx: DescribeContext) => string;
  readonly PriorityClass: (obj: PriorityClass, ctx: DescribeContext) => string;
  readonly ConfigMap: (obj: ConfigMap, ctx: DescribeContext) => string;
  readonly Secret: (obj: Secret, ctx: DescribeContext) => string;
  readonly Namespace: (obj: Namespace, ctx: DescribeContext) => string;
  readonly PersistentVolumeClaim: (obj: PersistentVolumeClaim, ctx: DescribeContext) => string;
  readonly PersistentVolume: (obj: PersistentVolume, ctx: DescribeContext) => string;
  readonly StorageClass: (obj: StorageClass, ctx: DescribeContext) => string;
  readonly HorizontalPodAutoscaler: (obj: HorizontalPodAutoscaler, ctx: DescribeContext) => string;
  readonly ResourceQuota: (obj: KObject, ctx: DescribeContext) => string;
  readonly LimitRange: (obj: KObject, ctx: DescribeContext) => string;
  readonly IngressClass: (obj: KObject, ctx: DescribeContext) => string;
  readonly ServiceCIDR: (obj: KObject, ctx: DescribeContext) => string;
  readonly IPAddress: (obj: KObject, ctx: DescribeContext) => string;
  readonly CSINode: (obj: KObject, ctx: DescribeContext) => string;
  readonly VolumeAttributesClass: (obj: KObject, ctx: DescribeContext) => string;
  readonly ReplicationController: (obj: KObject, ctx: DescribeContext) => string;
  readonly CertificateSigningRequest: (obj: KObject, ctx: DescribeContext) => string;
}

export const DESCRIBERS: { readonly [K in DescribedKind]: DescriberTable[K] } = {
  Pod: describePod,
  Service: describeService,
  Endpoints: describeEndpoints,
  Deployment: describeDeployment,
  ReplicaSet: describeReplicaSet,
  DaemonSet: describeDaemonSet,
  StatefulSet: describeStatefulSet,
  Job: describeJob,
  CronJob: describeCronJob,
  Ingress: describeIngress,
  Role: describeRole,
  ClusterRole: describeRole,
  RoleBinding: describeRoleBinding,
  ClusterRoleBinding: describeRoleBinding,
  ServiceAccount: describeServiceAccount,
  PodDisruptionBudget: describePodDisruptionBudget,
  PriorityClass: describePriorityClass,
  ConfigMap: describeConfigMap,
  Secret: describeSecret,
  Namespace: describeNamespace,
  PersistentVolumeClaim: describePersistentVolumeClaim,
  PersistentVolume: describePersistentVolume,
  StorageClass: describeStorageClass,
  HorizontalPodAutoscaler: describeHorizontalPodAutoscaler,
  ResourceQuota: describeResourceQuota,
  LimitRange: describeLimitRange,
  IngressClass: describeIngressClass,
  ServiceCIDR: describeServiceCIDR,
  IPAddress: describeIPAddress,
  CSINode: describeCSINode,
  VolumeAttributesClass: describeVolumeAttributesClass,
  ReplicationController: describeReplicationController,
  CertificateSigningRequest: describeCertificateSigningRequest,
};

export function hasDescriber(kind: string): kind is DescribedKind {
  return Object.prototype.hasOwnProperty.call(DESCRIBERS, kind);
}

export function describe(obj: KObject, ctx: DescribeContext): string | undefined {
  // the kind names the object type: the describer of obj.kind takes obj
  return hasDescriber(obj.kind) ? (DESCRIBERS[obj.kind] as (o: KObject, c: DescribeContext) => string)(obj, ctx) : undefined;
}

/** cmd/describe: objects after the first are preceded by "\n\n" (one blank line shows). */
export function joinDescribed(texts: readonly string[]): string {
  return texts.map((t, i) => (i === 0 ? t : `\n\n${t}`)).join('');
}
