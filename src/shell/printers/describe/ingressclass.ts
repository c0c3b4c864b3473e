/**
 * IngressClass: k8s.io/kubectl pkg/describe/describe.go IngressClassDescriber
 * describeIngressClassV1 (v1.35): the controller, and the parameters reference when set (its
 * APIGroup only when set).
 */
import type { KObject } from '../../../sim/api/types.js';
import { at, str } from '../columns/cells.js';
import { maybeEvents } from './events.js';
import { LEVEL_0, LEVEL_1, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext } from './writer.js';

export function describeIngressClass(ic: KObject, ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${ic.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', ic.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ic.metadata.annotations);
    w.write(LEVEL_0, `Controller:\t${str(ic, 'spec', 'controller')}\n`);
    const params = at(ic, 'spec', 'parameters');
    if (params && typeof params === 'object') {
      w.write(LEVEL_0, 'Parameters:\n');
      if (typeof at(params, 'apiGroup') === 'string') w.write(LEVEL_1, `APIGroup:\t${str(params, 'apiGroup')}\n`);
      w.write(LEVEL_1, `Kind:\t${str(params, 'kind')}\n`);
      w.write(LEVEL_1, `Name:\t${str(params, 'name')}\n`);
    }
    maybeEvents(ctx.events, w, ctx.now);
  });
}
