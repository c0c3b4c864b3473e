/**
 * PersistentVolumeClaim, PersistentVolume and StorageClass: k8s.io/kubectl pkg/describe/describe.go
 * describePersistentVolumeClaim (printPersistentVolumeClaim, printPodsMultiline "Used By", the
 * Conditions table), describePersistentVolume (printVolumeNodeAffinity, the hostPath/local/nfs
 * sources) and describeStorageClass.
 */
import type { KObject, Pod } from '../../../sim/api/types.js';
import { isDefaultAnnotationText, type PersistentVolume, type PersistentVolumeClaim, type StorageClass } from '../../../sim/api/storage.js';
import { accessModes } from '../columns/cells.js';
import { rfc1123z, translateTimestampSince } from '../duration.js';
import { describeEvents } from './events.js';
import { LEVEL_0, LEVEL_1, LEVEL_2, type PrefixWriter, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext } from './writer.js';

const ZERO_TIME = 'Mon, 01 Jan 0001 00:00:00 +0000';

/** `[a b]`: Go's %v of a string slice. */
function goSlice(xs: readonly string[] | undefined): string {
  return `[${(xs ?? []).join(' ')}]`;
}

/** storageutil.GetPersistentVolume(Claim)Class: the beta annotation first. */
function className(o: KObject, specClass: string | undefined): string {
  return o.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? specClass ?? '';
}

function status(o: KObject, phase: string | undefined, now: number): string {
  return o.metadata.deletionTimestamp ? `Terminating (lasts ${translateTimestampSince(o.metadata.deletionTimestamp, now)})` : phase ?? '';
}

function printUsedBy(w: PrefixWriter, pods: readonly Pod[]): void {
  w.write(LEVEL_0, 'Used By:\t');
  if (pods.length === 0) {
    w.writeLine('<none>');
    return;
  }
  [...pods]
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))
    .forEach((p, i) => {
      if (i !== 0) w.write(LEVEL_0, '\t');
      w.write(LEVEL_0, `${p.metadata.name}\n`);
    });
}

export function describePersistentVolumeClaim(pvc: PersistentVolumeClaim, ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${pvc.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${pvc.metadata.namespace ?? ''}\n`);
    w.write(LEVEL_0, `StorageClass:\t${className(pvc, pvc.spec.storageClassName)}\n`);
    w.write(LEVEL_0, `Status:\t${status(pvc, pvc.status?.phase, ctx.now)}\n`);
    w.write(LEVEL_0, `Volume:\t${pvc.spec.volumeName ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', pvc.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', pvc.metadata.annotations);
    w.write(LEVEL_0, `Finalizers:\t${goSlice(pvc.metadata.finalizers)}\n`);
    const bound = !!pvc.spec.volumeName;
    w.write(LEVEL_0, `Capacity:\t${bound ? pvc.status?.capacity?.storage ?? '0' : ''}\n`);
    w.write(LEVEL_0, `Access Modes:\t${bound ? accessModes(pvc.status?.accessModes ?? []) : ''}\n`);
    if (pvc.spec.volumeMode) w.write(LEVEL_0, `VolumeMode:\t${pvc.spec.volumeMode}\n`);
    const ds = pvc.spec.dataSource as { apiGroup?: string; kind?: string; name?: string } | undefined;
    if (ds) {
      w.write(LEVEL_0, 'DataSource:\n');
      if (ds.apiGroup) w.write(LEVEL_1, `APIGroup:\t${ds.apiGroup}\n`);
      w.write(LEVEL_1, `Kind:\t${ds.kind ?? ''}\n`);
      w.write(LEVEL_1, `Name:\t${ds.name ?? ''}\n`);
    }
    printUsedBy(w, ctx.pods ?? []);
    const conds = pvc.status?.conditions ?? [];
    if (conds.length > 0) {
      w.write(LEVEL_0, 'Conditions:\n');
      w.write(LEVEL_1, 'Type\tStatus\tLastProbeTime\tLastTransitionTime\tReason\tMessage\n');
      w.write(LEVEL_1, '----\t------\t-----------------\t------------------\t------\t-------\n');
      for (const c of conds)
        w.write(LEVEL_1, `${c.type} \t${c.status} \t${c.lastProbeTime ? rfc1123z(c.lastProbeTime) : ZERO_TIME} \t${c.lastTransitionTime ? rfc1123z(c.lastTransitionTime) : ZERO_TIME} \t${c.reason ?? ''} \t${c.message ?? ''}\n`);
    }
    if (ctx.events) describeEvents(ctx.events, w, ctx.now);
  });
}

