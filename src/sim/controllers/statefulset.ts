/**
 * StatefulSet controller (pkg/controller/statefulset): pods `<sts>-0..N-1` created in order
 * (OrderedReady waits for each to be Ready; Parallel does not), with hostname and subdomain set
 * from spec.serviceName so a headless Service gives each a stable DNS name. Template changes roll
 * out one pod at a time from the highest ordinal (rollingUpdate below); each template is kept as a
 * ControllerRevision (history.ts).
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Pod, StatefulSet } from '../api/types.js';
import { clone } from '../api/store.js';
import { createPodOrReport, isOwnedBy, podFromTemplate, podIsActive, podIsReady, podTemplateHash } from './util.js';
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
    if (!createPodOrReport(c, pod, sts, 'statefulset-controller', (err) => `create Pod ${name} in StatefulSet ${sts.metadata.name} failed error: ${err}`)) break;
    c.recordEvent(sts, 'Normal', 'SuccessfulCreate', `create Pod ${name} in StatefulSet ${sts.metadata.name} successful`, 'statefulset-controller');
    if (ordered) break;
  }
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
  if (JSON.stringify(sts.status) !== JSON.stringify(status)) {
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
