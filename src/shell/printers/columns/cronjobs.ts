/** CronJobs: printers.go cronJobColumnDefinitions (:186-198), printCronJob (:1275); reference §4.10. */
import type { CronJob } from '../../../sim/api/types.js';
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, containerCells, formatLabelSelector } from './cells.js';
import type { KindPrinter } from './types.js';

/** printBoolPtr: `<unset>` for nil, else `True`/`False`. */
export function printBoolPtr(b: boolean | undefined): string {
  if (b === undefined) return '<unset>';
  return b ? 'True' : 'False';
}

export const cronjobs: KindPrinter = {
  columns: [
    NAME,
    { name: 'Schedule' },
    { name: 'Timezone' },
    { name: 'Suspend' },
    { name: 'Active' },
    { name: 'Last Schedule' },
    AGE,
    { name: 'Containers', wide: true },
    { name: 'Images', wide: true },
    { name: 'Selector', wide: true },
  ],
  row(obj, now) {
    const cj = obj as CronJob;
    const [names, images] = containerCells(cj.spec.jobTemplate.spec.template.spec.containers);
    const last = cj.status?.lastScheduleTime;
    return [
      cj.metadata.name,
      cj.spec.schedule,
      cj.spec.timeZone ?? '<none>',
      printBoolPtr(cj.spec.suspend),
      String(cj.status?.active?.length ?? 0),
      last ? translateTimestampSince(last, now) : '<none>',
      translateTimestampSince(cj.metadata.creationTimestamp, now),
      names,
      images,
      formatLabelSelector(cj.spec.jobTemplate.spec.selector),
    ];
  },
};
