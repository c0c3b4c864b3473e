/**
 * Volume expansion: the external-resizer (kubernetes-csi/external-resizer
 * pkg/controller/controller.go) and the kubelet's filesystem resize
 * (pkg/volume/util/operationexecutor NodeExpandVolume). When a bound claim of a class with
 * allowVolumeExpansion asks for more than its capacity, the volume grows (`Resizing`,
 * `FileSystemResizeRequired`) and the claim waits with condition FileSystemResizePending; a
 * running pod that mounts it on its node finishes the resize online (`FileSystemResizeSuccessful`
 * on the pod), and the claim's capacity becomes the new size. Without a pod the condition stays
 * until one starts.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Pod } from '../api/types.js';
import { clone } from '../api/store.js';
import { PROVISIONED_BY_ANNOTATION, classOfClaim, quantityBytes, type PersistentVolume, type PersistentVolumeClaim } from '../api/storage.js';

const RESIZER = 'external-resizer';
const PENDING = 'FileSystemResizePending';

function mountingPod(c: Cluster, pvc: PersistentVolumeClaim): Pod | undefined {
  return c.store
    .list<Pod>('Pod', pvc.metadata.namespace)
    .find((p) => p.status?.phase === 'Running' && !p.metadata.deletionTimestamp && (p.spec.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === pvc.metadata.name));
}

function resize(c: Cluster, pvc: PersistentVolumeClaim): void {
  const want = pvc.spec.resources?.requests?.storage ?? '';
  const pv = c.store.get<PersistentVolume>('PersistentVolume', undefined, pvc.spec.volumeName ?? '');
  if (!pv) return;
  const provisioner = pv.metadata.annotations?.[PROVISIONED_BY_ANNOTATION] ?? '';
  if (quantityBytes(pv.spec.capacity?.storage) < quantityBytes(want)) {
    c.recordEvent(pvc, 'Normal', 'Resizing', `External resizer is resizing volume ${pv.metadata.name}`, `${RESIZER} ${provisioner}`);
    const grown = clone(pv);
    grown.spec.capacity = { ...(grown.spec.capacity ?? {}), storage: want };
    c.write(grown);
    c.recordEvent(pvc, 'Normal', 'FileSystemResizeRequired', 'Require file system resize of volume on node', `${RESIZER} ${provisioner}`);
    const upd = clone(pvc);
    const ts = c.timestamp();
    upd.status = {
      ...(upd.status ?? {}),
      allocatedResources: { storage: want },
      conditions: [{ type: PENDING, status: 'True', lastProbeTime: null, lastTransitionTime: ts, message: 'Waiting for user to (re-)start a pod to finish file system resize of volume on node.' }],
    };
    c.write(upd);
    pvc = upd;
  }
  const pod = mountingPod(c, pvc);
  if (!pod || !pod.spec.nodeName) return;
  c.recordEvent(pod, 'Normal', 'FileSystemResizeSuccessful', `MountVolume.NodeExpandVolume succeeded for volume "${pv.metadata.name}" ${pod.spec.nodeName}`, 'kubelet', pod.spec.nodeName);
  const done = clone(pvc);
  const conditions = (done.status?.conditions ?? []).filter((x) => x.type !== PENDING);
  done.status = { ...(done.status ?? {}), capacity: { storage: want } };
  if (conditions.length > 0) done.status.conditions = conditions;
  else delete done.status.conditions;
  delete done.status.allocatedResources;
  c.write(done);
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
