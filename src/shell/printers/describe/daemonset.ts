/**
 * DaemonSet: describe.go describeDaemonSet, kubectl v1.35. Pods Status counts the pods the
 * DaemonSet controls by phase (getPodStatusForController: Running / Pending as Waiting /
 * Succeeded / Failed); Node-Selector is the template's nodeSelector as labels.FormatLabels prints it.
 */
import type { DaemonSet } from '../../../sim/api/types.js';
import { formatLabels, selectorString } from '../columns/cells.js';
import { describePodTemplate } from './containers.js';
import { maybeEvents } from './events.js';
import { LEVEL_0, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext } from './writer.js';

export function describeDaemonSet(ds: DaemonSet, ctx: DescribeContext): string {
  return tabbedString((w) => {
    const st = ds.status;
    w.write(LEVEL_0, `Name:\t${ds.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${ds.metadata.namespace ?? ''}\n`);
    w.write(LEVEL_0, `Selector:\t${selectorString(ds.spec.selector)}\n`);
    w.write(LEVEL_0, `Node-Selector:\t${formatLabels(ds.spec.template.spec.nodeSelector)}\n`);
    printLabelsMultiline(w, 'Labels', ds.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ds.metadata.annotations);
    w.write(LEVEL_0, `Desired Number of Nodes Scheduled: ${st?.desiredNumberScheduled ?? 0}\n`);
    w.write(LEVEL_0, `Current Number of Nodes Scheduled: ${st?.currentNumberScheduled ?? 0}\n`);
    w.write(LEVEL_0, `Number of Nodes Scheduled with Up-to-date Pods: ${st?.updatedNumberScheduled ?? 0}\n`);
    w.write(LEVEL_0, `Number of Nodes Scheduled with Available Pods: ${st?.numberAvailable ?? 0}\n`);
    w.write(LEVEL_0, `Number of Nodes Misscheduled: ${st?.numberMisscheduled ?? 0}\n`);
    const count = (phase: string): number => (ctx.pods ?? []).filter((p) => p.status?.phase === phase).length;
    w.write(LEVEL_0, `Pods Status:\t${count('Running')} Running / ${count('Pending')} Waiting / ${count('Succeeded')} Succeeded / ${count('Failed')} Failed\n`);
    describePodTemplate(ds.spec.template, w);
    maybeEvents(ctx.events, w, ctx.now);
  });
}
