/** VolumeAttributesClasses: printers.go volumeAttributesClassColumnDefinitions (Name, DriverName, Age). */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, str } from './cells.js';
import type { KindPrinter } from './types.js';

export const volumeattributesclasses: KindPrinter = {
  columns: [NAME, { name: 'DriverName' }, AGE],
  row(obj, now) {
    return [obj.metadata.name, str(obj, 'driverName'), translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
