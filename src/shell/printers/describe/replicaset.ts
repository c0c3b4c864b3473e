/** ReplicaSet: describe.go ReplicaSetDescriber (describeReplicaSet), getPodStatusForController. */
import type { ReplicaSet } from '../../../sim/api/types.js';
import { formatLabelSelector } from '../columns/cells.js';
import { describePodTemplate } from './containers.js';
import { maybeEvents } from './events.js';
import { LEVEL_0, controllerOf, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext } from './writer.js';

export function describeReplicaSet(rs: ReplicaSet, ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${rs.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${rs.metadata.namespace ?? ''}\n`);
    w.write(LEVEL_0, `Selector:\t${formatLabelSelector(rs.spec.selector)}\n`);
    printLabelsMultiline(w, 'Labels', rs.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', rs.metadata.annotations);
    const controlledBy = controllerOf(rs);
    if (controlledBy) w.write(LEVEL_0, `Controlled By:\t${controlledBy}\n`);
    w.write(LEVEL_0, `Replicas:\t${rs.status?.replicas ?? 0} current / ${rs.spec.replicas ?? 0} desired\n`);
    const count = (phase: string): number => (ctx.pods ?? []).filter((p) => p.status?.phase === phase).length;
    w.write(LEVEL_0, 'Pods Status:\t');
    w.write(LEVEL_0, `${count('Running')} Running / ${count('Pending')} Waiting / ${count('Succeeded')} Succeeded / ${count('Failed')} Failed\n`);
    describePodTemplate(rs.spec.template, w);
    maybeEvents(ctx.events, w, ctx.now);
  });
}
