/**
 * The PersistentVolume controller (k8s.io/kubernetes pkg/controller/volume/persistentvolume/
 * pv_controller.go):
 *
 * - volume phases: Available (no claimRef), Bound, Released (its claim is gone; claimRef kept);
 * - static binding: a Pending claim binds to the smallest Available volume of the same
 *   storageClassName whose access modes include the claim's, whose capacity covers the request
 *   and whose labels match the claim's selector (or to the volume it names in spec.volumeName);
 * - delayed binding: a claim of a WaitForFirstConsumer class waits (`WaitForFirstConsumer`
 *   event) until a pod that uses it has a node; that node is recorded in the claim's
 *   `volume.kubernetes.io/selected-node` annotation (the scheduler's VolumeBinding plugin does
 *   this upstream, at the pod's binding) and the volume is bound or provisioned there;
 * - dynamic provisioning: a claim with a class and no matching volume is annotated with the
 *   class's provisioner and left to the external provisioner (`ExternalProvisioning` event);
 *   an external provisioner's volume is deleted by that provisioner, not here;
 * - reclaim: a Released volume with policy Delete is deleted when its plugin can (hostPath only
 *   under /tmp), else it goes Failed with the deleter's error, as the hostPath plugin reports.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { KEvent, Node, Pod } from '../api/types.js';
import { parseTime } from '../../util/clock.js';
import { clone } from '../api/store.js';
import {
  BETA_STORAGE_PROVISIONER_ANNOTATION,
  PROVISIONED_BY_ANNOTATION,
  SELECTED_NODE_ANNOTATION,
  STORAGE_PROVISIONER_ANNOTATION,
  classOfClaim,
  pvMatchesClaim,
  quantityBytes,
  type PersistentVolume as PV,
  type PersistentVolumeClaim as PVC,
} from '../api/storage.js';

export { quantityBytes } from '../api/storage.js';

const COMPONENT = 'persistentvolume-controller';

/** The controller's resync period: a claim that stays unbound repeats its event this often. */
const RESYNC_MS = 15_000;

/**
 * An event the controller repeats on every resync while the condition lasts: recorded at once,
 * then again (the recorder's count++) once a resync period has passed since the last one.
 */
function resyncEvent(c: Cluster, obj: PVC | PV, type: 'Normal' | 'Warning', reason: string, message: string): void {
  const last = c.store
    .list<KEvent>('Event', obj.metadata.namespace ?? 'default')
    .find((e) => e.involvedObject.uid === obj.metadata.uid && e.reason === reason && e.message === message);
  const now = c.now();
  if (!last || now - parseTime(last.lastTimestamp) >= RESYNC_MS) c.recordEvent(obj, type, reason, message, COMPONENT);
  c.wakeAt((Math.floor(now / RESYNC_MS) + 1) * RESYNC_MS);
}

function phase(o: { status?: { phase?: string } }): string | undefined {
  return o.status?.phase;
}

/** The pods that use a claim (by volume), scheduled ones first. */
function consumers(c: Cluster, pvc: PVC): Pod[] {
  return c.store
    .list<Pod>('Pod', pvc.metadata.namespace)
    .filter((p) => !p.metadata.deletionTimestamp && (p.spec.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === pvc.metadata.name));
}

function setPVPhase(c: Cluster, pv: PV, want: string, message?: string): void {
  if (phase(pv) === want && (pv.status?.message ?? undefined) === message) return;
  const upd = clone(pv);
  upd.status = { phase: want, ...(message ? { message } : {}), lastPhaseTransitionTime: c.timestamp() };
  c.write(upd);
}

/** Deleting a Released volume whose policy is Delete (in-tree plugins; external ones delete their own). */
function reclaimDelete(c: Cluster, pv: PV): void {
  if (pv.metadata.annotations?.[PROVISIONED_BY_ANNOTATION]) return;
  const path = pv.spec.hostPath?.path;
  if (path !== undefined && /^\/tmp\/.+/.test(path)) {
    c.deleteObject('PersistentVolume', undefined, pv.metadata.name);
    return;
  }
  const msg =
    path !== undefined
      ? `host_path deleter only supports /tmp/.+ but received provided ${path}`
      : `error getting deleter volume plugin for volume "${pv.metadata.name}": no deletable volume plugin matched`;
  if (phase(pv) !== 'Failed') {
    setPVPhase(c, pv, 'Failed', msg);
    c.recordEvent(pv, 'Warning', 'VolumeFailedDelete', msg, COMPONENT);
  }
}

function syncVolumes(c: Cluster): void {
  for (const pv of c.store.list<PV>('PersistentVolume')) {
    const ref = pv.spec.claimRef;
    const claim = ref ? c.store.get<PVC>('PersistentVolumeClaim', ref.namespace, ref.name) : undefined;
    const claimGone = ref && (!claim || (ref.uid && claim.metadata.uid && ref.uid !== claim.metadata.uid));
    // syncVolume: a claimRef without uid reserves the volume for that claim (pre-binding, e.g. an
    // admin pointing a Released volume at a new claim); it is Available until the claim binds
    if (!ref || !ref.uid) setPVPhase(c, pv, 'Available');
    else if (claimGone) {
      if (phase(pv) !== 'Released' && phase(pv) !== 'Failed') setPVPhase(c, pv, 'Released');
      if ((pv.spec.persistentVolumeReclaimPolicy ?? 'Retain') === 'Delete') reclaimDelete(c, c.store.get<PV>('PersistentVolume', undefined, pv.metadata.name) ?? pv);
    } else if (claim && claim.spec.volumeName === pv.metadata.name) setPVPhase(c, pv, 'Bound');
  }
}

