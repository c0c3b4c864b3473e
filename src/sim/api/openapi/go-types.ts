/**
 * What the OpenAPI text leaves out and the decoder's errors need: the Go type behind a field
 * (k8s.io/api <group>/v1/types.go). encoding/json names it in `cannot unmarshal X into Go struct
 * field S.f of type T`: integers are int32 unless listed as int64 here, and string enums are
 * named types (`v1.PullPolicy`). Keyed by `<Struct>.<jsonField>`.
 */
export const GO_TYPES: Readonly<Record<string, string>> = {
  // int64 fields (every other integer is int32)
  'PodSpec.activeDeadlineSeconds': 'int64',
  'PodSpec.terminationGracePeriodSeconds': 'int64',
  'Probe.terminationGracePeriodSeconds': 'int64',
  'Toleration.tolerationSeconds': 'int64',
  'ObjectMeta.generation': 'int64',
  'ObjectMeta.deletionGracePeriodSeconds': 'int64',
  'JobSpec.activeDeadlineSeconds': 'int64',
  'CronJobSpec.startingDeadlineSeconds': 'int64',
  // named types
  'ObjectMeta.uid': 'types.UID',
  'OwnerReference.uid': 'types.UID',
  'Container.imagePullPolicy': 'v1.PullPolicy',
  'Container.terminationMessagePolicy': 'v1.TerminationMessagePolicy',
  'Container.restartPolicy': 'v1.ContainerRestartPolicy',
  'ContainerPort.protocol': 'v1.Protocol',
  'ServicePort.protocol': 'v1.Protocol',
  'NetworkPolicyPort.protocol': 'v1.Protocol',
  'EndpointPort.protocol': 'v1.Protocol',
  'PodSpec.restartPolicy': 'v1.RestartPolicy',
  'PodSpec.dnsPolicy': 'v1.DNSPolicy',
  'PodSpec.preemptionPolicy': 'v1.PreemptionPolicy',
  'ResourceRequirements.limits': 'v1.ResourceList',
  'ResourceRequirements.requests': 'v1.ResourceList',
  'ServiceSpec.type': 'v1.ServiceType',
  'ServiceSpec.sessionAffinity': 'v1.ServiceAffinity',
  'ServiceSpec.externalTrafficPolicy': 'v1.ServiceExternalTrafficPolicy',
  'ServiceSpec.internalTrafficPolicy': 'v1.ServiceInternalTrafficPolicy',
  'ServiceSpec.ipFamilies': '[]v1.IPFamily',
  'ServiceSpec.ipFamilyPolicy': 'v1.IPFamilyPolicy',
  'Toleration.operator': 'v1.TolerationOperator',
  'Toleration.effect': 'v1.TaintEffect',
  'Taint.effect': 'v1.TaintEffect',
  'DeploymentStrategy.type': 'v1.DeploymentStrategyType',
  'DaemonSetUpdateStrategy.type': 'v1.DaemonSetUpdateStrategyType',
  'StatefulSetUpdateStrategy.type': 'v1.StatefulSetUpdateStrategyType',
  'StatefulSetSpec.podManagementPolicy': 'v1.PodManagementPolicyType',
  'HTTPGetAction.scheme': 'v1.URIScheme',
  'HostPathVolumeSource.type': 'v1.HostPathType',
  'EmptyDirVolumeSource.medium': 'v1.StorageMedium',
  'NetworkPolicySpec.policyTypes': '[]v1.PolicyType',
  'HTTPIngressPath.pathType': 'v1.PathType',
  'LabelSelectorRequirement.operator': 'v1.LabelSelectorOperator',
  'EndpointSlice.addressType': 'v1.AddressType',
  'CronJobSpec.concurrencyPolicy': 'v1.ConcurrencyPolicy',
  'JobSpec.completionMode': 'v1.CompletionMode',
  'JobSpec.podReplacementPolicy': 'v1.PodReplacementPolicy',
  'Secret.type': 'v1.SecretType',
  'Secret.data': 'map[string][]uint8',
  'ConfigMap.binaryData': 'map[string][]uint8',
  'NamespaceSpec.finalizers': '[]v1.FinalizerName',
  'ManagedFieldsEntry.operation': 'v1.ManagedFieldsOperationType',
};

/** Map fields whose values are `[]byte` (base64 text in JSON). */
export const BYTES_MAPS: ReadonlySet<string> = new Set(['Secret.data', 'ConfigMap.binaryData']);
