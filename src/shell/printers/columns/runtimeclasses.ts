/** RuntimeClasses: printers.go runtimeClassColumnDefinitions (Name, Handler, Age), printRuntimeClass. */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, str } from './cells.js';
import type { KindPrinter } from './types.js';

export const runtimeclasses: KindPrinter = {
  columns: [NAME, { name: 'Handler' }, AGE],
  row(obj, now) {
    return [obj.metadata.name, str(obj, 'handler'), translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
