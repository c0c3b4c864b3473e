/**
 * A Deployment's rolling-update bounds (kubernetes pkg/controller/deployment/util MaxSurge,
 * MaxUnavailable): maxSurge rounds up, maxUnavailable down, Recreate allows neither, and both
 * zero means one unavailable. Pure functions of the spec, read by the deployment controller and
 * by helm's legacy ready checker.
 */
import type { Deployment } from './types.js';
import { scaledValue } from '../../util/intstr.js';

export function maxSurge(d: Deployment): number {
  if (d.spec.strategy?.type === 'Recreate') return 0;
  return scaledValue(d.spec.strategy?.rollingUpdate?.maxSurge, d.spec.replicas ?? 1, true, 1);
}

export function maxUnavailable(d: Deployment): number {
  if (d.spec.strategy?.type === 'Recreate') return 0;
  const desired = d.spec.replicas ?? 1;
  const mu = scaledValue(d.spec.strategy?.rollingUpdate?.maxUnavailable, desired, false, 0);
  // both zero is not allowed; upstream bumps unavailable to 1
  return mu === 0 && maxSurge(d) === 0 ? 1 : mu;
}
