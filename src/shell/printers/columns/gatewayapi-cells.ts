/** Cells the Gateway API kinds' printer columns share. */
import { at, str } from './cells.js';

/** `.status.conditions[?(@.type=="T")].status`, empty when there is no such condition. */
export function conditionStatus(obj: unknown, type: string): string {
  const cs = at(obj, 'status', 'conditions');
  if (!Array.isArray(cs)) return '';
  const hit: unknown = cs.find((x) => str(x, 'type') === type);
  return hit === undefined ? '' : str(hit, 'status');
}
