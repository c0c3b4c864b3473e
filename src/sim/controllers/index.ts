/**
 * The ordered controller registry. Order matters only for how quickly a change settles, not for
 * the result: the runner loops until no controller has anything left to do.
 */
import type { Controller } from '../cluster.js';
import { staticPodsController } from './static-pods.js';
import { namespaceController } from './namespace.js';
import { nodeIpamController } from './node-ipam.js';
import { nodeStatusController } from './node-status.js';
import { deploymentController } from './deployment.js';
import { replicaSetController } from './replicaset.js';
import { daemonSetController } from './daemonset.js';
import { statefulSetController } from './statefulset.js';
import { jobController } from './job.js';
import { cronJobController } from './cronjob.js';
import { ttlAfterFinishedController } from './ttl-after-finished.js';
import { schedulerController } from './scheduler.js';
import { kubeletController } from './kubelet.js';
import { cniInstallController } from './cni-install.js';
import { endpointSliceController } from './endpointslice.js';
import { endpointsController } from './endpoints.js';
import { garbageCollector } from './garbage-collector.js';
import { persistentVolumeController } from './persistentvolume.js';
import { pvcProtectionController } from './pvc-protection.js';
import { pvProtectionController } from './pv-protection.js';
import { localPathProvisionerController } from './local-path-provisioner.js';
import { volumeExpandController } from './volume-expand.js';
import { apiServiceAvailabilityController } from './apiservice-availability.js';
import { hpaController } from './hpa.js';
import { kubeProxyController } from './kube-proxy.js';
import { corednsController } from './coredns.js';
import { taintEvictionController } from './taint-eviction.js';
import { csrSigningController } from './csr-signing.js';
import { resourceQuotaController } from './resourcequota.js';
import { disruptionController } from './disruption.js';
import { gatewayController } from './gateway.js';
import { crdStatusController } from './crd-status.js';
import { crdFinalizerController } from './crd-finalizer.js';
import { apfConfigController } from './apf-config.js';
import { apfBootstrapController } from './apf-bootstrap.js';
import { ipAllocatorRepairController } from './ipallocator-repair.js';

export const CONTROLLERS: readonly Controller[] = [
  staticPodsController,
  crdStatusController,
  crdFinalizerController,
  apfBootstrapController,
  apfConfigController,
  namespaceController,
  nodeIpamController,
  nodeStatusController,
  taintEvictionController,
  deploymentController,
  replicaSetController,
  resourceQuotaController,
  daemonSetController,
  statefulSetController,
  jobController,
  cronJobController,
  ttlAfterFinishedController,
  persistentVolumeController,
  pvcProtectionController,
  pvProtectionController,
  schedulerController,
  kubeletController,
  cniInstallController,
  localPathProvisionerController,
  volumeExpandController,
  apiServiceAvailabilityController,
  hpaController,
  endpointSliceController,
  endpointsController,
  garbageCollector,
  disruptionController,
  kubeProxyController,
  corednsController,
  csrSigningController,
  gatewayController,
  ipAllocatorRepairController,
];
