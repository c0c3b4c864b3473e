/**
 * The `Events:` section of every describer: describe.go DescribeEvents (events sorted by
 * lastTimestamp, stable for small lists; the 1.35 fieldPath message prefix, PR #133627).
 */
import type { KEvent } from '../../../sim/api/types.js';
import { parseTime } from '../../../util/clock.js';
import { str } from '../columns/cells.js';
import { translateTimestampSince } from '../duration.js';
import { LEVEL_0, LEVEL_1, type PrefixWriter } from './writer.js';

function isZero(ts: string | null | undefined): boolean {
  return !ts || ts.startsWith('0001-01-01');
}

function lastTime(e: KEvent): number {
  const t = parseTime(e.lastTimestamp);
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}

export function describeEvents(events: readonly KEvent[], w: PrefixWriter, now: number): void {
  if (events.length === 0) {
    w.write(LEVEL_0, 'Events:\t<none>\n');
    return;
  }
  w.flush();
  const sorted = [...events].sort((a, b) => lastTime(a) - lastTime(b));
  w.write(LEVEL_0, 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n');
  w.write(LEVEL_1, '----\t------\t----\t----\t-------\n');
  for (const e of sorted) {
    let first = translateTimestampSince(e.eventTime, now);
    if (isZero(e.eventTime)) first = translateTimestampSince(e.firstTimestamp, now);
    const series = e['series'];
    let interval: string;
    if (series !== undefined && series !== null) {
      interval = `${translateTimestampSince(str(series, 'lastObservedTime'), now)} (x${Number((series as { count?: number }).count ?? 0)} over ${first})`;
    } else if ((e.count ?? 0) > 1) {
      interval = `${translateTimestampSince(e.lastTimestamp, now)} (x${e.count} over ${first})`;
    } else interval = first;
    const source = e.source?.component || str(e, 'reportingController') || str(e, 'reportingComponent');
    let message = (e.message ?? '').trim();
    if (e.involvedObject.fieldPath) message = `${e.involvedObject.fieldPath}: ${message}`;
    w.write(LEVEL_1, `${e.type}\t${e.reason}\t${interval}\t${source}\t${message}\n`);
  }
}

/** `if events != nil { DescribeEvents }`. */
export function maybeEvents(events: readonly KEvent[] | undefined, w: PrefixWriter, now: number): void {
  if (events !== undefined) describeEvents(events, w, now);
}
