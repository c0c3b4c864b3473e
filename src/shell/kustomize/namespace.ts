/**
 * `namespace:` (api/filters/namespace): sets metadata/namespace on every namespaced object;
 * cluster-scoped kinds keep none.
 */
import { type Res, meta } from './types.js';

export const CLUSTER_SCOPED = new Set([
  'Namespace', 'Node', 'PersistentVolume', 'StorageClass', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition',
  'PriorityClass', 'IngressClass', 'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'APIService', 'CSIDriver',
  'CSINode', 'RuntimeClass', 'VolumeAttachment', 'ComponentStatus', 'CertificateSigningRequest', 'PodSecurityPolicy',
  'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'FlowSchema', 'PriorityLevelConfiguration',
]);

export function setNamespace(resources: Res[], namespace: string | undefined): void {
  if (!namespace) return;
  for (const r of resources) {
    if (CLUSTER_SCOPED.has(String(r.obj['kind']))) continue;
    meta(r.obj)['namespace'] = namespace;
  }
}
