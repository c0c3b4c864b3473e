/**
 * StatefulSet controller (pkg/controller/statefulset): pods `<sts>-0..N-1` created in order
 * (OrderedReady waits for each to be Ready; Parallel does not), with hostname and subdomain set
 * from spec.serviceName so a headless Service gives each a stable DNS name. Template changes roll
 * out one pod at a time from the highest ordinal (rollingUpdate below); each template is kept as a
 * ControllerRevision (history.ts). Each volumeClaimTemplate gives every ordinal its own claim
 * `<template>-<sts>-<ordinal>` (stateful_set_utils.go getPersistentVolumeClaims: the template's labels
 * plus the selector's matchLabels), created before the pod; the pod mounts it under the template's
 * name (updateStorage). persistentVolumeClaimRetentionPolicy decides whether the claims outlive the
 * set and the pods scaled away: Retain keeps them, Delete gives them the set or the condemned pod
 * as owner, and the garbage collector deletes them after it (updateClaimOwners).
 */
import type { Cluster, Controller } from '../cluster.js';
import type { KObject, Pod, StatefulSet } from '../api/types.js';
import { applyDefaults } from '../api/defaults.js';
import { admitStorageCreate } from '../api/storage.js';
import { clone } from '../api/store.js';
import { createPodOrReport, isOwnedBy, podFromTemplate, podIsActive, podIsReady, podTemplateHash, sameJSONText } from './util.js';
import { deletePod } from './replicaset.js';
import { REVISION_HASH_LABEL, syncHistory } from './history.js';

export const statefulSetController: Controller = {
  name: 'statefulset',
  runsIn: 'controllerManager',
  // admission objects too: a refused pod is retried when a quota, limit range or namespace label changes
  watches: ['StatefulSet', 'Pod', 'ResourceQuota', 'LimitRange', 'Namespace'],
  reconcile(c: Cluster): void {
    for (const sts of c.store.list<StatefulSet>('StatefulSet')) sync(c, sts);
  },
};

function sync(c: Cluster, sts: StatefulSet): void {
  const ns = sts.metadata.namespace!;
  const want = sts.spec.replicas ?? 1;
  const hash = `${sts.metadata.name}-${podTemplateHash(sts.spec.template)}`;
  const ordered = (sts.spec.podManagementPolicy ?? 'OrderedReady') === 'OrderedReady';
  syncHistory(c, sts, hash, hash);
  const pods = c.store.list<Pod>('Pod', ns).filter((p) => isOwnedBy(p, sts));
  for (let i = 0; i < want; i++) {
    const name = `${sts.metadata.name}-${i}`;
    const existing = pods.find((p) => p.metadata.name === name);
    if (existing) {
      if (ordered && (!podIsReady(existing) || !podIsActive(existing))) break;
      continue;
    }
    const pod = podFromTemplate(sts.spec.template, ns, sts, {
      'apps.kubernetes.io/pod-index': String(i),
      'controller-revision-hash': hash,
      'statefulset.kubernetes.io/pod-name': name,
    });
    pod.metadata.name = name;
    pod.spec.hostname = name;
    if (sts.spec.serviceName) pod.spec.subdomain = sts.spec.serviceName;
    if (!ensureClaims(c, sts, pod, i)) break;
    if (!createPodOrReport(c, pod, sts, 'statefulset-controller', (err) => `create Pod ${name} in StatefulSet ${sts.metadata.name} failed error: ${err}`)) break;
    c.recordEvent(sts, 'Normal', 'SuccessfulCreate', `create Pod ${name} in StatefulSet ${sts.metadata.name} successful`, 'statefulset-controller');
    if (ordered) break;
  }
  for (const p of pods) updateClaimOwners(c, sts, p, want);
  for (const p of pods) {
    const idx = Number(p.metadata.name.slice(sts.metadata.name.length + 1));
    if (idx >= want && podIsActive(p)) {
      deletePod(c, p);
      c.recordEvent(sts, 'Normal', 'SuccessfulDelete', `delete Pod ${p.metadata.name} in StatefulSet ${sts.metadata.name} successful`, 'statefulset-controller');
    }
  }
  rollingUpdate(c, sts, hash, want);
  const now = c.store.list<Pod>('Pod', ns).filter((p) => isOwnedBy(p, sts) && podIsActive(p));
  const ready = now.filter(podIsReady).length;
  const updated = now.filter((p) => p.metadata.labels?.[REVISION_HASH_LABEL] === hash).length;
  // the current revision moves to the update revision once every replica runs it
  const prior = (sts.status as { currentRevision?: string } | undefined)?.currentRevision ?? hash;
  const currentRevision = updated === want && now.length === want ? hash : prior;
  const status = {
    availableReplicas: ready,
    collisionCount: 0,
    currentReplicas: now.filter((p) => p.metadata.labels?.[REVISION_HASH_LABEL] === currentRevision).length,
    currentRevision,
    observedGeneration: sts.metadata.generation ?? 1,
    readyReplicas: ready,
    replicas: now.length,
    updateRevision: hash,
    updatedReplicas: updated,
  };
  if (!sameJSONText(sts.status, status)) {
    const upd = clone(sts);
    upd.status = status;
    c.write(upd);
  }
}

/**
 * RollingUpdate (stateful_set_control.go updateStatefulSet): once every replica exists and is
 * Ready, the pod with the highest ordinal at or above the partition that still runs an older
 * revision is deleted; it comes back from the current template. One pod at a time.
 */
