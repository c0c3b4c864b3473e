/**
 * APIServices: the kube-aggregator's table (pkg/registry/apiservice/etcd/etcd.go
 * ConvertToTable): NAME SERVICE AVAILABLE AGE; SERVICE `ns/name` or `Local`; AVAILABLE the
 * Available condition's status, with its reason in parentheses when not True.
 */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, arr, at, str } from './cells.js';
import type { KindPrinter } from './types.js';

export const apiservices: KindPrinter = {
  columns: [NAME, { name: 'Service' }, { name: 'Available' }, AGE],
  row(obj, now) {
    const svc = at(obj, 'spec', 'service');
    const service = svc ? `${str(svc, 'namespace')}/${str(svc, 'name')}` : 'Local';
    const cond = arr(obj, 'status', 'conditions').find((c) => str(c, 'type') === 'Available');
    let available = 'Unknown';
    if (cond) available = str(cond, 'status') === 'True' ? 'True' : `${str(cond, 'status')} (${str(cond, 'reason')})`;
    return [obj.metadata.name, service, available, translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
