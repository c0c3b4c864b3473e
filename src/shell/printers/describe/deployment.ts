/** Deployment: describe.go describeDeployment (:4184), printReplicaSetsByLabels; reference §6.3. */
import type { Deployment, ReplicaSet } from '../../../sim/api/types.js';
import { selectorString } from '../columns/cells.js';
import { rfc1123z } from '../duration.js';
import { describePodTemplate } from './containers.js';
import { maybeEvents } from './events.js';
import { LEVEL_0, LEVEL_1, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext } from './writer.js';

export function replicaSetsByLabels(rss: readonly ReplicaSet[]): string {
  const list = rss.map((rs) => `${rs.metadata.name} (${rs.status?.replicas ?? 0}/${rs.spec.replicas ?? 0} replicas created)`).join(', ');
  return list === '' ? '<none>' : list;
}

export function describeDeployment(d: Deployment, ctx: DescribeContext): string {
  return tabbedString((w) => {
    const st = d.status ?? {};
    w.write(LEVEL_0, `Name:\t${d.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${d.metadata.namespace ?? ''}\n`);
    w.write(LEVEL_0, `CreationTimestamp:\t${d.metadata.creationTimestamp ? rfc1123z(d.metadata.creationTimestamp) : 'Mon, 01 Jan 0001 00:00:00 +0000'}\n`);
    printLabelsMultiline(w, 'Labels', d.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', d.metadata.annotations);
    w.write(LEVEL_0, `Selector:\t${selectorString(d.spec.selector)}\n`);
    w.write(
      LEVEL_0,
      `Replicas:\t${d.spec.replicas ?? 0} desired | ${st.updatedReplicas ?? 0} updated | ${st.replicas ?? 0} total | ${st.availableReplicas ?? 0} available | ${st.unavailableReplicas ?? 0} unavailable\n`,
    );
    w.write(LEVEL_0, `StrategyType:\t${d.spec.strategy?.type ?? ''}\n`);
    w.write(LEVEL_0, `MinReadySeconds:\t${d.spec.minReadySeconds ?? 0}\n`);
    const ru = d.spec.strategy?.rollingUpdate;
    if (ru) w.write(LEVEL_0, `RollingUpdateStrategy:\t${String(ru.maxUnavailable ?? 0)} max unavailable, ${String(ru.maxSurge ?? 0)} max surge\n`);
    describePodTemplate(d.spec.template, w);
    const conds = st.conditions ?? [];
    if (conds.length > 0) {
      w.write(LEVEL_0, 'Conditions:\n  Type\tStatus\tReason\n');
      w.write(LEVEL_1, '----\t------\t------\n');
      for (const c of conds) w.write(LEVEL_1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
    }
    const rs = ctx.replicaSets;
    if (rs && (rs.old.length > 0 || rs.new)) {
      w.write(LEVEL_0, `OldReplicaSets:\t${replicaSetsByLabels(rs.old)}\n`);
      w.write(LEVEL_0, `NewReplicaSet:\t${replicaSetsByLabels(rs.new ? [rs.new] : [])}\n`);
    }
    maybeEvents(ctx.events, w, ctx.now);
  });
}
