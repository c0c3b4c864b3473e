/**
 * IPAddress: k8s.io/kubectl pkg/describe/describe.go IPAddressDescriber describeIPAddressV1
 * (v1.35): the parent reference (group, resource, namespace, name) when set.
 */
import type { KObject } from '../../../sim/api/types.js';
import { at, str } from '../columns/cells.js';
import { maybeEvents } from './events.js';
import { LEVEL_0, LEVEL_1, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext } from './writer.js';

export function describeIPAddress(ip: KObject, ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${ip.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', ip.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ip.metadata.annotations);
    const ref = at(ip, 'spec', 'parentRef');
    if (ref && typeof ref === 'object') {
      w.write(LEVEL_0, 'Parent Reference:\n');
      for (const [label, field] of [
        ['Group', 'group'],
        ['Resource', 'resource'],
        ['Namespace', 'namespace'],
        ['Name', 'name'],
      ] as const)
        w.write(LEVEL_1, `${label}:\t${str(ref, field)}\n`);
    }
    maybeEvents(ctx.events, w, ctx.now);
  });
}
