/**
 * `replicas:` (builtin ReplicaCountTransformer): spec/replicas of the Deployments, ReplicaSets,
 * ReplicationControllers and StatefulSets whose current or original name matches.
 */
import { type Res, nameOf } from './types.js';

const KINDS = new Set(['Deployment', 'ReplicationController', 'ReplicaSet', 'StatefulSet']);

export function setReplicas(resources: Res[], replicas: { name?: string; count?: number }[] | undefined): void {
  for (const rep of replicas ?? []) {
    for (const r of resources) {
      if (!KINDS.has(String(r.obj['kind']))) continue;
      if (nameOf(r.obj) !== rep.name && r.origName !== rep.name) continue;
      const spec = (r.obj['spec'] && typeof r.obj['spec'] === 'object' ? r.obj['spec'] : (r.obj['spec'] = {})) as Record<string, unknown>;
      spec['replicas'] = rep.count ?? 0;
    }
  }
}
