/**
 * The `kubectl.kubernetes.io/last-applied-configuration` annotation that `apply` and
 * `create --save-config` keep (k8s.io/kubectl pkg/util/apply.go CreateApplyAnnotation).
 */
import type { KObject } from '../../sim/api/types.js';
import { marshalCompact } from '../printers/json.js';
import { sortKeys } from '../printers/serialize.js';
import type { GoJson } from '../../util/go-json.js';

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** Record the object itself (without this annotation) in the annotation, as `json.Marshal` writes it. */
export function lastAppliedAnnotate(obj: KObject): void {
  // sortKeys makes the copy (a structuredClone first was a second one: 1,000 applied objects, 1,000 of each)
  const copy = sortKeys(obj) as unknown as KObject;
  if (copy.metadata.annotations) {
    delete copy.metadata.annotations[LAST_APPLIED];
    // empty as the object's own annotations are without it (sortKeys leaves out undefined members,
    // which a copy of them kept and counted)
    if (Object.keys(obj.metadata.annotations!).every((k) => k === LAST_APPLIED)) delete copy.metadata.annotations;
  }
  const text = `${marshalCompact(copy as unknown as GoJson)}\n`;
  obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [LAST_APPLIED]: text };
}
