/** ServiceAccounts: printers.go serviceAccountColumnDefinitions (:300-305); reference §4.15. */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, arr } from './cells.js';
import type { KindPrinter } from './types.js';

export const serviceaccounts: KindPrinter = {
  columns: [NAME, { name: 'Secrets' }, AGE],
  row(obj, now) {
    return [obj.metadata.name, String(arr(obj, 'secrets').length), translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
