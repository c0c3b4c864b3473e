/**
 * Volume expansion, as three components do it in turn:
 *  - kube-controller-manager's expand controller (kubernetes v1.35 pkg/controller/volume/expand/
 *    expand_controller.go syncHandler): a claim whose request grew past its capacity (the PVC
 *    informer's UpdateFunc enqueues it when the request or the capacity grows) and whose volume
 *    no plugin of the controller expands (cmd/kube-controller-manager/app/plugins.go
 *    ProbeExpandableVolumePlugins: legacy cloud providers and fc only, so a hostPath or CSI
 *    volume matches none and pkg/volume/plugins.go FindExpandablePluginBySpec returns "no volume
 *    plugin matched") is left to an external resizer, with the Warning event (the error makes it
 *    one) `ExternalExpanding` "waiting for an external controller to expand this PVC" from
 *    `volume_expand`, once per larger request;
 *  - the CSI external-resizer (kubernetes-csi/external-resizer pkg/controller/controller.go
 *    resizePVC, resize_status.go), only for a CSI volume (spec.csi.driver) of a driver installed
 *    in the cluster (a CSIDriver object of that name stands for the driver's controller with its
 *    csi-resizer sidecar): markControllerResizeInProgress (condition `Resizing`,
 *    allocatedResources = the request, allocatedResourceStatuses storage =
 *    ControllerResizeInProgress), the `Resizing` event "External resizer is resizing volume PV",
 *    the volume grows (the PV's capacity), then for a filesystem volume markForPendingNodeExpansion
 *    (condition `FileSystemResizePending` "Waiting for user to (re-)start a pod to finish file
 *    system resize of volume on node.", status NodeResizePending, event `FileSystemResizeRequired`)
 *    or, for a block volume, markOverallExpansionAsFinished (capacity = the new size, event
 *    `VolumeResizeSuccessful` "Resize volume succeeded"); its events come from
 *    `external-resizer <driver>`. Nothing resizes any other volume: rancher.io/local-path has no
 *    resizer (its hostPath volumes are no CSI volumes), so its claim keeps the larger request, the
 *    old capacity, no resize condition and the ExternalExpanding event;
 *  - the kubelet (pkg/kubelet/volumemanager: the desired-state populator's processPodVolumes
 *    skips a pod already processed until the pod worker's sync calls ReprocessPod through
 *    WaitForAttachAndMount; checkVolumeFSResize then records the PV's new size and the
 *    reconciler runs operation_generator.go GenerateExpandInUseVolumeFunc, resize_util.go
 *    MarkNodeExpansionFinishedWithRecovery): a running pod that mounts the claim finishes the
 *    resize online at its next periodic sync (pod_workers.go requeues a synced pod after
 *    syncFrequency, 1 minute; modelled as runtime/volumes.ts nextSync counts it from the
 *    sandbox, without the jitter), a pod that starts after the resize became pending expands the
 *    volume while mounting it: the event `FileSystemResizeSuccessful` "MountVolume.NodeExpandVolume
 *    succeeded for volume "PV" NODE" on the pod and the claim, the claim's capacity becomes the new
 *    size, its resize conditions and its storage status go, allocatedResources stays. Without such
 *    a pod the condition stays until one starts.
 * Resize conditions merge as util.MergeResizeConditionsOfPVC does: other conditions stay, a resize
 * condition of the new set keeps its old time when its status is the same, an old resize
 * condition not in the new set goes.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Pod } from '../api/types.js';
import { clone } from '../api/store.js';
import { podSandboxes } from '../node/runtime.js';
import { nextSync } from '../runtime/volumes.js';
import { quantityBytes, type PersistentVolume, type PersistentVolumeClaim, type PvcCondition } from '../api/storage.js';

const RESIZER = 'external-resizer';
const RESIZING = 'Resizing';
const PENDING = 'FileSystemResizePending';
const RESIZE_CONDITIONS = new Set([RESIZING, PENDING]);

/** Per claim uid: the request the expand controller last saw (one event per larger request) and when node expansion became pending. */
export type VolumeExpandState = Record<string, { request?: string; pendingAt?: number }>;

function memo(c: Cluster, uid: string): { request?: string; pendingAt?: number } {
  return ((c.state.volumeExpand ??= {})[uid] ??= {});
}

/** The CSI driver whose external-resizer grows this volume: the PV's driver, when it is installed (a CSIDriver object). */
function resizerDriver(c: Cluster, pv: PersistentVolume): string | undefined {
  const driver = pv.spec.csi?.driver;
  return driver && c.store.get('CSIDriver', undefined, driver) ? driver : undefined;
}

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

