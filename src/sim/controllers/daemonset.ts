/**
 * DaemonSet controller (pkg/controller/daemon/daemon_controller.go): one pod per eligible node
 * (nodeSelector, taints the pod tolerates — DaemonSet pods tolerate not-ready/unreachable/
 * unschedulable as upstream adds), bound directly to the node, named `<ds>-<5 chars>`; each pod
 * template is recorded as a ControllerRevision (history.ts) for `kubectl rollout history/undo`.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { DaemonSet, Node, Pod, Toleration } from '../api/types.js';
import { clone } from '../api/store.js';
import { matchMap } from '../api/selectors.js';
import { createPodOrReport, isOwnedBy, podFromTemplate, podIsActive, podIsReady, podTemplateHash } from './util.js';
import { tolerates } from './scheduler.js';
import { deletePod } from './replicaset.js';
import { syncHistory } from './history.js';

const DS_TOLERATIONS: Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

export const daemonSetController: Controller = {
  name: 'daemonset',
  runsIn: 'controllerManager',
  // admission objects too: a refused pod is retried when a quota, limit range or namespace label changes
  watches: ['DaemonSet', 'Pod', 'Node', 'ResourceQuota', 'LimitRange', 'Namespace'],
  reconcile(c: Cluster): void {
    const nodes = c.store.list<Node>('Node');
    for (const ds of c.store.list<DaemonSet>('DaemonSet')) sync(c, ds, nodes);
  },
};

function eligible(ds: DaemonSet, node: Node): boolean {
  const spec = ds.spec.template.spec;
  if (spec.nodeSelector && !matchMap(spec.nodeSelector, node.metadata.labels)) return false;
  const tols = [...(spec.tolerations ?? []), ...DS_TOLERATIONS];
  return (node.spec.taints ?? []).every((t) => t.effect === 'PreferNoSchedule' || tolerates(tols, t));
}

function sync(c: Cluster, ds: DaemonSet, nodes: Node[]): void {
  const ns = ds.metadata.namespace!;
  const hash = podTemplateHash(ds.spec.template);
  syncHistory(c, ds, `${ds.metadata.name}-${hash}`, hash);
  const pods = c.store.list<Pod>('Pod', ns).filter((p) => isOwnedBy(p, ds) && podIsActive(p));
  let desired = 0;
  for (const node of nodes) {
    const mine = pods.filter((p) => p.spec.nodeName === node.metadata.name);
    if (!eligible(ds, node)) {
      for (const p of mine) deletePod(c, p);
      continue;
    }
    desired++;
    const stale = mine.filter((p) => p.metadata.labels?.['controller-revision-hash'] !== hash);
    for (const p of stale) deletePod(c, p);
    if (mine.length - stale.length === 0 && stale.length === 0) {
      const pod = podFromTemplate(ds.spec.template, ns, ds, { 'controller-revision-hash': hash, 'pod-template-generation': String(ds.metadata.generation ?? 1) });
      pod.metadata.generateName = `${ds.metadata.name}-`;
      pod.spec.tolerations = [...(pod.spec.tolerations ?? []), ...DS_TOLERATIONS.filter((t) => !(pod.spec.tolerations ?? []).some((x) => x.key === t.key))];
      pod.spec.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node.metadata.name] }] }] } } };
      const created = createPodOrReport(c, pod, ds, 'daemonset-controller');
      if (!created) continue;
      const bound = clone(created);
      bound.spec.nodeName = node.metadata.name;
      bound.status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: c.timestamp() }], qosClass: 'BestEffort' };
      c.write(bound);
      c.recordEvent(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`, 'daemonset-controller');
      c.recordEvent(bound, 'Normal', 'Scheduled', `Successfully assigned ${ns}/${created.metadata.name} to ${node.metadata.name}`, 'default-scheduler');
    }
  }
  const now = c.store.list<Pod>('Pod', ns).filter((p) => isOwnedBy(p, ds) && podIsActive(p));
  const ready = now.filter(podIsReady).length;
  const updated = now.filter((p) => p.metadata.labels?.['controller-revision-hash'] === hash).length;
  const status = {
    currentNumberScheduled: now.length,
    desiredNumberScheduled: desired,
    numberAvailable: ready,
    numberMisscheduled: 0,
    numberReady: ready,
    observedGeneration: ds.metadata.generation ?? 1,
    updatedNumberScheduled: updated,
  };
  if (ready === 0) delete (status as Partial<typeof status>).numberAvailable;
  if (JSON.stringify(ds.status) !== JSON.stringify(status)) {
    const upd = clone(ds);
    upd.status = status;
    c.write(upd);
  }
}
