/**
 * HorizontalPodAutoscalers: printers.go horizontalPodAutoscalerColumnDefinitions,
 * printHorizontalPodAutoscaler and formatHPAMetrics (TARGETS `cpu: 30%/50%`, `<unknown>` before
 * the first metrics, at most two metrics then `+ N more...`); reference §4.21.
 */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, arr, at, num, optNum, str } from './cells.js';
import type { KindPrinter } from './types.js';

interface Target {
  averageUtilization?: number;
  averageValue?: string;
  value?: string;
}

function formatMetrics(specs: unknown[], statuses: unknown[]): string {
  if (specs.length === 0) return '<none>';
  const list = specs.map((spec, i) => {
    const type = str(spec, 'type');
    const cur = statuses[i];
    if (type === 'Resource' || type === 'ContainerResource') {
      const key = type === 'Resource' ? 'resource' : 'containerResource';
      const name = str(spec, key, 'name');
      const target = (at(spec, key, 'target') ?? {}) as Target;
      const current = at(cur, key, 'current') as { averageUtilization?: number; averageValue?: string } | undefined;
      if (target.averageValue !== undefined) return `${name}: ${current?.averageValue ?? '<unknown>'}/${target.averageValue}`;
      const c = current?.averageUtilization !== undefined ? `${current.averageUtilization}%` : '<unknown>';
      return `${name}: ${c}/${target.averageUtilization !== undefined ? `${target.averageUtilization}%` : '<auto>'}`;
    }
    return '<unknown type>';
  });
  return list.length > 2 ? `${list.slice(0, 2).join(', ')} + ${list.length - 2} more...` : list.join(', ');
}

export const horizontalpodautoscalers: KindPrinter = {
  columns: [NAME, { name: 'Reference' }, { name: 'Targets' }, { name: 'MinPods' }, { name: 'MaxPods' }, { name: 'Replicas' }, AGE],
  row(obj, now) {
    const min = optNum(obj, 'spec', 'minReplicas');
    return [
      obj.metadata.name,
      `${str(obj, 'spec', 'scaleTargetRef', 'kind')}/${str(obj, 'spec', 'scaleTargetRef', 'name')}`,
      formatMetrics(arr(obj, 'spec', 'metrics'), arr(obj, 'status', 'currentMetrics')),
      min === undefined ? '<unset>' : String(min),
      String(num(obj, 'spec', 'maxReplicas')),
      String(num(obj, 'status', 'currentReplicas')),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
