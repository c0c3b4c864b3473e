/**
 * Kubernetes API object shapes, as the API server stores them (a subset of fields: the ones the
 * CKA touches). Field names and nesting follow k8s.io/api exactly so that `-o yaml`, jsonpath and
 * applied manifests round-trip. Every object is plain JSON data: the store deep-copies on the way
 * in and out, and a snapshot is `JSON.stringify`.
 */

export type Labels = Record<string, string>;

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Labels;
  annotations?: Labels;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

/** metav1.ManagedFieldsEntry: one manager's fields (./managed-fields.ts), in its JSON field names. */
export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: { [k: string]: unknown };
  subresource?: string;
}

/** Any API object. Kind-specific interfaces below narrow spec/status. */
export interface KObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  spec?: unknown;
  status?: unknown;
  data?: Record<string, string>;
  [field: string]: unknown;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Labels;
  matchExpressions?: LabelSelectorRequirement[];
}

// ---------------------------------------------------------------------------------------------
// Pods

export interface ContainerPort {
  name?: string;
  containerPort: number;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  hostPort?: number;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: Record<string, unknown>;
}

export interface Probe {
  httpGet?: { path?: string; port: number | string; scheme?: string; host?: string; httpHeaders?: { name: string; value: string }[] };
  tcpSocket?: { port: number | string };
  exec?: { command: string[] };
  grpc?: { port: number; service?: string };
  /** The grace period of a kill this probe causes (liveness, startup), instead of the pod's. */
  terminationGracePeriodSeconds?: number;
  initialDelaySeconds?: number;
  periodSeconds?: number;
  timeoutSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  subPath?: string;
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  ports?: ContainerPort[];
  env?: EnvVar[];
  resources?: { limits?: Record<string, string>; requests?: Record<string, string> };
  volumeMounts?: VolumeMount[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  imagePullPolicy?: string;
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
  securityContext?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

export interface PodDNSConfig {
  nameservers?: string[];
  searches?: string[];
  options?: { name: string; value?: string }[];
}

export interface Volume {
  name: string;
  configMap?: { name: string; items?: { key: string; path: string }[]; defaultMode?: number };
  secret?: { secretName: string; defaultMode?: number };
  emptyDir?: Record<string, unknown>;
  hostPath?: { path: string; type?: string };
  persistentVolumeClaim?: { claimName: string };
  projected?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  /** Added through the pods/ephemeralcontainers subresource (`kubectl debug`); never removed. */
  ephemeralContainers?: Container[];
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  nodeName?: string;
  nodeSelector?: Labels;
  tolerations?: Toleration[];
  hostNetwork?: boolean;
  dnsPolicy?: 'ClusterFirst' | 'ClusterFirstWithHostNet' | 'Default' | 'None';
  dnsConfig?: PodDNSConfig;
  hostname?: string;
  subdomain?: string;
  serviceAccountName?: string;
  serviceAccount?: string;
  terminationGracePeriodSeconds?: number;
  schedulerName?: string;
  securityContext?: Record<string, unknown>;
  volumes?: Volume[];
  priority?: number;
  priorityClassName?: string;
  enableServiceLinks?: boolean;
  preemptionPolicy?: string;
  [field: string]: unknown;
}

export interface ContainerStateInfo {
  waiting?: { reason?: string; message?: string };
  running?: { startedAt?: string };
  terminated?: {
    exitCode: number;
    reason?: string;
    message?: string;
    startedAt?: string;
    finishedAt?: string;
    containerID?: string;
  };
}

export interface ContainerStatus {
  name: string;
  image: string;
  imageID: string;
  containerID?: string;
  ready: boolean;
  started?: boolean;
  restartCount: number;
  state: ContainerStateInfo;
  lastState: ContainerStateInfo;
}

export interface PodCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface PodStatus {
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
  conditions?: PodCondition[];
  hostIP?: string;
  hostIPs?: { ip: string }[];
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime?: string;
  qosClass?: string;
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
  ephemeralContainerStatuses?: ContainerStatus[];
  reason?: string;
  message?: string;
  nominatedNodeName?: string;
}

export interface Pod extends KObject {
  kind: 'Pod';
  spec: PodSpec;
  status?: PodStatus;
}

export interface PodTemplateSpec {
  metadata?: Partial<ObjectMeta>;
  spec: PodSpec;
}

// ---------------------------------------------------------------------------------------------
// Workloads

export interface DeploymentSpec {
  replicas?: number;
  selector: LabelSelector;
  template: PodTemplateSpec;
  strategy?: {
    type?: 'RollingUpdate' | 'Recreate';
    rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string };
  };
  revisionHistoryLimit?: number;
  progressDeadlineSeconds?: number;
  minReadySeconds?: number;
  paused?: boolean;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: {
    type: string;
    status: string;
    reason?: string;
    message?: string;
    lastUpdateTime?: string;
    lastTransitionTime?: string;
  }[];
  collisionCount?: number;
}

export interface Deployment extends KObject {
  kind: 'Deployment';
  spec: DeploymentSpec;
  status?: DeploymentStatus;
}

export interface ReplicaSet extends KObject {
  kind: 'ReplicaSet';
  spec: { replicas?: number; selector: LabelSelector; template: PodTemplateSpec; minReadySeconds?: number };
  status?: {
    replicas: number;
    fullyLabeledReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    observedGeneration?: number;
    /** ReplicaFailure while pod creates are refused (replica_set.go calculateStatus). */
    conditions?: { type: string; status: string; lastTransitionTime?: string; reason?: string; message?: string }[];
  };
}

export interface DaemonSet extends KObject {
  kind: 'DaemonSet';
  spec: {
    selector: LabelSelector;
    template: PodTemplateSpec;
    updateStrategy?: Record<string, unknown>;
    revisionHistoryLimit?: number;
  };
  status?: {
    currentNumberScheduled: number;
    numberMisscheduled: number;
    desiredNumberScheduled: number;
    numberReady: number;
    updatedNumberScheduled?: number;
    numberAvailable?: number;
    observedGeneration?: number;
  };
}

export interface StatefulSet extends KObject {
  kind: 'StatefulSet';
  spec: {
    replicas?: number;
    selector: LabelSelector;
    serviceName?: string;
    template: PodTemplateSpec;
    podManagementPolicy?: string;
    updateStrategy?: Record<string, unknown>;
    volumeClaimTemplates?: KObject[];
    revisionHistoryLimit?: number;
    /** What happens to the claims from volumeClaimTemplates when the set is deleted or scaled down. */
    persistentVolumeClaimRetentionPolicy?: { whenDeleted?: string; whenScaled?: string };
  };
  status?: {
    replicas: number;
    readyReplicas?: number;
    currentReplicas?: number;
    updatedReplicas?: number;
    availableReplicas?: number;
    observedGeneration?: number;
  };
}

export interface Job extends KObject {
  kind: 'Job';
  spec: {
    template: PodTemplateSpec;
    completions?: number;
    parallelism?: number;
    backoffLimit?: number;
    selector?: LabelSelector;
    activeDeadlineSeconds?: number;
    ttlSecondsAfterFinished?: number;
    suspend?: boolean;
    completionMode?: string;
    podReplacementPolicy?: string;
    podFailurePolicy?: PodFailurePolicy;
    /** Indexed jobs only: failures allowed per index before the index is failed. */
    backoffLimitPerIndex?: number;
    maxFailedIndexes?: number;
    successPolicy?: { rules: { succeededIndexes?: string; succeededCount?: number }[] };
    [field: string]: unknown;
  };
  status?: {
    active?: number;
    succeeded?: number;
    failed?: number;
    startTime?: string;
    completionTime?: string;
    conditions?: { type: string; status: string; lastProbeTime?: string; lastTransitionTime?: string; reason?: string; message?: string }[];
    ready?: number;
    terminating?: number;
    /** An Indexed job's succeeded indexes as intervals (`0-2,4`). */
    completedIndexes?: string;
    /** With backoffLimitPerIndex: the failed indexes, in the same form. */
    failedIndexes?: string;
  };
}

/** batch/v1 PodFailurePolicy: the first rule matching a failed pod decides what its failure means. */
export interface PodFailurePolicy {
  rules: PodFailurePolicyRule[];
}

export interface PodFailurePolicyRule {
  action: string;
  onExitCodes?: { containerName?: string; operator: string; values: number[] };
  onPodConditions?: { type: string; status?: string }[];
}

export interface CronJob extends KObject {
  kind: 'CronJob';
  spec: {
    schedule: string;
    timeZone?: string;
    startingDeadlineSeconds?: number;
    suspend?: boolean;
    concurrencyPolicy?: string;
    jobTemplate: { metadata?: Partial<ObjectMeta>; spec: Job['spec'] };
    successfulJobsHistoryLimit?: number;
    failedJobsHistoryLimit?: number;
  };
  status?: { active?: { apiVersion?: string; kind?: string; name: string; namespace: string; resourceVersion?: string; uid?: string }[]; lastScheduleTime?: string; lastSuccessfulTime?: string };
}

// ---------------------------------------------------------------------------------------------
// Services and discovery

export interface ServicePort {
  name?: string;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  port: number;
  targetPort?: number | string;
  nodePort?: number;
  appProtocol?: string;
}

export interface ServiceSpec {
  type?: 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';
  selector?: Labels;
  ports?: ServicePort[];
  clusterIP?: string;
  clusterIPs?: string[];
  externalIPs?: string[];
  externalName?: string;
  sessionAffinity?: 'None' | 'ClientIP';
  sessionAffinityConfig?: { clientIP?: { timeoutSeconds?: number } };
  externalTrafficPolicy?: 'Cluster' | 'Local';
  internalTrafficPolicy?: 'Cluster' | 'Local';
  healthCheckNodePort?: number;
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  loadBalancerIP?: string;
  loadBalancerSourceRanges?: string[];
  allocateLoadBalancerNodePorts?: boolean;
  publishNotReadyAddresses?: boolean;
  loadBalancerClass?: string;
  trafficDistribution?: string;
}

export interface Service extends KObject {
  kind: 'Service';
  spec: ServiceSpec;
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string; ipMode?: string }[] } };
}

