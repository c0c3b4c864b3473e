/** DaemonSets: printers.go daemonSetColumnDefinitions (:157-170), printDaemonSet (:1543); reference §4.7. */
import type { DaemonSet } from '../../../sim/api/types.js';
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, containerCells, formatLabels, selectorString } from './cells.js';
import type { KindPrinter } from './types.js';

export const daemonsets: KindPrinter = {
  columns: [
    NAME,
    { name: 'Desired' },
    { name: 'Current' },
    { name: 'Ready' },
    { name: 'Up-to-date' },
    { name: 'Available' },
    { name: 'Node Selector' },
    AGE,
    { name: 'Containers', wide: true },
    { name: 'Images', wide: true },
    { name: 'Selector', wide: true },
  ],
  row(obj, now) {
    const ds = obj as DaemonSet;
    const st = ds.status;
    const [names, images] = containerCells(ds.spec.template.spec.containers);
    return [
      ds.metadata.name,
      String(st?.desiredNumberScheduled ?? 0),
      String(st?.currentNumberScheduled ?? 0),
      String(st?.numberReady ?? 0),
      String(st?.updatedNumberScheduled ?? 0),
      String(st?.numberAvailable ?? 0),
      formatLabels(ds.spec.template.spec.nodeSelector),
      translateTimestampSince(ds.metadata.creationTimestamp, now),
      names,
      images,
      selectorString(ds.spec.selector),
    ];
  },
};
