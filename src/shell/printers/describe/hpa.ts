/**
 * HorizontalPodAutoscaler (autoscaling/v2): k8s.io/kubectl pkg/describe/describe.go
 * describeHorizontalPodAutoscalerV2 and printDirectionBehavior: the metrics as
 * `( current / target )`, min/max, the behavior when set, the target's replicas, the conditions.
 */
import type { KObject } from '../../../sim/api/types.js';
import { rfc1123z } from '../duration.js';
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

export function describeHorizontalPodAutoscaler(hpa: HorizontalPodAutoscaler, ctx: DescribeContext): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${hpa.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${hpa.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', hpa.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', hpa.metadata.annotations);
    w.write(LEVEL_0, `CreationTimestamp:\t${hpa.metadata.creationTimestamp ? rfc1123z(hpa.metadata.creationTimestamp) : 'Mon, 01 Jan 0001 00:00:00 +0000'}\n`);
    w.write(LEVEL_0, `Reference:\t${hpa.spec.scaleTargetRef.kind}/${hpa.spec.scaleTargetRef.name}\n`);
    w.write(LEVEL_0, 'Metrics:\t( current / target )\n');
    const cur = hpa.status?.currentMetrics ?? [];
    (hpa.spec.metrics ?? []).forEach((m, i) => {
      if (m.type === 'Resource' && m.resource) {
        w.write(LEVEL_1, `resource ${m.resource.name} on pods`);
        const c = cur[i]?.resource?.current;
        if (m.resource.target.averageValue !== undefined) {
          w.write(LEVEL_0, `:\t${c?.averageValue ?? '<unknown>'} / ${m.resource.target.averageValue}\n`);
        } else {
          const current = c?.averageUtilization !== undefined ? `${c.averageUtilization}% (${c.averageValue ?? '0'})` : '<unknown>';
          const target = m.resource.target.averageUtilization !== undefined ? `${m.resource.target.averageUtilization}%` : '<auto>';
          w.write(LEVEL_1, `(as a percentage of request):\t${current} / ${target}\n`);
        }
      } else w.write(LEVEL_1, `<unknown metric type "${m.type}">\n`);
    });
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
