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
  return JSON.parse(revisionText(owner)) as unknown;
}

/**
 * revisionData's canonical text. A stored owner's template is frozen (sim/api/store.ts): its
 * text is made once, not at every sync of the DaemonSet or StatefulSet controller.
 */
export function revisionText(owner: DaemonSet | StatefulSet): string {
  const t = owner.spec.template;
  const known = Object.isFrozen(t) ? REVISION_TEXT.get(t) : undefined;
  if (known !== undefined) return known;
  const text = canonicalJSON({ spec: { template: { ...clone(t), $patch: 'replace' } } });
  if (Object.isFrozen(t)) REVISION_TEXT.set(t, text);
  return text;
}

const REVISION_TEXT = new WeakMap<object, string>();
