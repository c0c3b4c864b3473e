/** IngressClasses: printers.go ingressClassColumnDefinitions, printIngressClass; reference §4.16. */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, at, optStr, str } from './cells.js';
import type { KindPrinter } from './types.js';

export const ingressclasses: KindPrinter = {
  columns: [NAME, { name: 'Controller' }, { name: 'Parameters' }, AGE],
  row(obj, now) {
    let parameters = '<none>';
    const p = at(obj, 'spec', 'parameters');
    if (p !== undefined && p !== null) {
      parameters = str(p, 'kind');
      const group = optStr(p, 'apiGroup');
      if (group !== undefined) parameters += `.${group}`;
      parameters += `/${str(p, 'name')}`;
    }
    return [obj.metadata.name, str(obj, 'spec', 'controller'), parameters, translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
