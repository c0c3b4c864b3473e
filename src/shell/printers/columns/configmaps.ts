/** ConfigMaps: printers.go configMapColumnDefinitions (:372-377), printConfigMap (:2581); reference §4.13. */
import type { ConfigMap } from '../../../sim/api/types.js';
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME } from './cells.js';
import type { KindPrinter } from './types.js';

export const configmaps: KindPrinter = {
  columns: [NAME, { name: 'Data' }, AGE],
  row(obj, now) {
    const cm = obj as ConfigMap;
    const n = Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length;
    return [cm.metadata.name, String(n), translateTimestampSince(cm.metadata.creationTimestamp, now)];
  },
};
