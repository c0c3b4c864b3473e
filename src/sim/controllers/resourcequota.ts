/**
 * The resourcequota controller (pkg/controller/resourcequota/resource_quota_controller.go):
 * keeps each ResourceQuota's status.hard equal to spec.hard and status.used equal to what the
 * namespace's objects use of every tracked name, counted by the same evaluators the admission
 * plugin charges with (sim/api/admission/resourcequota.ts). `kubectl describe quota` and
 * `kubectl get quota` read that status.
 */
import type { Cluster, Controller } from '../cluster.js';
import { clone } from '../api/store.js';
import { quotaUsage, type ResourceQuota } from '../api/admission/resourcequota.js';

export const resourceQuotaController: Controller = {
  name: 'resourcequota',
  runsIn: 'controllerManager',
  watches: ['ResourceQuota', 'Pod', 'Service', 'PersistentVolumeClaim', 'ConfigMap', 'Secret', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Ingress', 'NetworkPolicy', 'ServiceAccount', 'Role', 'RoleBinding', 'LimitRange', 'HorizontalPodAutoscaler', 'PodDisruptionBudget'],
  reconcile(c: Cluster): void {
    for (const quota of c.store.list<ResourceQuota>('ResourceQuota')) {
      const status = { hard: { ...(quota.spec.hard ?? {}) }, used: quotaUsage(c.store, quota, c.now()) };
      if (JSON.stringify(status) === JSON.stringify(quota.status)) continue;
      const upd = clone(quota);
      upd.status = status;
      c.write(upd);
    }
  },
};
