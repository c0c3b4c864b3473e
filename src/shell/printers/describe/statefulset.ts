/**
 * StatefulSet: describe.go describeStatefulSet and describeVolumeClaimTemplates, kubectl v1.35.
 * Pods Status counts the pods the StatefulSet controls by phase (getPodStatusForController); each
 * claim template prints its class (GetPersistentVolumeClaimClass: the beta annotation, else
 * spec.storageClassName), labels, annotations, requested storage and access modes as Go's `%s`
 * of the list (`[ReadWriteOnce]`).
 */
import type { StatefulSet } from '../../../sim/api/types.js';
import { selectorString } from '../columns/cells.js';
import { rfc1123z } from '../duration.js';
import { describePodTemplate } from './containers.js';
import { maybeEvents } from './events.js';
import { LEVEL_0, LEVEL_1, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext, type PrefixWriter } from './writer.js';

interface ClaimTemplate {
  metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: { storageClassName?: string; accessModes?: string[]; resources?: { requests?: Record<string, string> } };
}

function describeVolumeClaimTemplates(templates: readonly ClaimTemplate[], w: PrefixWriter): void {
  if (templates.length === 0) {
    w.write(LEVEL_0, 'Volume Claims:\t<none>\n');
    return;
  }
  w.write(LEVEL_0, 'Volume Claims:\n');
  for (const pvc of templates) {
    const cls = pvc.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? pvc.spec?.storageClassName ?? '';
    w.write(LEVEL_1, `Name:\t${pvc.metadata?.name ?? ''}\n`);
    w.write(LEVEL_1, `StorageClass:\t${cls}\n`);
    printLabelsMultiline(w, 'Labels', pvc.metadata?.labels, '  ');
    printLabelsMultiline(w, 'Annotations', pvc.metadata?.annotations, '  ');
    w.write(LEVEL_1, `Capacity:\t${pvc.spec?.resources?.requests?.['storage'] ?? '<default>'}\n`);
    w.write(LEVEL_1, `Access Modes:\t[${(pvc.spec?.accessModes ?? []).join(' ')}]\n`);
  }
}

export function describeStatefulSet(ss: StatefulSet, ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${ss.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${ss.metadata.namespace ?? ''}\n`);
    w.write(LEVEL_0, `CreationTimestamp:\t${ss.metadata.creationTimestamp ? rfc1123z(ss.metadata.creationTimestamp) : 'Mon, 01 Jan 0001 00:00:00 +0000'}\n`);
    w.write(LEVEL_0, `Selector:\t${selectorString(ss.spec.selector)}\n`);
    printLabelsMultiline(w, 'Labels', ss.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ss.metadata.annotations);
    w.write(LEVEL_0, `Replicas:\t${ss.spec.replicas ?? 1} desired | ${ss.status?.replicas ?? 0} total\n`);
    const strategy = (ss.spec.updateStrategy ?? {}) as { type?: string; rollingUpdate?: { partition?: number; maxUnavailable?: number | string } };
    w.write(LEVEL_0, `Update Strategy:\t${strategy.type ?? ''}\n`);
    const ru = strategy.rollingUpdate;
    if (ru?.partition !== undefined) {
      w.write(LEVEL_1, `Partition:\t${ru.partition}\n`);
      if (ru.maxUnavailable !== undefined) w.write(LEVEL_1, `MaxUnavailable:\t${String(ru.maxUnavailable)}\n`);
    }
    const count = (phase: string): number => (ctx.pods ?? []).filter((p) => p.status?.phase === phase).length;
    w.write(LEVEL_0, `Pods Status:\t${count('Running')} Running / ${count('Pending')} Waiting / ${count('Succeeded')} Succeeded / ${count('Failed')} Failed\n`);
    describePodTemplate(ss.spec.template, w);
    describeVolumeClaimTemplates((ss.spec.volumeClaimTemplates ?? []) as ClaimTemplate[], w);
    maybeEvents(ctx.events, w, ctx.now);
  });
}
