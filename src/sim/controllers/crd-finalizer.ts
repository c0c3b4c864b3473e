/**
 * The apiextensions-apiserver's CRD finalizer (pkg/controller/finalizer/crd_finalizer.go), inside
 * kube-apiserver: a deleted CustomResourceDefinition carries `customresourcecleanup.apiextensions.k8s.io`
 * (added by its registry at the DELETE, with Terminating=True InstanceDeletionPending). This
 * controller marks it InstanceDeletionInProgress, deletes every custom resource it serves (their own
 * finalizers keep what they keep), and once none is left sets InstanceDeletionCompleted and removes
 * its finalizer, which lets the CRD go. While instances remain the CRD stays, still serving them
 * (upstream polls a minute, records InstanceDeletionCheck and retries; the simulation shows the
 * in-progress condition for all of it).
 */
import type { Cluster, Controller } from '../cluster.js';
import { clone } from '../api/store.js';
import type { CustomResourceDefinition } from '../api/crd.js';
import { setCondition } from './crd-status.js';

export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

/** The kind a CRD serves, when discovery serves it from this CRD. */
function servedKind(c: Cluster, crd: CustomResourceDefinition): string | undefined {
  const kind = crd.status?.acceptedNames?.kind;
  const d = c.discovery();
  return kind && d.hasKind(kind) && d.infoForKind(kind).crd === crd.metadata.name ? kind : undefined;
}

/** The CRD registry's first DELETE: deletionTimestamp, the cleanup finalizer, Terminating=True InstanceDeletionPending. */
export function markCrdDeleted(crd: CustomResourceDefinition, now: string): CustomResourceDefinition {
  const upd = clone(crd);
  upd.metadata.deletionTimestamp ??= now;
  if (!upd.metadata.finalizers?.includes(CRD_CLEANUP_FINALIZER)) upd.metadata.finalizers = [...(upd.metadata.finalizers ?? []), CRD_CLEANUP_FINALIZER];
  upd.status = {
    ...(upd.status ?? {}),
    conditions: setCondition(upd.status?.conditions ?? [], { type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending', message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon' }, now),
  };
  return upd;
}

function terminating(c: Cluster): CustomResourceDefinition[] {
  return c.store.list<CustomResourceDefinition>('CustomResourceDefinition').filter((crd) => crd.metadata.deletionTimestamp && crd.metadata.finalizers?.includes(CRD_CLEANUP_FINALIZER));
}

function finalize(c: Cluster, crd: CustomResourceDefinition): void {
  const now = c.timestamp();
  const kind = servedKind(c, crd);
  if (kind) for (const o of [...c.store.list(kind)]) c.deleteObject(kind, o.metadata.namespace, o.metadata.name);
  const left = kind ? c.store.list(kind).length : 0;
  const upd = clone(crd);
  const conds = upd.status?.conditions ?? [];
  upd.status = {
    ...(upd.status ?? {}),
    conditions:
      left > 0
        ? setCondition(conds, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' }, now)
        : kind
          ? setCondition(conds, { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' }, now)
          : setCondition(conds, { type: 'Terminating', status: 'False', reason: 'NeverEstablished', message: 'resource was never established' }, now),
  };
  if (left === 0) upd.metadata.finalizers = (upd.metadata.finalizers ?? []).filter((f) => f !== CRD_CLEANUP_FINALIZER);
  if (JSON.stringify(upd) !== JSON.stringify(crd)) c.write(upd);
}

export const crdFinalizerController: Controller = {
  name: 'crd-finalizer',
  watches: ['CustomResourceDefinition'],
  // the instances of the CRDs being deleted: removing one's last finalizer lets the CRD go
  dynamicWatches: (c: Cluster) => terminating(c).flatMap((crd) => servedKind(c, crd) ?? []),
  // which CRDs are terminating and what they serve (discovery is made of the CRDs)
  dynamicInputs: ['CustomResourceDefinition'],
  reconcile(c: Cluster): void {
    for (const crd of terminating(c)) finalize(c, crd);
  },
};
