/**
 * ResourceQuota: printers.go resourceQuotaColumnDefinitions and printResourceQuota. REQUEST lists
 * `name: used/hard` for every tracked name not starting `limits.`, LIMIT those that do, each in
 * SortableResourceNames order (by name), joined by ", ".
 */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, rec } from './cells.js';
import type { KindPrinter } from './types.js';

export const resourcequotas: KindPrinter = {
  columns: [NAME, AGE, { name: 'Request' }, { name: 'Limit' }],
  row(obj, now) {
    const hardSpec = rec(obj, 'spec', 'hard');
    const used = rec(obj, 'status', 'used');
    const hard = rec(obj, 'status', 'hard');
    const request: string[] = [];
    const limit: string[] = [];
    for (const r of Object.keys(hardSpec).sort()) {
      const pieces = r.split('.');
      const cell = `${r}: ${typeof used[r] === 'string' ? used[r] : '0'}/${typeof hard[r] === 'string' ? hard[r] : '0'}`;
      (pieces.length > 1 && pieces[0] === 'limits' ? limit : request).push(cell);
    }
    return [obj.metadata.name, translateTimestampSince(obj.metadata.creationTimestamp, now), request.join(', '), limit.join(', ')];
  },
};
