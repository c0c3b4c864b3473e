/**
 * The PersistentVolume binder (k8s.io/kubernetes pkg/controller/volume/persistentvolume/
 * pv_controller.go, the static-binding half): a Pending claim binds to the smallest Available
 * volume of the same storageClassName whose access modes include the claim's and whose capacity
 * covers the request (or to the volume it names in spec.volumeName); both sides then show Bound.
 * There is no dynamic provisioner, so a claim with no matching volume stays Pending with the
 * controller's FailedBinding event.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { KObject } from '../api/types.js';
import { clone } from '../api/store.js';

interface PV extends KObject {
  spec: {
    capacity?: { storage?: string };
    accessModes?: string[];
    storageClassName?: string;
    claimRef?: { kind?: string; namespace: string; name: string; uid?: string; apiVersion?: string; resourceVersion?: string };
    persistentVolumeReclaimPolicy?: string;
    volumeMode?: string;
  };
  status?: { phase?: string; lastPhaseTransitionTime?: string };
}

interface PVC extends KObject {
  spec: {
    accessModes?: string[];
    resources?: { requests?: { storage?: string } };
    storageClassName?: string;
    volumeName?: string;
    volumeMode?: string;
  };
  status?: { phase?: string; accessModes?: string[]; capacity?: { storage?: string } };
}

const UNITS: Record<string, number> = { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, Pi: 1024 ** 5 };

/** A resource.Quantity in bytes (the subset storage sizes use: 1Gi, 500Mi, 2G, 1000). */
export function quantityBytes(q: string | undefined): number {
  const m = /^(\d+(?:\.\d+)?)([KMGTP]i?|k)?$/.exec((q ?? '').trim());
  if (!m) return Number.NaN;
  return Number(m[1]) * (UNITS[m[2] ?? ''] ?? Number.NaN);
}

function phase(o: { status?: { phase?: string } }): string | undefined {
  return o.status?.phase;
}

export const persistentVolumeController: Controller = {
  name: 'persistentvolume-binder',
  watches: ['PersistentVolume', 'PersistentVolumeClaim'],
  reconcile(c: Cluster): void {
    const ts = c.timestamp();
    // volumes with no claim are Available; volumes whose claim is gone are Released
    for (const pv of c.store.list<PV>('PersistentVolume')) {
      const ref = pv.spec.claimRef;
      const claim = ref ? c.store.get<PVC>('PersistentVolumeClaim', ref.namespace, ref.name) : undefined;
      const want = !ref ? 'Available' : claim && (!ref.uid || ref.uid === claim.metadata.uid) ? (claim.spec.volumeName === pv.metadata.name ? 'Bound' : phase(pv) ?? 'Available') : 'Released';
      if (phase(pv) !== want) {
        const upd = clone(pv);
        upd.status = { phase: want, lastPhaseTransitionTime: ts };
        c.write(upd);
      }
    }
    for (const pvc of c.store.list<PVC>('PersistentVolumeClaim')) {
      if (pvc.spec.volumeName && phase(pvc) === 'Bound') continue;
      const request = quantityBytes(pvc.spec.resources?.requests?.storage);
      const modes = pvc.spec.accessModes ?? [];
      const cls = pvc.spec.storageClassName ?? '';
      const candidates = c.store
        .list<PV>('PersistentVolume')
        .filter((pv) => {
          if (pvc.spec.volumeName) return pv.metadata.name === pvc.spec.volumeName;
          const free = !pv.spec.claimRef || (pv.spec.claimRef.namespace === pvc.metadata.namespace && pv.spec.claimRef.name === pvc.metadata.name);
          return free && phase(pv) !== 'Released' && (pv.spec.storageClassName ?? '') === cls && modes.every((m) => pv.spec.accessModes?.includes(m)) && quantityBytes(pv.spec.capacity?.storage) >= request;
        })
        .sort((a, b) => quantityBytes(a.spec.capacity?.storage) - quantityBytes(b.spec.capacity?.storage) || (a.metadata.name < b.metadata.name ? -1 : 1));
      const pv = candidates[0];
      if (!pv) {
        if (phase(pvc) !== 'Pending') {
          const upd = clone(pvc);
          upd.status = { phase: 'Pending' };
          c.write(upd);
        }
        const msg = cls ? `storageclass.storage.k8s.io "${cls}" not found` : 'no persistent volumes available for this claim and no storage class is set';
        if (!c.store.get('StorageClass', undefined, cls) || !cls)
          c.recordEvent(pvc, 'Warning', cls ? 'ProvisioningFailed' : 'FailedBinding', msg, 'persistentvolume-controller');
        continue;
      }
      const boundPV = clone(pv);
      boundPV.spec.claimRef = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', name: pvc.metadata.name, namespace: pvc.metadata.namespace ?? 'default', resourceVersion: pvc.metadata.resourceVersion ?? '', uid: pvc.metadata.uid ?? '' };
      boundPV.status = { phase: 'Bound', lastPhaseTransitionTime: ts };
      c.write(boundPV);
      const claim = clone(pvc);
      claim.spec.volumeName = pv.metadata.name;
      claim.metadata.annotations = { ...(claim.metadata.annotations ?? {}), 'pv.kubernetes.io/bind-completed': 'yes', 'pv.kubernetes.io/bound-by-controller': 'yes' };
      claim.status = { phase: 'Bound', accessModes: pv.spec.accessModes ?? [], capacity: { storage: pv.spec.capacity?.storage ?? '' } };
      c.write(claim);
    }
  },
};