export interface EndpointConditions {
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
}

export interface Endpoint {
  addresses: string[];
  conditions?: EndpointConditions;
  hostname?: string;
  nodeName?: string;
  zone?: string;
  targetRef?: { kind: string; namespace?: string; name: string; uid?: string };
}

export interface EndpointPort {
  name?: string;
  port?: number;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  appProtocol?: string;
}

export interface EndpointSlice extends KObject {
  kind: 'EndpointSlice';
  addressType: 'IPv4' | 'IPv6' | 'FQDN';
  endpoints: Endpoint[] | null;
  ports: EndpointPort[] | null;
}

export interface EndpointsSubset {
  addresses?: { ip: string; nodeName?: string; hostname?: string; targetRef?: Endpoint['targetRef'] }[];
  notReadyAddresses?: { ip: string; nodeName?: string; hostname?: string; targetRef?: Endpoint['targetRef'] }[];
  ports?: { name?: string; port: number; protocol?: string }[];
}

export interface Endpoints extends KObject {
  kind: 'Endpoints';
  subsets?: EndpointsSubset[];
}

// ---------------------------------------------------------------------------------------------
// Nodes and config

export interface Taint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  timeAdded?: string;
}

export interface NodeCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface Node extends KObject {
  kind: 'Node';
  spec: { podCIDR?: string; podCIDRs?: string[]; taints?: Taint[]; unschedulable?: boolean; providerID?: string };
  status?: {
    addresses?: { type: string; address: string }[];
    conditions?: NodeCondition[];
    capacity?: Record<string, string>;
    allocatable?: Record<string, string>;
    nodeInfo?: {
      kubeletVersion: string;
      kubeProxyVersion?: string;
      osImage: string;
      kernelVersion: string;
      containerRuntimeVersion: string;
      operatingSystem: string;
      architecture: string;
      machineID?: string;
      systemUUID?: string;
      bootID?: string;
    };
    daemonEndpoints?: { kubeletEndpoint: { Port: number } };
    images?: { names: string[]; sizeBytes: number }[];
  };
}

