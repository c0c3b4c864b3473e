/**
 * autoscaling/v2 defaulting (k8s.io/kubernetes pkg/apis/autoscaling/v2/defaults.go):
 * minReplicas 1, a CPU Utilization metric of 80 % when no metric is given, and — only when a
 * behavior is set — every unset part of it filled from the default scale-up rules (no
 * stabilization; 4 pods or 100 % per 15 s, the larger) and scale-down rules (300 s window; 100 %
 * per 15 s).
 */
import type { KObject } from './types.js';

interface Rules {
  stabilizationWindowSeconds?: number;
  selectPolicy?: string;
  policies?: { type: string; value: number; periodSeconds: number }[];
}

interface HpaSpec {
  minReplicas?: number;
  metrics?: unknown[];
  behavior?: { scaleUp?: Rules; scaleDown?: Rules };
}

export function defaultAutoscaler(obj: KObject): void {
  if (obj.kind !== 'HorizontalPodAutoscaler') return;
  const spec = (obj['spec'] ??= {}) as HpaSpec;
  spec.minReplicas ??= 1;
  if (!spec.metrics || spec.metrics.length === 0) spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  const b = spec.behavior;
  if (!b) return;
  const up = (b.scaleUp ??= {});
  up.stabilizationWindowSeconds ??= 0;
  up.selectPolicy ??= 'Max';
  up.policies ??= [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ];
  const down = (b.scaleDown ??= {});
  down.stabilizationWindowSeconds ??= 300;
  down.selectPolicy ??= 'Max';
  down.policies ??= [{ type: 'Percent', value: 100, periodSeconds: 15 }];
}
