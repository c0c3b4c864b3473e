/** CSINodes: printers.go csiNodeColumnDefinitions (Name, Drivers, Age), printCSINode: the count of spec.drivers. */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, arr } from './cells.js';
import type { KindPrinter } from './types.js';

export const csinodes: KindPrinter = {
  columns: [NAME, { name: 'Drivers' }, AGE],
  row(obj, now) {
    return [obj.metadata.name, String(arr(obj, 'spec', 'drivers').length), translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
