/**
 * FlowSchemas: printers.go flowSchemaColumnDefinitions, printFlowSchema and printFlowSchemaList
 * (k8s.io/kubernetes pkg/printers/internalversion). DISTINGUISHERMETHOD is `<none>` without a
 * distinguisher; MISSINGPL is the status of the Dangling condition, `?` before the configuration
 * controller wrote one. A list is printed in matching order (flowcontrol/util FlowSchemaSequence:
 * matchingPrecedence, then name).
 */
import type { KObject } from '../../../sim/api/types.js';
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, arr, num, optStr, str } from './cells.js';
import type { KindPrinter } from './types.js';

function missingPL(obj: KObject): string {
  for (const c of arr(obj, 'status', 'conditions')) {
    if (optStr(c, 'type') === 'Dangling') return str(c, 'status');
  }
  return '?';
}

export const flowschemas: KindPrinter = {
  columns: [NAME, { name: 'PriorityLevel' }, { name: 'MatchingPrecedence' }, { name: 'DistinguisherMethod' }, AGE, { name: 'MissingPL' }],
  row(obj, now) {
    return [
      obj.metadata.name,
      str(obj, 'spec', 'priorityLevelConfiguration', 'name'),
      String(num(obj, 'spec', 'matchingPrecedence')),
      optStr(obj, 'spec', 'distinguisherMethod', 'type') ?? '<none>',
      translateTimestampSince(obj.metadata.creationTimestamp, now),
      missingPL(obj),
    ];
  },
  listOrder(objs) {
    return [...objs].sort((a, b) => {
      const d = num(a, 'spec', 'matchingPrecedence') - num(b, 'spec', 'matchingPrecedence');
      if (d !== 0) return d;
      return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
    });
  },
};
