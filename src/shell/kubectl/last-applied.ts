/**
 * The `kubectl.kubernetes.io/last-applied-configuration` annotation that `apply` and
 * `create --save-config` keep (k8s.io/kubectl pkg/util/apply.go CreateApplyAnnotation).
 */
import type { KObject } from '../../sim/api/types.js';
import { marshalCompact } from '../printers/json.js';
import { sortKeys } from '../printers/serialize.js';

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** Record the object itself (without this annotation) in the annotation, as `json.Marshal` writes it. */
export function lastAppliedAnnotate(obj: KObject): void {
  const copy = structuredClone(obj);
  if (copy.metadata.annotations) {
    delete copy.metadata.annotations[LAST_APPLIED];
    if (Object.keys(copy.metadata.annotations).length === 0) delete copy.metadata.annotations;
  }
  const text = `${marshalCompact(sortKeys(copy))}\n`;
  obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [LAST_APPLIED]: text };
}
