/**
 * StatefulSet controller (pkg/controller/statefulset): pods `<sts>-0..N-1` created in order
 * (OrderedReady waits for each to be Ready; Parallel does not), with hostname and subdomain set
 * from spec.serviceName so a headless Service gives each a stable DNS name.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Pod, StatefulSet } from '../api/types.js';
import { clone } from '../api/store.js';
import { createPod, isOwnedBy, podFromTemplate, podIsActive, podIsReady, podTemplateHash } from './util.js';
import { deletePod } from './replicaset.js';

export const statefulSetController: Controller = {
  name: 'statefulset',
  watches: ['StatefulSet', 'Pod'],
  reconcile(c: Cluster): void {
    for (const sts of c.store.list<StatefulSet>('StatefulSet')) sync(c, sts);
  },
};

function sync(c: Cluster, sts: StatefulSet): void {
  const ns = sts.metadata.namespace!;
  const want = sts.spec.replicas ?? 1;
  const hash = `${sts.metadata.name}-${podTemplateHash(sts.spec.template)}`;
  const ordered = (sts.spec.podManagementPolicy ?? 'OrderedReady') === 'OrderedReady';
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
    createPod(c, pod);
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
  const now = c.store.list<Pod>('Pod', ns).filter((p) => isOwnedBy(p, sts) && podIsActive(p));
  const ready = now.filter(podIsReady).length;
  const status = {
    availableReplicas: ready,
    collisionCount: 0,
    currentReplicas: now.length,
    currentRevision: hash,
    observedGeneration: sts.metadata.generation ?? 1,
    readyReplicas: ready,
    replicas: now.length,
    updateRevision: hash,
    updatedReplicas: now.length,
  };
  if (JSON.stringify(sts.status) !== JSON.stringify(status)) {
    const upd = clone(sts);
    upd.status = status;
    c.write(upd);
  }
}
