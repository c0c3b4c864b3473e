/** Secrets: printers.go secretColumnDefinitions (:291-297), printSecret (:1894); reference §4.14. */
import type { Secret } from '../../../sim/api/types.js';
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME } from './cells.js';
import type { KindPrinter } from './types.js';

export const secrets: KindPrinter = {
  columns: [NAME, { name: 'Type' }, { name: 'Data' }, AGE],
  row(obj, now) {
    const s = obj as Secret;
    return [s.metadata.name, s.type ?? '', String(Object.keys(s.data ?? {}).length), translateTimestampSince(s.metadata.creationTimestamp, now)];
  },
};
