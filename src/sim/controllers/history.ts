/**
 * ControllerRevisions: the rollout history DaemonSets and StatefulSets keep (k8s.io/kubernetes
 * pkg/controller/daemon/update.go constructHistory/cleanupHistory, pkg/controller/statefulset
 * stateful_set_utils.go newRevision, pkg/controller/history). Each distinct pod template is one
 * revision object named `<owner>-<hash>` whose `data` is the strategic merge patch that restores
 * it (`{"spec":{"template":{"$patch":"replace",…}}}`, which `kubectl rollout undo` sends back);
 * returning to an older template renumbers that revision as the newest instead of adding one.
 * Revisions beyond spec.revisionHistoryLimit that no live pod runs are deleted, oldest first.
 */
import type { Cluster } from '../cluster.js';
import type { DaemonSet, KObject, Pod, StatefulSet } from '../api/types.js';
import { REVISION_HASH_LABEL, revisionData, revisionText, type ControllerRevision } from '../api/revisions.js';
import { clone } from '../api/store.js';
import { canonicalJSON, fnv32a, isOwnedBy, ownerRef, podIsActive } from './util.js';

export { REVISION_HASH_LABEL, revisionData, type ControllerRevision } from '../api/revisions.js';

/** The revisions an owner controls, oldest first. */
export function ownedRevisions(c: Cluster, owner: KObject): ControllerRevision[] {
  return (c.store.list('ControllerRevision', owner.metadata.namespace) as unknown as ControllerRevision[])
    .filter((r) => isOwnedBy(r as unknown as KObject, owner))
    .sort((a, b) => a.revision - b.revision);
}

/** A uid derived from the owner's and the revision's names, so recording history draws no random numbers. */
function revisionUid(owner: KObject, name: string): string {
  const hex = (s: string): string => fnv32a(s).toString(16).padStart(8, '0');
  return `${(owner.metadata.uid ?? '00000000-0000-4000-8000-').slice(0, 24)}${hex(name)}${hex(`rev/${name}`).slice(0, 4)}`;
}

/**
 * Make sure the owner's current template is recorded as its newest revision `name`, labelled
 * `controller-revision-hash: label`; prune history beyond the limit. Returns the current revision number.
 */
export function syncHistory(c: Cluster, owner: DaemonSet | StatefulSet, name: string, label: string): number {
  const ns = owner.metadata.namespace!;
  const revs = ownedRevisions(c, owner);
  const max = revs.length ? revs[revs.length - 1]!.revision : 0;
  let current = revs.find((r) => r.metadata.name === name);
  if (current && canonicalJSON(current.data) === revisionText(owner)) {
    if (current.revision < max) {
      const upd = clone(current);
      upd.revision = max + 1;
      current = c.write(upd as unknown as KObject) as unknown as ControllerRevision;
    }
  } else if (!current) {
    const cr: ControllerRevision = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name,
        namespace: ns,
        uid: revisionUid(owner, name),
        labels: { ...(owner.spec.template.metadata?.labels ?? {}), [REVISION_HASH_LABEL]: label },
        ...(owner.metadata.annotations ? { annotations: { ...owner.metadata.annotations } } : {}),
        ownerReferences: [ownerRef(owner)],
      },
      data: revisionData(owner),
      revision: max + 1,
    };
    current = c.insert(cr as unknown as KObject) as unknown as ControllerRevision;
  }
  prune(c, owner, current.metadata.name);
  return current.revision;
}

function prune(c: Cluster, owner: DaemonSet | StatefulSet, currentName: string): void {
  const limit = owner.spec.revisionHistoryLimit ?? 10;
  const old = ownedRevisions(c, owner).filter((r) => r.metadata.name !== currentName);
  if (old.length <= limit) return;
  const live = new Set(
    c.store
      .list<Pod>('Pod', owner.metadata.namespace)
      .filter((p) => isOwnedBy(p, owner) && podIsActive(p))
      .map((p) => p.metadata.labels?.[REVISION_HASH_LABEL]),
  );
  let excess = old.length - limit;
  for (const r of old) {
    if (excess <= 0) break;
    if (live.has(r.metadata.labels?.[REVISION_HASH_LABEL])) continue;
    c.store.remove('ControllerRevision', r.metadata.namespace, r.metadata.name);
    excess--;
  }
}