export interface ConfigMap extends KObject {
  kind: 'ConfigMap';
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
  immutable?: boolean;
}

export interface Secret extends KObject {
  kind: 'Secret';
  type?: string;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  immutable?: boolean;
}

export interface Namespace extends KObject {
  kind: 'Namespace';
  spec?: { finalizers?: string[] };
  status?: { phase: 'Active' | 'Terminating'; conditions?: NamespaceCondition[] };
}

/** The namespace controller's deletion conditions (core/v1 NamespaceCondition). */
export interface NamespaceCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface KEvent extends KObject {
  kind: 'Event';
  involvedObject: { kind: string; namespace?: string; name: string; uid?: string; apiVersion?: string; fieldPath?: string };
  reason: string;
  message: string;
  type: 'Normal' | 'Warning';
  source?: { component?: string; host?: string };
  count?: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
  eventTime?: string | null;
  reportingComponent?: string;
  reportingInstance?: string;
}

export interface NetworkPolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}

export interface NetworkPolicyPort {
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  port?: number | string;
  endPort?: number;
}

export interface NetworkPolicy extends KObject {
  kind: 'NetworkPolicy';
  spec: {
    podSelector: LabelSelector;
    policyTypes?: ('Ingress' | 'Egress')[];
    ingress?: { from?: NetworkPolicyPeer[]; ports?: NetworkPolicyPort[] }[];
    egress?: { to?: NetworkPolicyPeer[]; ports?: NetworkPolicyPort[] }[];
  };
}

export interface Ingress extends KObject {
  kind: 'Ingress';
  spec: {
    ingressClassName?: string;
    defaultBackend?: IngressBackend;
    tls?: { hosts?: string[]; secretName?: string }[];
    rules?: {
      host?: string;
      http?: { paths: { path?: string; pathType: string; backend: IngressBackend }[] };
    }[];
  };
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } };
}

export interface IngressBackend {
  service?: { name: string; port: { number?: number; name?: string } };
  resource?: { apiGroup?: string; kind: string; name: string };
}

/** Narrowing helper: the kind string says which interface applies. */
export function isKind<T extends KObject>(obj: KObject, kind: T['kind']): obj is T {
  return obj.kind === kind;
}

/** Every container of a pod, in the order the kubelet knows them: init, app, ephemeral. */
export function podContainers(pod: Pod): Container[] {
  return [...(pod.spec.initContainers ?? []), ...pod.spec.containers, ...(pod.spec.ephemeralContainers ?? [])];
}
