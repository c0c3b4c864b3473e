/**
 * GatewayClasses: the CRD's additionalPrinterColumns (kubernetes-sigs/gateway-api
 * config/crd/standard/gateway.networking.k8s.io_gatewayclasses.yaml): Controller
 * (.spec.controllerName), Accepted (the Accepted condition's status), Age, Description (priority 1).
 * A column whose JSONPath finds nothing prints empty (apiextensions-apiserver tableconvertor.go).
 */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, str } from './cells.js';
import { conditionStatus } from './gatewayapi-cells.js';
import type { KindPrinter } from './types.js';

export const gatewayclasses: KindPrinter = {
  columns: [NAME, { name: 'Controller' }, { name: 'Accepted' }, AGE, { name: 'Description', wide: true }],
  row(obj, now) {
    return [obj.metadata.name, str(obj, 'spec', 'controllerName'), conditionStatus(obj, 'Accepted'), translateTimestampSince(obj.metadata.creationTimestamp, now), str(obj, 'spec', 'description')];
  },
};
