/** ReplicaSets: printers.go replicaSetColumnDefinitions (:144-154), printReplicaSet (:1182); reference §4.6. */
import type { ReplicaSet } from '../../../sim/api/types.js';
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, containerCells, selectorString } from './cells.js';
import type { KindPrinter } from './types.js';

export const replicasets: KindPrinter = {
  columns: [
    NAME,
    { name: 'Desired' },
    { name: 'Current' },
    { name: 'Ready' },
    AGE,
    { name: 'Containers', wide: true },
    { name: 'Images', wide: true },
    { name: 'Selector', wide: true },
  ],
  row(obj, now) {
    const rs = obj as ReplicaSet;
    const [names, images] = containerCells(rs.spec.template.spec.containers);
    return [
      rs.metadata.name,
      String(rs.spec.replicas ?? 0),
      String(rs.status?.replicas ?? 0),
      String(rs.status?.readyReplicas ?? 0),
      translateTimestampSince(rs.metadata.creationTimestamp, now),
      names,
      images,
      selectorString(rs.spec.selector),
    ];
  },
};
