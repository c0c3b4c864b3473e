/**
 * ComponentStatuses: printers.go componentStatusColumnDefinitions and printComponentStatus
 * (k8s.io/kubernetes pkg/printers/internalversion): the Healthy condition decides the STATUS
 * (True → Healthy, anything else → Unhealthy, none → Unknown), with its message and error.
 */
import { NAME, arr, optStr } from './cells.js';
import type { KindPrinter } from './types.js';


export const componentstatuses: KindPrinter = {
  columns: [NAME, { name: 'Status' }, { name: 'Message' }, { name: 'Error' }],
  row(obj) {
    let status = 'Unknown';
    let message = '';
    let error = '';
    for (const c of arr(obj, 'conditions')) {
      if (optStr(c, 'type') !== 'Healthy') continue;
      status = optStr(c, 'status') === 'True' ? 'Healthy' : 'Unhealthy';
      message = optStr(c, 'message') ?? '';
      error = optStr(c, 'error') ?? '';
      break;
    }
    return [obj.metadata.name, status, message, error];
  },
};
