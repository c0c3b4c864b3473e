/**
 * Garbage collector (k8s.io/kubernetes pkg/controller/garbagecollector): objects whose
 * controller owner no longer exists are deleted (background propagation), pods gracefully.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { KObject, Pod } from '../api/types.js';
import { deletePod } from './replicaset.js';

const OWNED_KINDS = ['ReplicaSet', 'Pod', 'Job', 'ControllerRevision', 'EndpointSlice'];

export const garbageCollector: Controller = {
  name: 'garbage-collector',
  runsIn: 'controllerManager',
  watches: ['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job', 'CronJob', 'Service', 'Node', 'Pod', 'EndpointSlice'],
  reconcile(c: Cluster): void {
    const uids = new Set<string>();
    for (const kind of c.store.kinds()) for (const o of c.store.list(kind)) if (o.metadata.uid) uids.add(o.metadata.uid);
    for (const kind of OWNED_KINDS) {
      for (const o of [...c.store.list<KObject>(kind)]) {
        const refs = o.metadata.ownerReferences;
        if (!refs || refs.length === 0) continue;
        if (refs.some((r) => uids.has(r.uid))) continue;
        if (kind === 'Pod') deletePod(c, o as Pod);
        else c.store.remove(kind, o.metadata.namespace, o.metadata.name);
      }
    }
  },
};
