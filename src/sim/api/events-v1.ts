/**
 * The events.k8s.io/v1 form of an Event. kube-apiserver stores one Event and serves it under both
 * groups (pkg/registry/core/event storage for `events` and `events.events.k8s.io`); a read through
 * events.k8s.io/v1 converts the stored object (pkg/apis/events/v1/conversion.go
 * Convert_core_Event_To_v1_Event): involvedObject → regarding, source → deprecatedSource,
 * message → note, firstTimestamp/lastTimestamp/count → deprecatedFirstTimestamp/
 * deprecatedLastTimestamp/deprecatedCount, reportingComponent → reportingController. Field
 * presence is encoding/json's over k8s.io/api/events/v1 Event: eventTime, regarding,
 * deprecatedSource and the two deprecated timestamps are structs (never omitted; a zero time is
 * null), the strings and deprecatedCount are omitempty.
 */
import type { KEvent, KObject } from './types.js';
import type { ResourceInfo } from './registry.js';

export const EVENTS_V1 = 'events.k8s.io/v1';

/** Convert_core_Event_To_v1_Event over the stored (core v1) Event. */
export function eventAsEventsV1(e: KEvent): KObject {
  const x = e as KEvent & { action?: string; related?: Record<string, unknown>; series?: { count?: number; lastObservedTime?: string } };
  const out: Record<string, unknown> = { kind: 'Event', apiVersion: EVENTS_V1, metadata: e.metadata, eventTime: e.eventTime ?? null };
  if (x.series) out.series = { count: x.series.count ?? 0, lastObservedTime: x.series.lastObservedTime ?? null };
  if (e.reportingComponent) out.reportingController = e.reportingComponent;
  if (e.reportingInstance) out.reportingInstance = e.reportingInstance;
  if (x.action) out.action = x.action;
  if (e.reason) out.reason = e.reason;
  out.regarding = e.involvedObject ?? {};
  if (x.related) out.related = x.related;
  if (e.message) out.note = e.message;
  if (e.type) out.type = e.type;
  out.deprecatedSource = e.source ?? {};
  out.deprecatedFirstTimestamp = e.firstTimestamp ?? null;
  out.deprecatedLastTimestamp = e.lastTimestamp ?? null;
  if (e.count) out.deprecatedCount = e.count;
  return out as unknown as KObject;
}

/** The object as the resource it was read through serves it: an Event read as events.k8s.io/v1 is converted. */
export function servedAs(info: ResourceInfo, obj: KObject): KObject {
  return info.kind === 'Event' && info.group === 'events.k8s.io' && obj.apiVersion !== EVENTS_V1 ? eventAsEventsV1(obj as KEvent) : obj;
}
