/**
 * The core v1 Event fields kube-apiserver always writes. In k8s.io/api core/v1 types.go (v1.35)
 * Event's source (EventSource), firstTimestamp and lastTimestamp (metav1.Time) and eventTime
 * (metav1.MicroTime) are structs, which encoding/json never omits whatever their tag says (a zero
 * time marshals as null), and reportingComponent/reportingInstance are strings without omitempty.
 * An Event decoded into that struct and encoded again, as every create or update is, has them
 * all: `kubectl get event -o yaml` shows `eventTime: null`, and a hand-made Event `source: {}`.
 * They are the type's zero value, which is also what the field manager compares a create against
 * (managed-fields.ts zeroObject), so a client that does not set them does not own them.
 */
import type { KObject } from './types.js';

/** The never-omitted fields of a zero core/v1 Event, as the server encodes them. */
export function coreEventZeroFields(): Record<string, unknown> {
  return { involvedObject: {}, source: {}, firstTimestamp: null, lastTimestamp: null, eventTime: null, reportingComponent: '', reportingInstance: '' };
}

/** Fill what a core v1 Event lacks of those fields, or sends as null (decoded as the zero value); mutates; an events.k8s.io/v1 body is left alone. */
export function fillCoreEventFields(obj: KObject): void {
  if (obj.kind !== 'Event' || obj.apiVersion !== 'v1') return;
  const rec = obj as unknown as Record<string, unknown>;
  for (const [k, v] of Object.entries(coreEventZeroFields())) if (rec[k] === undefined || rec[k] === null) rec[k] = v;
}
