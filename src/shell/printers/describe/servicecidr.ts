/**
 * ServiceCIDR: k8s.io/kubectl pkg/describe/describe.go ServiceCIDRDescriber describeServiceCIDRV1
 * (v1.35): the CIDRs joined by ", ", then `Status:` and the conditions table (no space before the
 * tabs, unlike the workload describers), when there are conditions.
 */
import type { KObject } from '../../../sim/api/types.js';
import { arr, str } from '../columns/cells.js';
import { rfc1123z } from '../duration.js';
import { maybeEvents } from './events.js';
import { LEVEL_0, LEVEL_1, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext } from './writer.js';

const ZERO_TIME = 'Mon, 01 Jan 0001 00:00:00 +0000';

export function describeServiceCIDR(cidr: KObject, ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${cidr.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', cidr.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', cidr.metadata.annotations);
    w.write(LEVEL_0, `CIDRs:\t${arr(cidr, 'spec', 'cidrs').map(String).join(', ')}\n`);
    const conds = arr(cidr, 'status', 'conditions');
    if (conds.length > 0) {
      w.write(LEVEL_0, 'Status:\n');
      w.write(LEVEL_0, 'Conditions:\n');
      w.write(LEVEL_1, 'Type\tStatus\tLastTransitionTime\tReason\tMessage\n');
      w.write(LEVEL_1, '----\t------\t------------------\t------\t-------\n');
      for (const c of conds) {
        const t = str(c, 'lastTransitionTime');
        w.write(LEVEL_1, `${str(c, 'type')}\t${str(c, 'status')}\t${t ? rfc1123z(t) : ZERO_TIME}\t${str(c, 'reason')}\t${str(c, 'message')}\n`);
      }
    }
    maybeEvents(ctx.events, w, ctx.now);
  });
}
