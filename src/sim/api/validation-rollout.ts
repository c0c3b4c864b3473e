/**
 * The update strategies of Deployments and DaemonSets as kube-apiserver v1.35 validates them
 * (pkg/apis/apps/validation/validation.go ValidateDeploymentStrategy, ValidateRollingUpdateDeployment,
 * ValidateDaemonSetUpdateStrategy, ValidateRollingUpdateDaemonSet, ValidatePositiveIntOrPercent,
 * IsNotMoreThan100Percent). The classic: switching a Deployment to Recreate with a merge patch
 * keeps the defaulted rollingUpdate, which is Forbidden.
 */
import { field, type FieldError } from './errors.js';
import { IS_NEGATIVE } from './validation.js';

type IntOrPercent = number | string | undefined;

const PERCENT_MSG = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/** getIntOrPercentValue: the number before `%`, or the string read as an integer (0 when it is not one). */
function intOrPercentValue(v: IntOrPercent): number {
  if (v === undefined) return 0;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (m) return Number(m[1]);
  return /^[-+]?\d+$/.test(v) ? Number(v) : 0;
}

function positiveIntOrPercent(v: IntOrPercent, path: string): FieldError[] {
  if (typeof v === 'string') return /^[0-9]+%$/.test(v) ? [] : [field.invalid(path, v, PERCENT_MSG)];
  if (typeof v === 'number' && v < 0) return [field.invalid(path, v, IS_NEGATIVE)];
  return [];
}

function notMoreThan100Percent(v: IntOrPercent, path: string): FieldError[] {
  if (typeof v !== 'string' || !/^\d+%$/.test(v) || intOrPercentValue(v) <= 100) return [];
  return [field.invalid(path, v, 'must not be greater than 100%')];
}

interface Strategy {
  type?: string;
  rollingUpdate?: { maxUnavailable?: IntOrPercent; maxSurge?: IntOrPercent };
}

/** ValidateDeploymentStrategy at spec.strategy. */
export function deploymentStrategyErrors(strategy: Strategy | undefined): FieldError[] {
  const s = strategy ?? {};
  const path = 'spec.strategy';
  switch (s.type) {
    case 'Recreate':
      return s.rollingUpdate ? [field.forbidden(`${path}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'")] : [];
    case 'RollingUpdate': {
      const ru = s.rollingUpdate;
      if (!ru) return [field.required(`${path}.rollingUpdate`, 'this should be defaulted and never be nil')];
      const p = `${path}.rollingUpdate`;
      const errs = [...positiveIntOrPercent(ru.maxUnavailable, `${p}.maxUnavailable`), ...positiveIntOrPercent(ru.maxSurge, `${p}.maxSurge`)];
      if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) errs.push(field.invalid(`${p}.maxUnavailable`, ru.maxUnavailable ?? 0, 'may not be 0 when `maxSurge` is 0'));
      errs.push(...notMoreThan100Percent(ru.maxUnavailable, `${p}.maxUnavailable`));
      return errs;
    }
    default:
      return [field.notSupported(path, s, ['Recreate', 'RollingUpdate'], true)];
  }
}

/** ValidateDaemonSetUpdateStrategy at spec.updateStrategy: exactly one of maxUnavailable and maxSurge non-zero. */
export function daemonSetStrategyErrors(strategy: Strategy | undefined): FieldError[] {
  const s = strategy ?? {};
  const path = 'spec.updateStrategy';
  switch (s.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate': {
      const ru = s.rollingUpdate;
      const p = `${path}.rollingUpdate`;
      if (!ru) return [field.required(p)];
      const errs = [
        ...positiveIntOrPercent(ru.maxUnavailable, `${p}.maxUnavailable`),
        ...positiveIntOrPercent(ru.maxSurge, `${p}.maxSurge`),
        ...notMoreThan100Percent(ru.maxUnavailable, `${p}.maxUnavailable`),
        ...notMoreThan100Percent(ru.maxSurge, `${p}.maxSurge`),
      ];
      const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
      const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
      if (hasUnavailable && hasSurge) errs.push(field.invalid(`${p}.maxSurge`, ru.maxSurge, 'may not be set when maxUnavailable is non-zero'));
      else if (!hasUnavailable && !hasSurge) errs.push(field.required(`${p}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
      return errs;
    }
    default:
      return [field.notSupported(path, s, ['RollingUpdate', 'OnDelete'], true)];
  }
}
