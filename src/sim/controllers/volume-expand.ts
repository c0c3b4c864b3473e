/**
 * Volume expansion, as three components do it in turn:
 *  - kube-controller-manager's expand controller (kubernetes v1.35 pkg/controller/volume/expand/
 *    expand_controller.go syncHandler): a claim whose request grew past its capacity and whose
 *    volume no in-tree plugin expands is left to an external resizer, with the Normal event
 *    `ExternalExpanding` "waiting for an external controller to expand this PVC" from
 *    `volume_expand`;
 *  - the CSI external-resizer (kubernetes-csi/external-resizer pkg/controller/controller.go
 *    resizePVC, resize_status.go): markControllerResizeInProgress (condition `Resizing`,
 *    allocatedResources = the request, allocatedResourceStatuses storage =
 *    ControllerResizeInProgress), the `Resizing` event "External resizer is resizing volume PV",
 *    the volume grows (the PV's capacity), then for a filesystem volume markForPendingNodeExpansion
 *    (condition `FileSystemResizePending` "Waiting for user to (re-)start a pod to finish file
 *    system resize of volume on node.", status NodeResizePending, event `FileSystemResizeRequired`)
 *    or, for a block volume, markOverallExpansionAsFinished (capacity = the new size, event
 *    `VolumeResizeSuccessful` "Resize volume succeeded"); its events come from
 *    `external-resizer <driver>`;
 *  - the kubelet (pkg/volume/util/operationexecutor operation_generator.go
 *    GenerateExpandInUseVolumeFunc, resize_util.go MarkNodeExpansionFinishedWithRecovery): a
 *    running pod that mounts the claim on its node finishes the resize online: the event
 *    `FileSystemResizeSuccessful` "MountVolume.NodeExpandVolume succeeded for volume "PV" NODE" on
 *    the pod and the claim, the claim's capacity becomes the new size, its resize conditions and
 *    its storage status go, allocatedResources stays. Without such a pod the condition stays until
 *    one starts.
 * Resize conditions merge as util.MergeResizeConditionsOfPVC does: other conditions stay, a resize
 * condition of the new set keeps its old time when its status is the same, an old resize
 * condition not in the new set goes.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Pod } from '../api/types.js';
import { clone } from '../api/store.js';
import { PROVISIONED_BY_ANNOTATION, classOfClaim, quantityBytes, type PersistentVolume, type PersistentVolumeClaim, type PvcCondition } from '../api/storage.js';

const RESIZER = 'external-resizer';
const RESIZING = 'Resizing';
const PENDING = 'FileSystemResizePending';
const RESIZE_CONDITIONS = new Set([RESIZING, PENDING]);

function mountingPod(c: Cluster, pvc: PersistentVolumeClaim): Pod | undefined {
  return c.store
    .list<Pod>('Pod', pvc.metadata.namespace)
    .find((p) => p.status?.phase === 'Running' && !p.metadata.deletionTimestamp && (p.spec.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === pvc.metadata.name));
}

/** external-resizer pkg/util MergeResizeConditionsOfPVC. */
export function mergeResizeConditions(old: readonly PvcCondition[], fresh: readonly PvcCondition[]): PvcCondition[] {
  const byType = new Map(fresh.map((x) => [x.type, x]));
  const out: PvcCondition[] = [];
  for (const cond of old) {
    if (!RESIZE_CONDITIONS.has(cond.type)) {
      out.push(cond);
      continue;
    }
    const next = byType.get(cond.type);
    if (!next) continue;
    out.push(next.status === cond.status && cond.lastTransitionTime ? { ...next, lastTransitionTime: cond.lastTransitionTime } : next);
    byType.delete(cond.type);
  }
  return [...out, ...byType.values()];
}

/** The claim with new resize conditions and storage resize status (undefined: the status goes). */
function withResizeState(pvc: PersistentVolumeClaim, conditions: PvcCondition[], storageStatus: string | undefined, extra: Partial<NonNullable<PersistentVolumeClaim['status']>> = {}): PersistentVolumeClaim {
  const upd = clone(pvc);
  const status = { ...(upd.status ?? {}), ...extra };
  const merged = mergeResizeConditions(status.conditions ?? [], conditions);
  if (merged.length > 0) status.conditions = merged;
  else delete status.conditions;
  const statuses = { ...(status.allocatedResourceStatuses ?? {}) };
  if (storageStatus) statuses['storage'] = storageStatus;
  else delete statuses['storage'];
  if (Object.keys(statuses).length > 0) status.allocatedResourceStatuses = statuses;
  else delete status.allocatedResourceStatuses;
  upd.status = status;
  return upd;
}

