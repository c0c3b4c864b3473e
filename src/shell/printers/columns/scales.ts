/**
 * Scales (autoscaling/v1, what `kubectl get … --subresource=scale` reads): printers.go
 * scaleColumnDefinitions (Name without the name format, Desired, Available, Age) and printScale
 * (spec.replicas, status.replicas).
 */
import type { KObject } from '../../../sim/api/types.js';
import { translateTimestampSince } from '../duration.js';
import { AGE, num } from './cells.js';
import type { KindPrinter } from './types.js';

export const scales: KindPrinter = {
  columns: [{ name: 'Name' }, { name: 'Desired' }, { name: 'Available' }, AGE],
  row(obj: KObject, now) {
    return [obj.metadata.name, String(num(obj, 'spec', 'replicas')), String(num(obj, 'status', 'replicas')), translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
