/**
 * Registry of server-side table printers, one file per kind (printers.go AddHandlers). The map is
 * typed by `PrintedKind`, so adding a kind to the union without a printer fails to compile.
 * Kinds outside it get the apiserver default table (built-in) or the CRD default table.
 */
import { apiservices } from './apiservices.js';
import { configmaps } from './configmaps.js';
import { controllerrevisions } from './controllerrevisions.js';
import { cronjobs } from './cronjobs.js';
import { daemonsets } from './daemonsets.js';
import { customResourceTable, defaultTable } from './defaulttable.js';
import { deployments } from './deployments.js';
import { endpoints } from './endpoints.js';
import { endpointslices } from './endpointslices.js';
import { events } from './events.js';
import { horizontalpodautoscalers } from './horizontalpodautoscalers.js';
import { ingressclasses } from './ingressclasses.js';
import { gatewayclasses } from './gatewayclasses.js';
import { gateways } from './gateways.js';
import { httproutes } from './httproutes.js';
import { ingresses } from './ingresses.js';
import { jobs } from './jobs.js';
import { leases } from './leases.js';
import { namespaces } from './namespaces.js';
import { networkpolicies } from './networkpolicies.js';
import { nodes } from './nodes.js';
import { persistentvolumeclaims } from './persistentvolumeclaims.js';
import { persistentvolumes } from './persistentvolumes.js';
import { pods } from './pods.js';
import { replicasets } from './replicasets.js';
import { resourcequotas } from './resourcequotas.js';
import { poddisruptionbudgets } from './poddisruptionbudgets.js';
import { rolebindings } from './rolebindings.js';
import { secrets } from './secrets.js';
import { serviceaccounts } from './serviceaccounts.js';
import { certificatesigningrequests } from './certificatesigningrequests.js';
import { services } from './services.js';
import { servicecidrs } from './servicecidrs.js';
import { ipaddresses } from './ipaddresses.js';
import { podtemplates } from './podtemplates.js';
import { scales } from './scales.js';
import { statefulsets } from './statefulsets.js';
import { storageclasses } from './storageclasses.js';
import { priorityclasses } from './priorityclasses.js';
import { componentstatuses } from './componentstatuses.js';
import { flowschemas } from './flowschemas.js';
import { prioritylevelconfigurations } from './prioritylevelconfigurations.js';
import { runtimeclasses } from './runtimeclasses.js';
import { csinodes } from './csinodes.js';
import { csidrivers } from './csidrivers.js';
import { webhookconfigurations } from './webhookconfigurations.js';
import { validatingadmissionpolicies } from './validatingadmissionpolicies.js';
import { validatingadmissionpolicybindings } from './validatingadmissionpolicybindings.js';
import { volumeattachments } from './volumeattachments.js';
import { volumeattributesclasses } from './volumeattributesclasses.js';
import type { KindPrinter } from './types.js';

export type { Column, KindPrinter } from './types.js';

export type PrintedKind =
  | 'Pod'
  | 'Service'
  | 'Endpoints'
  | 'EndpointSlice'
  | 'Deployment'
  | 'ReplicaSet'
  | 'DaemonSet'
  | 'StatefulSet'
  | 'Job'
  | 'CronJob'
  | 'Node'
  | 'Namespace'
  | 'ConfigMap'
  | 'Secret'
  | 'ServiceAccount'
  | 'Ingress'
  | 'IngressClass'
  | 'NetworkPolicy'
  | 'Event'
  | 'PersistentVolume'
  | 'PersistentVolumeClaim'
  | 'StorageClass'
  | 'PriorityClass'
  | 'FlowSchema'
  | 'PriorityLevelConfiguration'
  | 'ComponentStatus'
  | 'RoleBinding'
  | 'ClusterRoleBinding'
  | 'Lease'
  | 'ControllerRevision'
  | 'ServiceCIDR'
  | 'IPAddress'
  | 'PodTemplate'
  | 'Scale'
  | 'HorizontalPodAutoscaler'
  | 'APIService'
  | 'CertificateSigningRequest'
  | 'ResourceQuota'
  | 'PodDisruptionBudget'
  | 'GatewayClass'
  | 'Gateway'
  | 'HTTPRoute'
  | 'RuntimeClass'
  | 'CSINode'
  | 'CSIDriver'
  | 'MutatingWebhookConfiguration'
  | 'ValidatingWebhookConfiguration'
  | 'ValidatingAdmissionPolicy'
  | 'ValidatingAdmissionPolicyBinding'
  | 'VolumeAttachment'
  | 'VolumeAttributesClass';

export const PRINTERS: { readonly [K in PrintedKind]: KindPrinter } = {
  Pod: pods,
  Service: services,
  Endpoints: endpoints,
  EndpointSlice: endpointslices,
  Deployment: deployments,
  ReplicaSet: replicasets,
  DaemonSet: daemonsets,
  StatefulSet: statefulsets,
  Job: jobs,
  CronJob: cronjobs,
  Node: nodes,
  Namespace: namespaces,
  ConfigMap: configmaps,
  Secret: secrets,
  ServiceAccount: serviceaccounts,
  Ingress: ingresses,
  IngressClass: ingressclasses,
  NetworkPolicy: networkpolicies,
  ServiceCIDR: servicecidrs,
  IPAddress: ipaddresses,
  PodTemplate: podtemplates,
  Scale: scales,
  Event: events,
  PersistentVolume: persistentvolumes,
  PersistentVolumeClaim: persistentvolumeclaims,
  StorageClass: storageclasses,
  PriorityClass: priorityclasses,
  FlowSchema: flowschemas,
  PriorityLevelConfiguration: prioritylevelconfigurations,
  ComponentStatus: componentstatuses,
  RoleBinding: rolebindings,
  ClusterRoleBinding: rolebindings,
  Lease: leases,
  ControllerRevision: controllerrevisions,
  HorizontalPodAutoscaler: horizontalpodautoscalers,
  APIService: apiservices,
  CertificateSigningRequest: certificatesigningrequests,
  ResourceQuota: resourcequotas,
  PodDisruptionBudget: poddisruptionbudgets,
  GatewayClass: gatewayclasses,
  Gateway: gateways,
  HTTPRoute: httproutes,
  RuntimeClass: runtimeclasses,
  CSINode: csinodes,
  CSIDriver: csidrivers,
  MutatingWebhookConfiguration: webhookconfigurations,
  ValidatingWebhookConfiguration: webhookconfigurations,
  ValidatingAdmissionPolicy: validatingadmissionpolicies,
  ValidatingAdmissionPolicyBinding: validatingadmissionpolicybindings,
  VolumeAttachment: volumeattachments,
  VolumeAttributesClass: volumeattributesclasses,
};

function isPrintedKind(kind: string): kind is PrintedKind {
  return Object.prototype.hasOwnProperty.call(PRINTERS, kind);
}

/** Built-in API groups: the core group, unqualified groups (`apps`, `batch`) and `*.k8s.io`. */
export function isBuiltinGroup(group: string): boolean {
  return group === '' || !group.includes('.') || group.endsWith('.k8s.io');
}

/** The table printer for a kind; `group` decides between the two default tables. */
export function printerFor(kind: string, group: string): KindPrinter {
  if (isPrintedKind(kind)) return PRINTERS[kind];
  // custom resources served from CRDs in a *.k8s.io group (ReferenceGrant) still get the CRD table
  if (group === 'gateway.networking.k8s.io') return customResourceTable;
  return isBuiltinGroup(group) ? defaultTable : customResourceTable;
}
