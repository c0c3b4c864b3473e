/**
 * ControllerRevision (apps/v1), the history DaemonSets and StatefulSets keep of their pod
 * templates (pkg/controller/history, daemon/update.go and statefulset/stateful_set_utils.go
 * getPatch): what a revision stores, shared by the controllers that write revisions and by
 * `kubectl rollout history|undo`, which read them.
 */
import type { DaemonSet, ObjectMeta, StatefulSet } from './types.js';
import { clone } from './store.js';
import { canonicalJSON } from '../../util/canonical-json.js';

export const REVISION_HASH_LABEL = 'controller-revision-hash';

/** A ControllerRevision (apps/v1): `data` holds a JSON object, not strings. */
export interface ControllerRevision {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  data: unknown;
  revision: number;
}

/** The patch a revision stores: the owner's template with `$patch: replace` (update.go getPatch). */
export function revisionData(owner: DaemonSet | StatefulSet): unknown {
  return JSON.parse(canonicalJSON({ spec: { template: { ...clone(owner.spec.template), $patch: 'replace' } } })) as unknown;
}
