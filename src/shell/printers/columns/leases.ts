/** Leases: printers.go leaseColumnDefinitions (:439), printLease; reference §4.21. */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, str } from './cells.js';
import type { KindPrinter } from './types.js';

export const leases: KindPrinter = {
  columns: [NAME, { name: 'Holder' }, AGE],
  row(obj, now) {
    return [obj.metadata.name, str(obj, 'spec', 'holderIdentity'), translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
