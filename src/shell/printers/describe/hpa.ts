/**
 * HorizontalPodAutoscaler (autoscaling/v2): k8s.io/kubectl pkg/describe/describe.go
 * describeHorizontalPodAutoscalerV2 and printDirectionBehavior (v1.35): the metrics as
 * `( current / target )`, min/max, the behavior when set, the target's replicas, the conditions.
 */
import type { KObject } from '../../../sim/api/types.js';
import { rfc1123z } from '../duration.js';
import { at, str } from '../columns/cells.js';
import { describeEvents } from './events.js';
import { LEVEL_0, LEVEL_1, LEVEL_2, LEVEL_3, type PrefixWriter, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type DescribeContext } from './writer.js';

interface Target {
  type?: string;
  averageUtilization?: number;
  averageValue?: string;
  value?: string;
}

interface Rules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: string;
  policies?: { type: string; value: number; periodSeconds: number }[];
}

export interface HorizontalPodAutoscaler extends KObject {
  spec: {
    scaleTargetRef: { kind: string; name: string };
    minReplicas?: number;
    maxReplicas: number;
    metrics?: { type: string; resource?: { name: string; target: Target }; containerResource?: { name: string; container: string; target: Target } }[];
    behavior?: { scaleUp?: Rules; scaleDown?: Rules };
  };
  status?: {
    currentReplicas?: number;
    desiredReplicas?: number;
    currentMetrics?: { type: string; resource?: { name: string; current: { averageUtilization?: number; averageValue?: string } } }[] | null;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
  };
}

function printDirection(w: PrefixWriter, direction: string, r: Rules | undefined): void {
  if (!r) return;
  w.write(LEVEL_1, `${direction}:\n`);
  if (r.stabilizationWindowSeconds !== undefined) w.write(LEVEL_2, `Stabilization Window: ${r.stabilizationWindowSeconds} seconds\n`);
  if ((r.policies ?? []).length > 0) {
    w.write(LEVEL_2, `Select Policy: ${r.selectPolicy ?? 'Max'}\n`);
    w.write(LEVEL_2, 'Policies:\n');
    for (const p of r.policies!) w.write(LEVEL_3, `- Type: ${p.type}\tValue: ${p.value}\tPeriod: ${p.periodSeconds} seconds\n`);
  }
}

/** A *resource.Quantity's String(): `<nil>` when unset. */
function q(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : '<nil>';
}

/** The status's quantity at `path`, `<unknown>` when the status has no such metric (`src` unset). */
function current(cur: unknown, src: string, path: readonly string[]): string {
  return at(cur, src) ? q(at(cur, src, ...path)) : '<unknown>';
}

/** `(as a percentage of request):` current and target of a Resource or ContainerResource metric. */
function utilization(w: PrefixWriter, target: unknown, current: unknown): void {
  const u = at(current, 'averageUtilization');
  const cur = typeof u === 'number' ? `${u}% (${q(at(current, 'averageValue'))})` : '<unknown>';
  const t = at(target, 'averageUtilization');
  w.write(LEVEL_1, `(as a percentage of request):\t${cur} / ${typeof t === 'number' ? `${t}%` : '<auto>'}\n`);
}

/**
 * One line of `Metrics:` per describe.go describeHorizontalPodAutoscalerV2's switch on the metric
 * type (External, Pods, Object, Resource, ContainerResource); `cur` is the status's metric at the
 * same index. Metric names print as Go's %q.
 */
