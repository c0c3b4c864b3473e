/**
 * Gateways: the CRD's additionalPrinterColumns (kubernetes-sigs/gateway-api
 * config/crd/standard/gateway.networking.k8s.io_gateways.yaml): Class (.spec.gatewayClassName),
 * Address (.status.addresses[*].value: the convertor prints the first result only), Programmed
 * (the Programmed condition's status), Age.
 */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, at, str } from './cells.js';
import { conditionStatus } from './gatewayapi-cells.js';
import type { KindPrinter } from './types.js';

export const gateways: KindPrinter = {
  columns: [NAME, { name: 'Class' }, { name: 'Address' }, { name: 'Programmed' }, AGE],
  row(obj, now) {
    const addrs = at(obj, 'status', 'addresses');
    const first = Array.isArray(addrs) && addrs.length > 0 ? str(addrs[0], 'value') : '';
    return [obj.metadata.name, str(obj, 'spec', 'gatewayClassName'), first, conditionStatus(obj, 'Programmed'), translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
