/**
 * EndpointSlices: printers.go endpointSliceColumnDefinitions (:533-539), formatDiscoveryPorts and
 * formatDiscoveryEndpoints (:794-845); reference §4.4.
 */
import type { EndpointSlice } from '../../../sim/api/types.js';
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, listWithMore } from './cells.js';
import type { KindPrinter } from './types.js';

export function formatDiscoveryPorts(ports: EndpointSlice['ports']): string {
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const p of ports ?? []) {
    if (list.length < max) list.push(p.port !== undefined ? String(p.port) : p.name !== undefined ? p.name : '*');
    else if (list.length === max) more = true;
    count++;
  }
  return listWithMore(list, more, count, max);
}

export function formatDiscoveryEndpoints(eps: EndpointSlice['endpoints']): string {
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const e of eps ?? []) {
    for (const a of e.addresses) {
      if (list.length < max) list.push(a);
      else if (list.length === max) more = true;
      count++;
    }
  }
  return listWithMore(list, more, count, max);
}

export const endpointslices: KindPrinter = {
  columns: [NAME, { name: 'AddressType' }, { name: 'Ports' }, { name: 'Endpoints' }, AGE],
  row(obj, now) {
    const s = obj as EndpointSlice;
    return [
      s.metadata.name,
      s.addressType,
      formatDiscoveryPorts(s.ports),
      formatDiscoveryEndpoints(s.endpoints),
      translateTimestampSince(s.metadata.creationTimestamp, now),
    ];
  },
};
