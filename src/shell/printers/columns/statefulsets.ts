/** StatefulSets: printers.go statefulSetColumnDefinitions (:234-242), printStatefulSet (:1516); reference §4.8. */
import type { StatefulSet } from '../../../sim/api/types.js';
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, containerCells } from './cells.js';
import type { KindPrinter } from './types.js';

export const statefulsets: KindPrinter = {
  columns: [NAME, { name: 'Ready' }, AGE, { name: 'Containers', wide: true }, { name: 'Images', wide: true }],
  row(obj, now) {
    const s = obj as StatefulSet;
    const [names, images] = containerCells(s.spec.template.spec.containers);
    return [
      s.metadata.name,
      `${s.status?.readyReplicas ?? 0}/${s.spec.replicas ?? 0}`,
      translateTimestampSince(s.metadata.creationTimestamp, now),
      names,
      images,
    ];
  },
};
