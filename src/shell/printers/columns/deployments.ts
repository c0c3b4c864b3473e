/** Deployments: printers.go deploymentColumnDefinitions (:347-356), printDeployment (:2412); reference §4.5. */
import type { Deployment } from '../../../sim/api/types.js';
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, containerCells, selectorString } from './cells.js';
import type { KindPrinter } from './types.js';

export const deployments: KindPrinter = {
  columns: [
    NAME,
    { name: 'Ready' },
    { name: 'Up-to-date' },
    { name: 'Available' },
    AGE,
    { name: 'Containers', wide: true },
    { name: 'Images', wide: true },
    { name: 'Selector', wide: true },
  ],
  row(obj, now) {
    const d = obj as Deployment;
    const st = d.status ?? {};
    const [names, images] = containerCells(d.spec.template.spec.containers);
    return [
      d.metadata.name,
      `${st.readyReplicas ?? 0}/${d.spec.replicas ?? 0}`,
      String(st.updatedReplicas ?? 0),
      String(st.availableReplicas ?? 0),
      translateTimestampSince(d.metadata.creationTimestamp, now),
      names,
      images,
      selectorString(d.spec.selector),
    ];
  },
};