function printNodeAffinity(w: PrefixWriter, pv: PersistentVolume): void {
  w.write(LEVEL_0, 'Node Affinity:\t');
  const req = pv.spec.nodeAffinity?.required;
  if (!req) {
    w.writeLine('<none>');
    return;
  }
  w.writeLine('');
  w.write(LEVEL_1, 'Required Terms:\t');
  const terms = req.nodeSelectorTerms ?? [];
  if (terms.length === 0) {
    w.writeLine('<none>');
    return;
  }
  w.writeLine('');
  terms.forEach((t, i) => {
    w.write(LEVEL_2, `Term ${i}:\t`);
    const exprs = t.matchExpressions ?? [];
    if (exprs.length === 0) {
      w.writeLine('<none>');
      return;
    }
    exprs.forEach((e, j) => {
      if (j !== 0) w.write(LEVEL_2, '\t');
      let s = `${e.key} ${e.operator.toLowerCase()}`;
      if ((e.values ?? []).length > 0) s += ` [${e.values!.join(', ')}]`;
      w.write(LEVEL_0, `${s}\n`);
    });
  });
}

export function describePersistentVolume(pv: PersistentVolume, ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${pv.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', pv.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', pv.metadata.annotations);
    w.write(LEVEL_0, `Finalizers:\t${goSlice(pv.metadata.finalizers)}\n`);
    w.write(LEVEL_0, `StorageClass:\t${className(pv, pv.spec.storageClassName)}\n`);
    w.write(LEVEL_0, `Status:\t${status(pv, pv.status?.phase, ctx.now)}\n`);
    const ref = pv.spec.claimRef;
    w.write(LEVEL_0, `Claim:\t${ref ? `${ref.namespace}/${ref.name}` : ''}\n`);
    w.write(LEVEL_0, `Reclaim Policy:\t${pv.spec.persistentVolumeReclaimPolicy ?? ''}\n`);
    w.write(LEVEL_0, `Access Modes:\t${accessModes(pv.spec.accessModes ?? [])}\n`);
    if (pv.spec.volumeMode) w.write(LEVEL_0, `VolumeMode:\t${pv.spec.volumeMode}\n`);
    w.write(LEVEL_0, `Capacity:\t${pv.spec.capacity?.storage ?? '0'}\n`);
    printNodeAffinity(w, pv);
    w.write(LEVEL_0, `Message:\t${pv.status?.message ?? ''}\n`);
    w.write(LEVEL_0, 'Source:\n');
    if (pv.spec.hostPath) {
      w.write(LEVEL_2, `Type:\tHostPath (bare host directory volume)\n    Path:\t${pv.spec.hostPath.path}\n    HostPathType:\t${pv.spec.hostPath.type || '<none>'}\n`);
    } else if (pv.spec.local) {
      w.write(LEVEL_2, `Type:\tLocalVolume (a persistent volume backed by local storage on a node)\n    Path:\t${pv.spec.local.path}\n`);
    } else if (pv.spec.nfs) {
      w.write(LEVEL_2, `Type:\tNFS (an NFS mount that lasts the lifetime of a pod)\n    Server:\t${pv.spec.nfs.server}\n    Path:\t${pv.spec.nfs.path}\n    ReadOnly:\t${pv.spec.nfs.readOnly === true}\n`);
    } else w.write(LEVEL_1, '<unknown>\n');
    if (ctx.events) describeEvents(ctx.events, w, ctx.now);
  });
}

/** labels.FormatLabels: sorted `k=v` joined by commas, `<none>` when empty. */
function formatMap(m: Record<string, string> | undefined): string {
  const keys = Object.keys(m ?? {}).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${m![k]}`).join(',');
}

export function describeStorageClass(sc: StorageClass, ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${sc.metadata.name}\n`);
    w.write(LEVEL_0, `IsDefaultClass:\t${isDefaultAnnotationText(sc)}\n`);
    w.write(LEVEL_0, `Annotations:\t${formatMap(sc.metadata.annotations)}\n`);
    w.write(LEVEL_0, `Provisioner:\t${sc.provisioner}\n`);
    w.write(LEVEL_0, `Parameters:\t${formatMap(sc.parameters)}\n`);
    w.write(LEVEL_0, `AllowVolumeExpansion:\t${sc.allowVolumeExpansion === undefined ? '<unset>' : sc.allowVolumeExpansion ? 'True' : 'False'}\n`);
    if ((sc.mountOptions ?? []).length === 0) w.write(LEVEL_0, 'MountOptions:\t<none>\n');
    else {
      w.write(LEVEL_0, 'MountOptions:\n');
      for (const o of sc.mountOptions!) w.write(LEVEL_1, `${o}\n`);
    }
    if (sc.reclaimPolicy) w.write(LEVEL_0, `ReclaimPolicy:\t${sc.reclaimPolicy}\n`);
    if (sc.volumeBindingMode) w.write(LEVEL_0, `VolumeBindingMode:\t${sc.volumeBindingMode}\n`);
    if (ctx.events) describeEvents(ctx.events, w, ctx.now);
  });
}
