/**
 * PodDisruptionBudget and PriorityClass: describe.go describePodDisruptionBudgetV1 and
 * describePriorityClass, kubectl v1.35. The budget prints the one bound it has (min available, else
 * max unavailable, as IntOrString's String: `1` or `50%`), its selector as metav1.FormatLabelSelector,
 * and its status counts at the second level; the class prints its annotations on one line
 * (labels.FormatLabels), not as a multi-line block.
 */
import type { KObject, LabelSelector } from '../../../sim/api/types.js';
import { formatLabelSelector, formatLabels } from '../columns/cells.js';
import { maybeEvents } from './events.js';
import { LEVEL_0, LEVEL_2, tabbedString, type DescribeContext } from './writer.js';

export interface PodDisruptionBudget extends KObject {
  spec?: { minAvailable?: number | string; maxUnavailable?: number | string; selector?: LabelSelector };
  status?: { disruptionsAllowed?: number; currentHealthy?: number; desiredHealthy?: number; expectedPods?: number };
}

export interface PriorityClass extends KObject {
  value?: number;
  globalDefault?: boolean;
  preemptionPolicy?: string;
  description?: string;
}

export function describePodDisruptionBudget(pdb: PodDisruptionBudget, ctx: DescribeContext): string {
  return tabbedString((w) => {
    const spec = pdb.spec ?? {};
    const st = pdb.status ?? {};
    w.write(LEVEL_0, `Name:\t${pdb.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${pdb.metadata.namespace ?? ''}\n`);
    if (spec.minAvailable !== undefined) w.write(LEVEL_0, `Min available:\t${String(spec.minAvailable)}\n`);
    else if (spec.maxUnavailable !== undefined) w.write(LEVEL_0, `Max unavailable:\t${String(spec.maxUnavailable)}\n`);
    w.write(LEVEL_0, `Selector:\t${spec.selector ? formatLabelSelector(spec.selector) : '<unset>'}\n`);
    w.write(LEVEL_0, 'Status:\n');
    w.write(LEVEL_2, `Allowed disruptions:\t${st.disruptionsAllowed ?? 0}\n`);
    w.write(LEVEL_2, `Current:\t${st.currentHealthy ?? 0}\n`);
    w.write(LEVEL_2, `Desired:\t${st.desiredHealthy ?? 0}\n`);
    w.write(LEVEL_2, `Total:\t${st.expectedPods ?? 0}\n`);
    maybeEvents(ctx.events, w, ctx.now);
  });
}

export function describePriorityClass(pc: PriorityClass, ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${pc.metadata.name}\n`);
    w.write(LEVEL_0, `Value:\t${pc.value ?? 0}\n`);
    w.write(LEVEL_0, `GlobalDefault:\t${pc.globalDefault === true}\n`);
    w.write(LEVEL_0, `PreemptionPolicy:\t${pc.preemptionPolicy ?? ''}\n`);
    w.write(LEVEL_0, `Description:\t${pc.description ?? ''}\n`);
    w.write(LEVEL_0, `Annotations:\t${formatLabels(pc.metadata.annotations)}\n`);
    maybeEvents(ctx.events, w, ctx.now);
  });
}
