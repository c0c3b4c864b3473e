/**
 * The pvc-protection controller (pkg/controller/volume/pvcprotection/pvc_protection_controller.go):
 * a claim that is deleted keeps its `kubernetes.io/pvc-protection` finalizer — and so stays,
 * Terminating — while a scheduled pod uses it (podUsesPVC: `spec.nodeName` set and a volume naming
 * the claim, whatever the pod's phase: a Completed pod still holds it; a generic ephemeral volume's
 * claim `<pod>-<volume>` only until the pod is shut down). Then the finalizer is removed and the
 * claim goes. A claim that lacks the finalizer gets it (the admission plugin adds it on create;
 * this catches claims created around it).
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Pod } from '../api/types.js';
import { clone } from '../api/store.js';
import type { PersistentVolumeClaim } from '../api/storage.js';

export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';

/** podIsShutDown: deleted with grace period 0 (the kubelet is done, or it was force-deleted). */
function podIsShutDown(pod: Pod): boolean {
  return pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionGracePeriodSeconds === 0;
}

/** podUsesPVC. */
export function podUsesClaim(pod: Pod, claim: string): boolean {
  if (!pod.spec.nodeName) return false;
  return (pod.spec.volumes ?? []).some(
    (v) => v.persistentVolumeClaim?.claimName === claim || (!podIsShutDown(pod) && (v as { ephemeral?: unknown }).ephemeral !== undefined && `${pod.metadata.name}-${v.name}` === claim),
  );
}

/** The finalizers with `finalizer` taken out or put in (at the end, as the controller appends it). */
export function withFinalizer<T extends { metadata: { finalizers?: string[] } }>(obj: T, finalizer: string, present: boolean): T {
  const upd = clone(obj);
  const rest = (upd.metadata.finalizers ?? []).filter((f) => f !== finalizer);
  upd.metadata.finalizers = present ? [...rest, finalizer] : rest;
  return upd;
}

export const pvcProtectionController: Controller = {
  name: 'pvc-protection',
  runsIn: 'controllerManager',
  watches: ['PersistentVolumeClaim', 'Pod'],
  reconcile(c: Cluster): void {
    for (const pvc of c.store.list<PersistentVolumeClaim>('PersistentVolumeClaim')) {
      const has = pvc.metadata.finalizers?.includes(PVC_PROTECTION_FINALIZER) ?? false;
      if (pvc.metadata.deletionTimestamp) {
        if (!has) continue;
        const used = c.store.list<Pod>('Pod', pvc.metadata.namespace).some((p) => podUsesClaim(p, pvc.metadata.name));
        if (!used) c.write(withFinalizer(pvc, PVC_PROTECTION_FINALIZER, false));
      } else if (!has) c.write(withFinalizer(pvc, PVC_PROTECTION_FINALIZER, true));
    }
  },
};
