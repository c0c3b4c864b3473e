/**
 * Events: printers.go eventColumnDefinitions (:268-280), printEvent (:2136), formatEventSource;
 * reference §4.18. Cells are in definition order (the server always prints wide).
 */
import type { KEvent } from '../../../sim/api/types.js';
import { translateTimestampSince } from '../duration.js';
import { num, optStr, str } from './cells.js';
import type { KindPrinter } from './types.js';

function isZero(ts: string | null | undefined): boolean {
  return !ts || ts.startsWith('0001-01-01');
}

export const events: KindPrinter = {
  columns: [
    { name: 'Last Seen' },
    { name: 'Type' },
    { name: 'Reason' },
    { name: 'Object' },
    { name: 'Subobject', wide: true },
    { name: 'Source', wide: true },
    { name: 'Message' },
    { name: 'First Seen', wide: true },
    { name: 'Count', wide: true },
    { name: 'Name', wide: true, nameFormat: true },
  ],
  row(obj, now) {
    const ev = obj as KEvent;
    let first = translateTimestampSince(ev.firstTimestamp, now);
    if (isZero(ev.firstTimestamp)) first = translateTimestampSince(ev.eventTime, now);
    let last = translateTimestampSince(ev.lastTimestamp, now);
    if (isZero(ev.lastTimestamp)) last = first;
    let count = ev.count ?? 0;
    const series = ev['series'];
    if (series !== undefined && series !== null) {
      last = translateTimestampSince(optStr(series, 'lastObservedTime'), now);
      count = num(series, 'count');
    } else if (count === 0) count = 1;
    const io = ev.involvedObject;
    const target = io.name ? `${io.kind.toLowerCase()}/${io.name}` : io.kind.toLowerCase();
    const component = ev.source?.component || str(ev, 'reportingComponent');
    const instance = ev.source?.host || ev.reportingInstance || '';
    const source = instance ? `${component}, ${instance}` : component;
    return [last, ev.type, ev.reason, target, io.fieldPath ?? '', source, (ev.message ?? '').trim(), first, String(count), ev.metadata.name];
  },
};
