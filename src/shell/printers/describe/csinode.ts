/**
 * CSINode: k8s.io/kubectl pkg/describe/describe.go describeCSINode (v1.35): name, labels,
 * annotations, creation time, then `Spec:` with each driver (node ID, allocatable count, topology
 * keys as Go prints a []string: `[a b]`) when the drivers list is set at all.
 */
import type { KObject } from '../../../sim/api/types.js';
import { arr, at, optNum, str } from '../columns/cells.js';
import { rfc1123z } from '../duration.js';
import { maybeEvents } from './events.js';
import { LEVEL_0, LEVEL_1, LEVEL_2, LEVEL_3, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext } from './writer.js';

export function describeCSINode(csi: KObject, ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${csi.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', csi.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', csi.metadata.annotations);
    const created = csi.metadata.creationTimestamp;
    w.write(LEVEL_0, `CreationTimestamp:\t${created ? rfc1123z(created) : 'Mon, 01 Jan 0001 00:00:00 +0000'}\n`);
    w.write(LEVEL_0, 'Spec:\n');
    if (Array.isArray(at(csi, 'spec', 'drivers'))) {
      w.write(LEVEL_1, 'Drivers:\n');
      for (const d of arr(csi, 'spec', 'drivers')) {
        w.write(LEVEL_2, `${str(d, 'name')}:\n`);
        w.write(LEVEL_3, `Node ID:\t${str(d, 'nodeID')}\n`);
        const count = optNum(d, 'allocatable', 'count');
        if (count !== undefined) w.write(LEVEL_3, `Allocatables:\n${'  '.repeat(4)}Count:\t${count}\n`);
        if (Array.isArray(at(d, 'topologyKeys'))) w.write(LEVEL_3, `Topology Keys:\t[${arr(d, 'topologyKeys').map(String).join(' ')}]\n`);
      }
    }
    maybeEvents(ctx.events, w, ctx.now);
  });
}
