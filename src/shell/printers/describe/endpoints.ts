/**
 * Endpoints: k8s.io/kubectl pkg/describe/describe.go describeEndpoints (v1.35). Each subset: its
 * ready and not-ready addresses joined by commas (`<none>` when empty), its ports as a small table
 * (an unnamed port is `<unset>`), then a blank line; the events follow.
 */
import type { Endpoints } from '../../../sim/api/types.js';
import { maybeEvents } from './events.js';
import { LEVEL_0, LEVEL_1, LEVEL_2, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext } from './writer.js';

export function describeEndpoints(ep: Endpoints, ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${ep.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${ep.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', ep.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ep.metadata.annotations);
    w.write(LEVEL_0, 'Subsets:\n');
    for (const subset of ep.subsets ?? []) {
      const ips = (list: readonly { ip: string }[] | undefined): string => (list ?? []).map((a) => a.ip).join(',') || '<none>';
      w.write(LEVEL_1, `Addresses:\t${ips(subset.addresses)}\n`);
      w.write(LEVEL_1, `NotReadyAddresses:\t${ips(subset.notReadyAddresses)}\n`);
      const ports = subset.ports ?? [];
      if (ports.length > 0) {
        w.write(LEVEL_1, 'Ports:\n');
        w.write(LEVEL_2, 'Name\tPort\tProtocol\n');
        w.write(LEVEL_2, '----\t----\t--------\n');
        for (const p of ports) w.write(LEVEL_2, `${p.name || '<unset>'}\t${p.port}\t${p.protocol ?? ''}\n`);
      }
      w.write(LEVEL_0, '\n');
    }
    maybeEvents(ctx.events, w, ctx.now);
  });
}
