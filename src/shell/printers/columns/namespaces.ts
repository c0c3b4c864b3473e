/** Namespaces: printers.go namespaceColumnDefinitions (:283-288); reference §4.12. */
import type { Namespace } from '../../../sim/api/types.js';
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME } from './cells.js';
import type { KindPrinter } from './types.js';

export const namespaces: KindPrinter = {
  columns: [NAME, { name: 'Status' }, AGE],
  row(obj, now) {
    const ns = obj as Namespace;
    return [ns.metadata.name, ns.status?.phase ?? '', translateTimestampSince(ns.metadata.creationTimestamp, now)];
  },
};
