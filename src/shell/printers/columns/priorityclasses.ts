/**
 * PriorityClasses: printers.go priorityClassColumnDefinitions (:504-511), printPriorityClass
 * (:2870); reference §4.21. An unset preemptionPolicy prints `<unset>`; the API server defaults it.
 */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, at, optStr } from './cells.js';
import type { KindPrinter } from './types.js';

export const priorityclasses: KindPrinter = {
  columns: [NAME, { name: 'Value' }, { name: 'Global-Default' }, AGE, { name: 'PreemptionPolicy' }],
  row(obj, now) {
    return [obj.metadata.name, String(at(obj, 'value') ?? 0), at(obj, 'globalDefault') === true ? 'true' : 'false', translateTimestampSince(obj.metadata.creationTimestamp, now), optStr(obj, 'preemptionPolicy') ?? '<unset>'];
  },
};