function matches(pvc: PVC, pv: PV, node: string | undefined, c: Cluster): boolean {
  const n = node !== undefined ? c.store.get<Node>('Node', undefined, node) : undefined;
  return pvMatchesClaim(pvc, pv, n);
}

function bindClaim(c: Cluster, pvc: PVC, pv: PV): void {
  const ts = c.timestamp();
  const boundPV = clone(pv);
  boundPV.spec.claimRef = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', name: pvc.metadata.name, namespace: pvc.metadata.namespace ?? 'default', resourceVersion: pvc.metadata.resourceVersion ?? '', uid: pvc.metadata.uid ?? '' };
  if (!pv.spec.claimRef) boundPV.metadata.annotations = { ...(boundPV.metadata.annotations ?? {}), 'pv.kubernetes.io/bound-by-controller': 'yes' };
  boundPV.status = { phase: 'Bound', lastPhaseTransitionTime: ts };
  c.write(boundPV);
  const claim = clone(pvc);
  claim.spec.volumeName = pv.metadata.name;
  claim.metadata.annotations = {
    ...(claim.metadata.annotations ?? {}),
    'pv.kubernetes.io/bind-completed': 'yes',
    ...(pvc.spec.volumeName ? {} : { 'pv.kubernetes.io/bound-by-controller': 'yes' }),
  };
  claim.status = { ...(claim.status ?? {}), phase: 'Bound', accessModes: pv.spec.accessModes ?? [], capacity: { storage: pv.spec.capacity?.storage ?? '' } };
  c.write(claim);
}

function syncClaim(c: Cluster, pvc: PVC): void {
  if (pvc.spec.volumeName && phase(pvc) === 'Bound') {
    if (!c.store.get('PersistentVolume', undefined, pvc.spec.volumeName)) {
      const upd = clone(pvc);
      upd.status = { ...(upd.status ?? {}), phase: 'Lost' };
      c.write(upd);
      c.recordEvent(pvc, 'Warning', 'ClaimLost', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!', COMPONENT);
    }
    return;
  }
  if (phase(pvc) === 'Lost') return;
  const cls = pvc.spec.storageClassName ?? '';
  const sc = classOfClaim(c.store, pvc);
  const delayed = sc?.volumeBindingMode === 'WaitForFirstConsumer' && !pvc.spec.volumeName;
  let node = pvc.metadata.annotations?.[SELECTED_NODE_ANNOTATION];
  if (delayed && !node) {
    // the scheduler's choice for the first pod that uses the claim
    const scheduled = consumers(c, pvc).find((p) => p.spec.nodeName);
    if (scheduled) {
      node = scheduled.spec.nodeName!;
      const upd = clone(pvc);
      upd.metadata.annotations = { ...(upd.metadata.annotations ?? {}), [SELECTED_NODE_ANNOTATION]: node };
      c.write(upd);
      pvc = upd;
    }
  }
  if (phase(pvc) !== 'Pending') {
    const upd = clone(pvc);
    upd.status = { ...(upd.status ?? {}), phase: 'Pending' };
    c.write(upd);
    pvc = upd;
  }
  if (delayed && !node) {
    resyncEvent(c, pvc, 'Normal', 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding');
    return;
  }
  const candidates = c.store
    .list<PV>('PersistentVolume')
    .filter((pv) => matches(pvc, pv, delayed ? node : undefined, c))
    .sort((a, b) => quantityBytes(a.spec.capacity?.storage) - quantityBytes(b.spec.capacity?.storage) || (a.metadata.name < b.metadata.name ? -1 : 1));
  const pv = candidates[0];
  if (pv) {
    bindClaim(c, pvc, pv);
    return;
  }
  if (pvc.spec.volumeName) return; // waits for the named volume to appear
  if (!cls) {
    resyncEvent(c, pvc, 'Normal', 'FailedBinding', 'no persistent volumes available for this claim and no storage class is set');
    return;
  }
  if (!sc) {
    resyncEvent(c, pvc, 'Warning', 'ProvisioningFailed', `storageclass.storage.k8s.io "${cls}" not found`);
    return;
  }
  if (sc.provisioner === 'kubernetes.io/no-provisioner') {
    resyncEvent(c, pvc, 'Normal', 'FailedBinding', 'no persistent volumes available for this claim');
    return;
  }
  // provisionClaim: hand the claim to the external provisioner named by the class
  if (pvc.metadata.annotations?.[STORAGE_PROVISIONER_ANNOTATION] !== sc.provisioner) {
    const upd = clone(pvc);
    upd.metadata.annotations = { ...(upd.metadata.annotations ?? {}), [BETA_STORAGE_PROVISIONER_ANNOTATION]: sc.provisioner, [STORAGE_PROVISIONER_ANNOTATION]: sc.provisioner };
    c.write(upd);
    pvc = upd;
  }
  resyncEvent(
    c,
    pvc,
    'Normal',
    'ExternalProvisioning',
    `Waiting for a volume to be created either by the external provisioner '${sc.provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that your external provisioner is running and correctly registered.`,
  );
}

export const persistentVolumeController: Controller = {
  name: 'persistentvolume-binder',
  runsIn: 'controllerManager',
  watches: ['PersistentVolume', 'PersistentVolumeClaim', 'StorageClass', 'Pod', 'time'],
  reconcile(c: Cluster): void {
    syncVolumes(c);
    for (const pvc of c.store.list<PVC>('PersistentVolumeClaim')) syncClaim(c, pvc);
    syncVolumes(c);
  },
};
