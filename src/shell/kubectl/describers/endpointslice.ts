/**
 * `kubectl describe endpointslice` (k8s.io/kubectl pkg/describe/describe.go
 * describeEndpointSliceV1). The printers package had no EndpointSlice describer, so it lives here.
 */
import type { EndpointSlice, KEvent } from '../../../sim/api/types.js';
import { describeEvents } from '../../printers/describe/events.js';
import { LEVEL_0, LEVEL_1, LEVEL_2, LEVEL_3, printAnnotationsMultiline, printLabelsMultiline, tabbedString } from '../../printers/describe/writer.js';

export function describeEndpointSlice(eps: EndpointSlice, now: number, events?: readonly KEvent[]): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${eps.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${eps.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', eps.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', eps.metadata.annotations);
    w.write(LEVEL_0, `AddressType:\t${eps.addressType}\n`);
    const ports = eps.ports ?? [];
    if (ports.length === 0) w.write(LEVEL_0, 'Ports: <unset>\n');
    else {
      w.write(LEVEL_0, 'Ports:\n');
      w.write(LEVEL_1, 'Name\tPort\tProtocol\n');
      w.write(LEVEL_1, '----\t----\t--------\n');
      for (const p of ports) w.write(LEVEL_1, `${p.name ? p.name : '<unset>'}\t${p.port ?? '<unset>'}\t${p.protocol ?? 'TCP'}\n`);
    }
    const endpoints = eps.endpoints ?? [];
    if (endpoints.length === 0) w.write(LEVEL_0, 'Endpoints: <none>\n');
    else {
      w.write(LEVEL_0, 'Endpoints:\n');
      for (const e of endpoints) {
        w.write(LEVEL_1, `- Addresses:\t${e.addresses.join(', ') || '<none>'}\n`);
        w.write(LEVEL_2, 'Conditions:\n');
        const ready = e.conditions?.ready;
        w.write(LEVEL_3, `Ready:\t${ready === undefined ? '<unset>' : String(ready)}\n`);
        w.write(LEVEL_2, `Hostname:\t${e.hostname ?? '<unset>'}\n`);
        if (e.targetRef) w.write(LEVEL_2, `TargetRef:\t${e.targetRef.kind}/${e.targetRef.name}\n`);
        w.write(LEVEL_2, `NodeName:\t${e.nodeName ?? '<unset>'}\n`);
        w.write(LEVEL_2, `Zone:\t${e.zone ?? '<unset>'}\n`);
      }
    }
    if (events) describeEvents(events, w, now);
  });
}