/** The expand controller and the external resizer on a claim whose request is larger than its capacity. */
function resize(c: Cluster, pvc: PersistentVolumeClaim, pv: PersistentVolume): PersistentVolumeClaim {
  const want = pvc.spec.resources?.requests?.storage ?? '';
  const m = memo(c, pvc.metadata.uid ?? '');
  if (m.request !== want) {
    m.request = want;
    c.recordEvent(pvc, 'Warning', 'ExternalExpanding', 'waiting for an external controller to expand this PVC', 'volume_expand');
  }
  const driver = resizerDriver(c, pv);
  if (!driver || !(quantityBytes(pv.spec.capacity?.storage) < quantityBytes(want))) return pvc;
  const resizer = `${RESIZER} ${driver}`;
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
    return pvc;
  }
  const pending: PvcCondition = { type: PENDING, status: 'True', lastProbeTime: null, lastTransitionTime: ts, message: 'Waiting for user to (re-)start a pod to finish file system resize of volume on node.' };
  pvc = writeClaim(c, withResizeState(pvc, [pending], 'NodeResizePending'));
  m.pendingAt = c.now();
  c.recordEvent(pvc, 'Normal', 'FileSystemResizeRequired', 'Require file system resize of volume on node', resizer);
  return pvc;
}

/** When node expansion of the claim became pending (a session saved before this was remembered: the condition's time). */
function pendingSince(c: Cluster, pvc: PersistentVolumeClaim): number {
  const at = c.state.volumeExpand?.[pvc.metadata.uid ?? '']?.pendingAt;
  if (at !== undefined) return at;
  const t = Date.parse(pvc.status?.conditions?.find((x) => x.type === PENDING)?.lastTransitionTime ?? '');
  return Number.isNaN(t) ? c.now() : t;
}

/** The kubelet's online expansion of a claim pending node expansion, at the mounting pod's next sync. */
function expandOnNode(c: Cluster, pvc: PersistentVolumeClaim, pv: PersistentVolume): void {
  const pod = mountingPod(c, pvc);
  if (!pod?.spec.nodeName || !pod.metadata.uid) return;
  const since = pendingSince(c, pvc);
  const sandboxAt = podSandboxes(c)[pod.metadata.uid] ?? c.now();
  const due = sandboxAt >= since ? sandboxAt : nextSync(sandboxAt, since);
  if (c.now() < due) {
    c.wakeAt(due);
    return;
  }
  const want = pvc.status?.allocatedResources?.storage ?? pv.spec.capacity?.storage ?? '';
  const msg = `MountVolume.NodeExpandVolume succeeded for volume "${pv.metadata.name}" ${pod.spec.nodeName}`;
  c.recordEvent(pod, 'Normal', 'FileSystemResizeSuccessful', msg, 'kubelet', pod.spec.nodeName);
  c.recordEvent(pvc, 'Normal', 'FileSystemResizeSuccessful', msg, 'kubelet', pod.spec.nodeName);
  writeClaim(c, withResizeState(pvc, [], undefined, { capacity: { ...(pvc.status?.capacity ?? {}), storage: want } }));
  const m = c.state.volumeExpand?.[pvc.metadata.uid ?? ''];
  if (m) delete m.pendingAt;
}

/**
 * The memo of a claim that is gone goes with it (the expand controller's PVC informer hands a
 * deleted claim to expand_controller.go deletePVC, which drops what it kept of it), so deleted
 * claims neither pile up in the cluster state nor in saved sessions; a claim created again under
 * the same name has a new uid and starts afresh. Cheap: the reconcile lists the claims anyway.
 */
function forgetGoneClaims(c: Cluster, claims: readonly PersistentVolumeClaim[]): void {
  const memo = c.state.volumeExpand;
  if (!memo) return;
  const live = new Set(claims.map((p) => p.metadata.uid ?? ''));
  for (const uid of Object.keys(memo)) if (!live.has(uid)) delete memo[uid];
  if (Object.keys(memo).length === 0) delete c.state.volumeExpand;
}

export const volumeExpandController: Controller = {
  name: 'volume-expand',
  runsIn: 'controllerManager',
  watches: ['PersistentVolumeClaim', 'PersistentVolume', 'Pod', 'CSIDriver', 'time'],
  reconcile(c: Cluster): void {
    const claims = c.store.list<PersistentVolumeClaim>('PersistentVolumeClaim');
    forgetGoneClaims(c, claims);
    for (const claim of claims) {
      if (claim.status?.phase !== 'Bound' || !claim.spec.volumeName) continue;
      const pv = c.store.get<PersistentVolume>('PersistentVolume', undefined, claim.spec.volumeName);
      if (!pv) continue;
      let pvc = claim;
      if (quantityBytes(pvc.spec.resources?.requests?.storage) > quantityBytes(pvc.status?.capacity?.storage)) pvc = resize(c, clone(pvc), pv);
      if (pvc.status?.allocatedResourceStatuses?.['storage'] === 'NodeResizePending') {
        const cur = c.store.get<PersistentVolume>('PersistentVolume', undefined, claim.spec.volumeName) ?? pv;
        expandOnNode(c, clone(pvc), cur);
      }
    }
  },
};
