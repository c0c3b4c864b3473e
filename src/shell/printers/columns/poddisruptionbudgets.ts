/**
 * PodDisruptionBudget: printers.go podDisruptionBudgetColumnDefinitions and
 * printPodDisruptionBudget: MIN AVAILABLE and MAX UNAVAILABLE as IntOrString (N/A when unset),
 * ALLOWED DISRUPTIONS from the disruption controller's status.
 */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME } from './cells.js';
import type { KindPrinter } from './types.js';

const intOrString = (v: unknown): string => (typeof v === 'number' || typeof v === 'string' ? String(v) : 'N/A');

export const poddisruptionbudgets: KindPrinter = {
  columns: [NAME, { name: 'Min Available' }, { name: 'Max Unavailable' }, { name: 'Allowed Disruptions' }, AGE],
  row(obj, now) {
    const spec = (obj as { spec?: { minAvailable?: unknown; maxUnavailable?: unknown } }).spec ?? {};
    const allowed = (obj as { status?: { disruptionsAllowed?: number } }).status?.disruptionsAllowed ?? 0;
    return [obj.metadata.name, intOrString(spec.minAvailable), intOrString(spec.maxUnavailable), String(allowed), translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
