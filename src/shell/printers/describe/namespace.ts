/**
 * Namespace: describe.go describeNamespace (its deletion conditions while Terminating), DescribeResourceQuotas, DescribeLimitRanges.
 * LimitRange rows are sorted by resource name (upstream iterates a Go map: random order).
 */
import type { KObject, Namespace } from '../../../sim/api/types.js';
import { rec } from '../columns/cells.js';
import { rfc1123z } from '../duration.js';
import { describeLimitRangeSpec } from './resourcequota.js';
import { LEVEL_0, LEVEL_1, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext, type PrefixWriter } from './writer.js';

function describeResourceQuotas(quotas: readonly KObject[], w: PrefixWriter): void {
  if (quotas.length === 0) {
    w.write(LEVEL_0, 'No resource quota.\n');
    return;
  }
  w.write(LEVEL_0, 'Resource Quotas\n');
  for (const q of [...quotas].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))) {
    w.write(LEVEL_1, `Name:\t${q.metadata.name}\n`);
    w.write(LEVEL_1, 'Resource\tUsed\tHard\n');
    w.write(LEVEL_1, '--------\t---\t---\n');
    const hard = rec(q, 'status', 'hard');
    const used = rec(q, 'status', 'used');
    for (const r of Object.keys(hard).sort()) {
      w.write(LEVEL_1, `${r}\t${typeof used[r] === 'string' ? String(used[r]) : '0'}\t${String(hard[r])}\n`);
    }
  }
}

function describeLimitRanges(limitRanges: readonly KObject[], w: PrefixWriter): void {
  if (limitRanges.length === 0) {
    w.write(LEVEL_0, 'No LimitRange resource.\n');
    return;
  }
  w.write(LEVEL_0, 'Resource Limits\n Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n');
  w.write(LEVEL_0, ' ----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n');
  for (const lr of limitRanges) describeLimitRangeSpec(lr, ' ', w);
}

export function describeNamespace(ns: Namespace, ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${ns.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', ns.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ns.metadata.annotations);
    w.write(LEVEL_0, `Status:\t${ns.status?.phase ?? ''}\n`);
    const conditions = ns.status?.conditions ?? [];
    if (conditions.length > 0) {
      w.write(LEVEL_0, 'Conditions:\n');
      w.write(LEVEL_1, 'Type\tStatus\tLastTransitionTime\tReason\tMessage\n');
      w.write(LEVEL_1, '----\t------\t------------------\t------\t-------\n');
      for (const c of conditions) w.write(LEVEL_1, `${c.type}\t${c.status}\t${c.lastTransitionTime ? rfc1123z(c.lastTransitionTime) : 'Mon, 01 Jan 0001 00:00:00 +0000'}\t${c.reason ?? ''}\t${c.message ?? ''}\n`);
    }
    w.write(LEVEL_0, '\n');
    describeResourceQuotas(ctx.resourceQuotas ?? [], w);
    w.write(LEVEL_0, '\n');
    describeLimitRanges(ctx.limitRanges ?? [], w);
  });
}
