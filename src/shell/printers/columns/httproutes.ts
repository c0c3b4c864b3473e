/**
 * HTTPRoutes: the CRD's additionalPrinterColumns (kubernetes-sigs/gateway-api
 * config/crd/standard/gateway.networking.k8s.io_httproutes.yaml): Hostnames (.spec.hostnames,
 * an array, which the convertor's JSONPath printer writes as JSON: `["a.example","b.example"]`), Age.
 */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, at } from './cells.js';
import type { KindPrinter } from './types.js';

export const httproutes: KindPrinter = {
  columns: [NAME, { name: 'Hostnames' }, AGE],
  row(obj, now) {
    const hs = at(obj, 'spec', 'hostnames');
    return [obj.metadata.name, Array.isArray(hs) ? JSON.stringify(hs) : '', translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