function rollingUpdate(c: Cluster, sts: StatefulSet, hash: string, want: number): void {
  const strategy = sts.spec.updateStrategy as { type?: string; rollingUpdate?: { partition?: number } } | undefined;
  if ((strategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return;
  const partition = strategy?.rollingUpdate?.partition ?? 0;
  const pods = c.store.list<Pod>('Pod', sts.metadata.namespace).filter((p) => isOwnedBy(p, sts));
  const byIndex = (i: number): Pod | undefined => pods.find((p) => p.metadata.name === `${sts.metadata.name}-${i}`);
  for (let i = 0; i < want; i++) {
    const p = byIndex(i);
    if (!p || !podIsActive(p) || !podIsReady(p)) return;
  }
  for (let i = want - 1; i >= partition; i--) {
    const p = byIndex(i)!;
    if (p.metadata.labels?.[REVISION_HASH_LABEL] === hash) continue;
    deletePod(c, p);
    c.recordEvent(sts, 'Normal', 'SuccessfulDelete', `delete Pod ${p.metadata.name} in StatefulSet ${sts.metadata.name} successful`, 'statefulset-controller');
    return;
  }
}

interface ClaimTemplate {
  metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
}

/**
 * createMissingPersistentVolumeClaims (stateful_pod_control.go): the ordinal's claims exist before
 * its pod, each created as the API server would (defaults, the DefaultStorageClass admission), with
 * the `create Claim … success` event; the pod's volumes point at them. False when a claim is being
 * deleted (the pod waits, as upstream's "pod … claim … is being deleted" error does).
 */
function ensureClaims(c: Cluster, sts: StatefulSet, pod: Pod, ordinal: number): boolean {
  const ns = sts.metadata.namespace!;
  const templates = (sts.spec.volumeClaimTemplates ?? []) as ClaimTemplate[];
  const claimVolumes: NonNullable<Pod['spec']['volumes']> = [];
  for (const t of templates) {
    const tname = t.metadata?.name ?? '';
    const claimName = `${tname}-${sts.metadata.name}-${ordinal}`;
    const existing = c.store.get('PersistentVolumeClaim', ns, claimName);
    if (existing?.metadata.deletionTimestamp) return false;
    if (!existing) {
      const claim: KObject = {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: {
          name: claimName,
          namespace: ns,
          labels: { ...(t.metadata?.labels ?? {}), ...(sts.spec.selector.matchLabels ?? {}) },
          ...(t.metadata?.annotations ? { annotations: { ...t.metadata.annotations } } : {}),
        },
        spec: clone(t.spec ?? {}),
      };
      applyDefaults(claim);
      admitStorageCreate(c.store, claim);
      c.insert(claim);
      c.recordEvent(sts, 'Normal', 'SuccessfulCreate', `create Claim ${claimName} Pod ${pod.metadata.name} in StatefulSet ${sts.metadata.name} success`, 'statefulset-controller');
    }
    claimVolumes.push({ name: tname, persistentVolumeClaim: { claimName } });
  }
  // updateStorage: the claims' volumes first, then the template's others of different names
  if (claimVolumes.length) pod.spec.volumes = [...claimVolumes, ...(pod.spec.volumes ?? []).filter((v) => !claimVolumes.some((cv) => cv.name === v.name))];
  return true;
}

/**
 * updateClaimOwnerRefForSetAndPod (stateful_set_utils.go): an ordinal's claims are owned by the
 * set when whenDeleted is Delete (unless the pod is scaled away and whenScaled is Delete too), and
 * by their pod when it is scaled away and whenScaled is Delete; other references stay. The
 * references carry neither controller nor blockOwnerDeletion.
 */
function updateClaimOwners(c: Cluster, sts: StatefulSet, pod: Pod, want: number): void {
  const policy = sts.spec.persistentVolumeClaimRetentionPolicy ?? {};
  const scaledDown = Number(pod.metadata.name.slice(sts.metadata.name.length + 1)) >= want;
  const bySet = policy.whenDeleted === 'Delete' && !(policy.whenScaled === 'Delete' && scaledDown);
  const byPod = policy.whenScaled === 'Delete' && scaledDown;
  for (const t of (sts.spec.volumeClaimTemplates ?? []) as ClaimTemplate[]) {
    const claim = c.store.get('PersistentVolumeClaim', sts.metadata.namespace, `${t.metadata?.name ?? ''}-${pod.metadata.name}`);
    if (!claim || claim.metadata.deletionTimestamp) continue;
    const refs = claim.metadata.ownerReferences ?? [];
    const next = refs.filter((r) => (r.uid !== sts.metadata.uid || bySet) && (r.uid !== pod.metadata.uid || byPod));
    if (bySet && !next.some((r) => r.uid === sts.metadata.uid)) next.push({ apiVersion: 'apps/v1', kind: 'StatefulSet', name: sts.metadata.name, uid: sts.metadata.uid ?? '' });
    if (byPod && !next.some((r) => r.uid === pod.metadata.uid)) next.push({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, uid: pod.metadata.uid ?? '' });
    if (JSON.stringify(next) === JSON.stringify(refs)) continue;
    const upd = clone(claim);
    if (next.length) upd.metadata.ownerReferences = next;
    else delete upd.metadata.ownerReferences;
    c.write(upd);
  }
}
