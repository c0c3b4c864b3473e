/**
 * PriorityClasses (scheduling.k8s.io/v1): the two system classes the API server creates at start
 * (pkg/apis/scheduling/helpers.go systemPriorityClasses), and the strategy's validation
 * (pkg/apis/scheduling/validation/validation.go ValidatePriorityClass / ValidatePriorityClassUpdate):
 * the `system-` prefix is reserved for those two, a user class may not exceed
 * HighestUserDefinablePriority, and value and preemptionPolicy never change.
 */
import type { KObject } from './types.js';
import { field, type FieldError } from './errors.js';

export interface PriorityClass extends KObject {
  value: number;
  globalDefault?: boolean;
  description?: string;
  preemptionPolicy?: string;
}

/** pkg/apis/scheduling/types.go HighestUserDefinablePriority. */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
const SYSTEM_CRITICAL = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;

/** The classes kube-apiserver's bootstrap hook creates, as `kubectl get pc -o yaml` shows them. */
export const SYSTEM_PRIORITY_CLASSES: readonly PriorityClass[] = [
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-node-critical' },
    value: SYSTEM_CRITICAL + 1000,
    description: 'Used for system critical pods that must not be moved from their current node.',
    preemptionPolicy: 'PreemptLowerPriority',
  },
  {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'system-cluster-critical' },
    value: SYSTEM_CRITICAL,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
    preemptionPolicy: 'PreemptLowerPriority',
  },
];

/** scheduling.IsKnownSystemPriorityClass: undefined when it is one of them exactly. */
function systemClassError(pc: PriorityClass): string | undefined {
  const known = SYSTEM_PRIORITY_CLASSES.find((s) => s.metadata.name === pc.metadata.name);
  if (!known) return `${pc.metadata.name} is not a known system priority class`;
  if (known.value !== pc.value) return `value of ${pc.metadata.name} PriorityClass must be ${known.value}`;
  if ((pc.globalDefault ?? false) !== (known.globalDefault ?? false)) return `globalDefault of ${pc.metadata.name} PriorityClass must be ${known.globalDefault ?? false}`;
  return undefined;
}

export function validatePriorityClass(pc: PriorityClass, old: PriorityClass | undefined): FieldError[] {
  const errs: FieldError[] = [];
  if (pc.metadata.name.startsWith('system-')) {
    const why = systemClassError(pc);
    if (why) errs.push(field.forbidden('metadata.name', `priority class names with 'system-' prefix are reserved for system use only. error: ${why}`));
  } else if (pc.value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(field.forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  const policies = ['Never', 'PreemptLowerPriority'];
  if (pc.preemptionPolicy !== undefined && !policies.includes(pc.preemptionPolicy)) errs.push(field.notSupported('preemptionPolicy', pc.preemptionPolicy, policies));
  if (old) {
    if (pc.value !== old.value) errs.push(field.forbidden('value', 'may not be changed in an update.'));
    if (pc.preemptionPolicy !== old.preemptionPolicy) errs.push(field.invalid('preemptionPolicy', pc.preemptionPolicy ?? null, 'field is immutable'));
  }
  return errs;
}
