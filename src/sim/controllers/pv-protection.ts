/**
 * The pv-protection controller (pkg/controller/volume/pvprotection/pv_protection_controller.go):
 * a deleted volume keeps its `kubernetes.io/pv-protection` finalizer — Terminating — while its
 * phase is Bound (isBeingUsed); once its claim is gone and it is Released (or was never bound)
 * the finalizer is removed and the volume goes. A volume that lacks the finalizer gets it.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { PersistentVolume } from '../api/storage.js';
import { withFinalizer } from './pvc-protection.js';

export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

export const pvProtectionController: Controller = {
  name: 'pv-protection',
  runsIn: 'controllerManager',
  watches: ['PersistentVolume'],
  reconcile(c: Cluster): void {
    for (const pv of c.store.list<PersistentVolume>('PersistentVolume')) {
      const has = pv.metadata.finalizers?.includes(PV_PROTECTION_FINALIZER) ?? false;
      if (pv.metadata.deletionTimestamp) {
        if (has && pv.status?.phase !== 'Bound') c.write(withFinalizer(pv, PV_PROTECTION_FINALIZER, false));
      } else if (!has) c.write(withFinalizer(pv, PV_PROTECTION_FINALIZER, true));
    }
  },
};
