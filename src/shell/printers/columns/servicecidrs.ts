/** ServiceCIDRs: printers.go serviceCIDRColumnDefinitions and printServiceCIDR (CIDRs joined by ","). */
import type { KObject } from '../../../sim/api/types.js';
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME } from './cells.js';
import type { KindPrinter } from './types.js';

export const servicecidrs: KindPrinter = {
  columns: [NAME, { name: 'CIDRs' }, AGE],
  row(obj: KObject, now) {
    const spec = (obj.spec ?? {}) as { cidrs?: string[] };
    return [obj.metadata.name, (spec.cidrs ?? []).join(','), translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