/** Write the claim's new status and go on from what was stored. */
function writeClaim(c: Cluster, pvc: PersistentVolumeClaim): PersistentVolumeClaim {
  c.write(pvc);
  return c.store.get<PersistentVolumeClaim>('PersistentVolumeClaim', pvc.metadata.namespace, pvc.metadata.name) ?? pvc;
}

function resize(c: Cluster, pvc: PersistentVolumeClaim): void {
  const want = pvc.spec.resources?.requests?.storage ?? '';
  const pv = c.store.get<PersistentVolume>('PersistentVolume', undefined, pvc.spec.volumeName ?? '');
  if (!pv) return;
  const provisioner = pv.metadata.annotations?.[PROVISIONED_BY_ANNOTATION] ?? '';
  const resizer = `${RESIZER} ${provisioner}`;
  if (quantityBytes(pv.spec.capacity?.storage) < quantityBytes(want)) {
    c.recordEvent(pvc, 'Normal', 'ExternalExpanding', 'waiting for an external controller to expand this PVC', 'volume_expand');
    const ts = c.timestamp();
    pvc = writeClaim(c, withResizeState(pvc, [{ type: RESIZING, status: 'True', lastProbeTime: null, lastTransitionTime: ts }], 'ControllerResizeInProgress', { allocatedResources: { storage: want } }));
    c.recordEvent(pvc, 'Normal', 'Resizing', `External resizer is resizing volume ${pv.metadata.name}`, resizer);
    const grown = clone(pv);
    grown.spec.capacity = { ...(grown.spec.capacity ?? {}), storage: want };
    c.write(grown);
    if (pvc.spec.volumeMode === 'Block') {
      // the driver needs no node expansion of a raw block device: the resize is over
      pvc = writeClaim(c, withResizeState(pvc, [], undefined, { capacity: { ...(pvc.status?.capacity ?? {}), storage: want } }));
      c.recordEvent(pvc, 'Normal', 'VolumeResizeSuccessful', 'Resize volume succeeded', resizer);
      return;
    }
    const pending: PvcCondition = { type: PENDING, status: 'True', lastProbeTime: null, lastTransitionTime: ts, message: 'Waiting for user to (re-)start a pod to finish file system resize of volume on node.' };
    pvc = writeClaim(c, withResizeState(pvc, [pending], 'NodeResizePending'));
    c.recordEvent(pvc, 'Normal', 'FileSystemResizeRequired', 'Require file system resize of volume on node', resizer);
  }
  const pod = mountingPod(c, pvc);
  if (!pod || !pod.spec.nodeName) return;
  const msg = `MountVolume.NodeExpandVolume succeeded for volume "${pv.metadata.name}" ${pod.spec.nodeName}`;
  c.recordEvent(pod, 'Normal', 'FileSystemResizeSuccessful', msg, 'kubelet', pod.spec.nodeName);
  c.recordEvent(pvc, 'Normal', 'FileSystemResizeSuccessful', msg, 'kubelet', pod.spec.nodeName);
  writeClaim(c, withResizeState(pvc, [], undefined, { capacity: { ...(pvc.status?.capacity ?? {}), storage: want } }));
}

export const volumeExpandController: Controller = {
  name: 'volume-expand',
  runsIn: 'controllerManager',
  watches: ['PersistentVolumeClaim', 'Pod'],
  reconcile(c: Cluster): void {
    for (const pvc of c.store.list<PersistentVolumeClaim>('PersistentVolumeClaim')) {
      if (pvc.status?.phase !== 'Bound' || !pvc.spec.volumeName) continue;
      const want = quantityBytes(pvc.spec.resources?.requests?.storage);
      if (!(want > quantityBytes(pvc.status.capacity?.storage))) continue;
      if (classOfClaim(c.store, pvc)?.allowVolumeExpansion !== true) continue;
      resize(c, clone(pvc));
    }
  },
};
