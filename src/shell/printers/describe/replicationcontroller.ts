/**
 * ReplicationController: k8s.io/kubectl pkg/describe/describe.go describeReplicationController
 * (v1.35): the selector (a plain map, labels.FormatLabels), replicas, the pods it controls by phase
 * (getPodStatusForController), the pod template, conditions and events.
 */
import type { KObject, Pod, PodTemplateSpec } from '../../../sim/api/types.js';
import { arr, formatLabels, optNum, str, strMap } from '../columns/cells.js';
import { describePodTemplate } from './containers.js';
import { maybeEvents } from './events.js';
import { LEVEL_0, LEVEL_1, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext } from './writer.js';

export function describeReplicationController(rc: KObject, ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${rc.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${rc.metadata.namespace ?? ''}\n`);
    w.write(LEVEL_0, `Selector:\t${formatLabels(strMap(rc, 'spec', 'selector'))}\n`);
    printLabelsMultiline(w, 'Labels', rc.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', rc.metadata.annotations);
    w.write(LEVEL_0, `Replicas:\t${optNum(rc, 'status', 'replicas') ?? 0} current / ${optNum(rc, 'spec', 'replicas') ?? 0} desired\n`);
    const count = (phase: string): number => (ctx.pods ?? []).filter((p: Pod) => p.status?.phase === phase).length;
    w.write(LEVEL_0, `Pods Status:\t${count('Running')} Running / ${count('Pending')} Waiting / ${count('Succeeded')} Succeeded / ${count('Failed')} Failed\n`);
    const template = (rc.spec as { template?: PodTemplateSpec } | undefined)?.template;
    if (template) describePodTemplate(template, w);
    else w.write(LEVEL_0, 'Pod Template:\n  <unset>');
    const conds = arr(rc, 'status', 'conditions');
    if (conds.length > 0) {
      w.write(LEVEL_0, 'Conditions:\n  Type\tStatus\tReason\n');
      w.write(LEVEL_1, '----\t------\t------\n');
      for (const c of conds) w.write(LEVEL_1, `${str(c, 'type')} \t${str(c, 'status')}\t${str(c, 'reason')}\n`);
    }
    maybeEvents(ctx.events, w, ctx.now);
  });
}