function describeMetric(w: PrefixWriter, m: Record<string, unknown>, cur: unknown): void {
  const type = String(m['type'] ?? '');
  switch (type) {
    case 'External': {
      const name = JSON.stringify(str(m, 'external', 'metric', 'name'));
      if (at(m, 'external', 'target', 'averageValue') !== undefined)
        w.write(LEVEL_1, `${name} (target average value):\t${at(cur, 'external', 'current', 'averageValue') !== undefined ? q(at(cur, 'external', 'current', 'averageValue')) : '<unknown>'} / ${q(at(m, 'external', 'target', 'averageValue'))}\n`);
      else w.write(LEVEL_1, `${name} (target value):\t${current(cur, 'external', ['current', 'value'])} / ${q(at(m, 'external', 'target', 'value'))}\n`);
      return;
    }
    case 'Pods':
      w.write(LEVEL_1, `${JSON.stringify(str(m, 'pods', 'metric', 'name'))} on pods:\t${current(cur, 'pods', ['current', 'averageValue'])} / ${q(at(m, 'pods', 'target', 'averageValue'))}\n`);
      return;
    case 'Object': {
      w.write(LEVEL_1, `"${str(m, 'object', 'metric', 'name')}" on ${str(m, 'object', 'describedObject', 'kind')}/${str(m, 'object', 'describedObject', 'name')} `);
      const avg = str(m, 'object', 'target', 'type') === 'AverageValue';
      const field = avg ? 'averageValue' : 'value';
      w.write(LEVEL_0, `(target ${avg ? 'average ' : ''}value):\t${current(cur, 'object', ['current', field])} / ${q(at(m, 'object', 'target', field))}\n`);
      return;
    }
    case 'Resource':
    case 'ContainerResource': {
      const key = type === 'Resource' ? 'resource' : 'containerResource';
      const src = at(m, key);
      w.write(LEVEL_1, type === 'Resource' ? `resource ${str(src, 'name')} on pods` : `resource ${str(src, 'name')} of container "${str(src, 'container')}" on pods`);
      const avg = at(src, 'target', 'averageValue');
      if (avg !== undefined) w.write(LEVEL_0, `:\t${current(cur, key, ['current', 'averageValue'])} / ${q(avg)}\n`);
      else utilization(w, at(src, 'target'), at(cur, key, 'current'));
      return;
    }
    default:
      w.write(LEVEL_1, `<unknown metric type ${JSON.stringify(type)}>\n`);
  }
}

export function describeHorizontalPodAutoscaler(hpa: HorizontalPodAutoscaler, ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${hpa.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${hpa.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', hpa.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', hpa.metadata.annotations);
    w.write(LEVEL_0, `CreationTimestamp:\t${hpa.metadata.creationTimestamp ? rfc1123z(hpa.metadata.creationTimestamp) : 'Mon, 01 Jan 0001 00:00:00 +0000'}\n`);
    w.write(LEVEL_0, `Reference:\t${hpa.spec.scaleTargetRef.kind}/${hpa.spec.scaleTargetRef.name}\n`);
    w.write(LEVEL_0, 'Metrics:\t( current / target )\n');
    const cur = (hpa.status?.currentMetrics ?? []) as unknown[];
    (hpa.spec.metrics ?? []).forEach((m, i) => describeMetric(w, m as unknown as Record<string, unknown>, cur[i]));
    w.write(LEVEL_0, `Min replicas:\t${hpa.spec.minReplicas ?? '<unset>'}\n`);
    w.write(LEVEL_0, `Max replicas:\t${hpa.spec.maxReplicas}\n`);
    if (hpa.spec.behavior) {
      w.write(LEVEL_0, 'Behavior:\n');
      printDirection(w, 'Scale Up', hpa.spec.behavior.scaleUp);
      printDirection(w, 'Scale Down', hpa.spec.behavior.scaleDown);
    }
    w.write(LEVEL_0, `${hpa.spec.scaleTargetRef.kind} pods:\t`);
    w.write(LEVEL_0, `${hpa.status?.currentReplicas ?? 0} current / ${hpa.status?.desiredReplicas ?? 0} desired\n`);
    const conds = hpa.status?.conditions ?? [];
    if (conds.length > 0) {
      w.write(LEVEL_0, 'Conditions:\n');
      w.write(LEVEL_1, 'Type\tStatus\tReason\tMessage\n');
      w.write(LEVEL_1, '----\t------\t------\t-------\n');
      for (const c of conds) w.write(LEVEL_1, `${c.type}\t${c.status}\t${c.reason ?? ''}\t${c.message ?? ''}\n`);
    }
    if (ctx.events) describeEvents(ctx.events, w, ctx.now);
  });
}
