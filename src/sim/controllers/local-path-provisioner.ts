/**
 * rancher/local-path-provisioner (provisioner.go Provision/Delete, driven by
 * sigs.k8s.io/sig-storage-lib-external-provisioner): while its pod runs, it provisions every
 * claim handed to `rancher.io/local-path` on the node the scheduler selected, as a hostPath PV
 * `pvc-<claim uid>` at /opt/local-path-provisioner/pvc-<uid>_<ns>_<name> (the helper pod's
 * `mkdir -m 0777 -p`, done here on the node's filesystem) with nodeAffinity to that node; and
 * deletes the directory and the PV when a Released volume's policy is Delete. A class in
 * Immediate mode gives no node, which the provisioner refuses.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Pod } from '../api/types.js';
import { clone } from '../api/store.js';
import {
  PROVISIONED_BY_ANNOTATION,
  SELECTED_NODE_ANNOTATION,
  STORAGE_PROVISIONER_ANNOTATION,
  classOfClaim,
  type PersistentVolume,
  type PersistentVolumeClaim,
} from '../api/storage.js';
import { LOCAL_PATH_NAMESPACE, LOCAL_PATH_PROVISIONER, LOCAL_PATH_ROOT } from '../fixture/local-path-provisioner.js';

/** The provisioner's running pod (it works only while one is Running). */
function provisionerPod(c: Cluster): Pod | undefined {
  return c.store
    .list<Pod>('Pod', LOCAL_PATH_NAMESPACE)
    .find((p) => p.metadata.labels?.['app'] === 'local-path-provisioner' && p.status?.phase === 'Running' && !p.metadata.deletionTimestamp);
}

/** The event source the library's recorder uses: `<provisioner>_<pod>_<uuid>`. */
function component(pod: Pod): string {
  return `${LOCAL_PATH_PROVISIONER}_${pod.metadata.name}_${pod.metadata.uid ?? ''}`;
}

function provision(c: Cluster, pod: Pod, pvc: PersistentVolumeClaim): void {
  const sc = classOfClaim(c.store, pvc);
  if (!sc) return;
  const key = `${pvc.metadata.namespace}/${pvc.metadata.name}`;
  const node = pvc.metadata.annotations?.[SELECTED_NODE_ANNOTATION];
  const src = component(pod);
  if (!node) {
    c.recordEvent(pvc, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim "${key}"`, src);
    c.recordEvent(pvc, 'Warning', 'ProvisioningFailed', `failed to provision volume with StorageClass "${sc.metadata.name}": configuration error, no node was specified`, src);
    return;
  }
  const name = `pvc-${pvc.metadata.uid ?? ''}`;
  if (c.store.get('PersistentVolume', undefined, name)) return;
  c.recordEvent(pvc, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim "${key}"`, src);
  const path = `${LOCAL_PATH_ROOT}/${name}_${pvc.metadata.namespace}_${pvc.metadata.name}`;
  c.host(node)?.fs.mkdir(path);
  const pv: PersistentVolume = {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: {
      name,
      annotations: { 'local.path.provisioner/selected-node': node, [PROVISIONED_BY_ANNOTATION]: LOCAL_PATH_PROVISIONER },
      finalizers: ['kubernetes.io/pv-protection'],
    },
    spec: {
      accessModes: pvc.spec.accessModes ?? [],
      capacity: { storage: pvc.spec.resources?.requests?.storage ?? '' },
      claimRef: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', name: pvc.metadata.name, namespace: pvc.metadata.namespace ?? 'default', resourceVersion: pvc.metadata.resourceVersion ?? '', uid: pvc.metadata.uid ?? '' },
      hostPath: { path, type: 'DirectoryOrCreate' },
      nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } },
      persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
      storageClassName: sc.metadata.name,
      volumeMode: pvc.spec.volumeMode ?? 'Filesystem',
    },
    status: { phase: 'Pending' },
  };
  c.insert(pv);
  c.recordEvent(pvc, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${name}`, src);
}

/** Delete: the teardown helper pod's `rm -rf "$VOL_DIR"` on the volume's node, then the PV. */
function reclaim(c: Cluster, pv: PersistentVolume): void {
  const node = pv.metadata.annotations?.['local.path.provisioner/selected-node'];
  const path = pv.spec.hostPath?.path;
  const h = node ? c.host(node) : undefined;
  if (h && path && h.fs.exists(path)) h.fs.removeTree(path);
  c.deleteObject('PersistentVolume', undefined, pv.metadata.name);
}

export const localPathProvisionerController: Controller = {
  name: 'local-path-provisioner',
  watches: ['PersistentVolumeClaim', 'PersistentVolume', 'Pod'],
  reconcile(c: Cluster): void {
    const pod = provisionerPod(c);
    if (!pod) return;
    for (const pvc of c.store.list<PersistentVolumeClaim>('PersistentVolumeClaim')) {
      if (pvc.spec.volumeName || pvc.metadata.annotations?.[STORAGE_PROVISIONER_ANNOTATION] !== LOCAL_PATH_PROVISIONER) continue;
      if (c.store.get('PersistentVolume', undefined, `pvc-${pvc.metadata.uid ?? ''}`)) continue;
      provision(c, pod, pvc);
    }
    for (const pv of c.store.list<PersistentVolume>('PersistentVolume')) {
      if (pv.metadata.annotations?.[PROVISIONED_BY_ANNOTATION] !== LOCAL_PATH_PROVISIONER) continue;
      if (pv.status?.phase === 'Released' && pv.spec.persistentVolumeReclaimPolicy === 'Delete') reclaim(c, clone(pv));
    }
  },
};
