/**
 * The Priority admission plugin (plugin/pkg/admission/priority/admission.go):
 *
 * - a new pod naming a PriorityClass that does not exist is refused (`no PriorityClass with name X
 *   was found`); a pod naming none gets the global default class, when there is one; a priority
 *   written into the pod that differs from its class's is refused. (Defaulting, defaults.ts, has
 *   already filled spec.priority from a class it knows.)
 * - a PriorityClass may not become a second global default (`PriorityClass X is already marked as
 *   default. Only one default can exist`).
 */
import type { Pod } from '../types.js';
import type { PriorityClass } from '../priority.js';
import { SYSTEM_PRIORITY_CLASSES } from '../priority.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';
import { admissionForbidden } from './forbidden.js';

function classes(a: AdmissionAttributes): PriorityClass[] {
  return a.store.list<PriorityClass>('PriorityClass');
}

function find(a: AdmissionAttributes, name: string): PriorityClass | undefined {
  return classes(a).find((c) => c.metadata.name === name) ?? SYSTEM_PRIORITY_CLASSES.find((c) => c.metadata.name === name);
}

function globalDefault(a: AdmissionAttributes): PriorityClass | undefined {
  // getDefaultPriority: the default class with the lowest value when several claim it
  return classes(a)
    .filter((c) => c.globalDefault === true)
    .sort((x, y) => x.value - y.value)[0];
}

export const priority: AdmissionPlugin = {
  name: 'Priority',
  mutate(a) {
    if (a.obj.kind !== 'Pod' || a.operation !== 'CREATE') return;
    const spec = (a.obj as Pod).spec;
    let value = 0;
    let policy: string | undefined;
    if (!spec.priorityClassName) {
      const def = globalDefault(a);
      if (def) {
        spec.priorityClassName = def.metadata.name;
        value = def.value;
        policy = def.preemptionPolicy;
        // defaulting filled 0 for a pod without a class: the default class decides instead
        if (spec.priority === 0) spec.priority = value;
      }
    } else {
      const pc = find(a, spec.priorityClassName);
      if (!pc) throw admissionForbidden(a, `no PriorityClass with name ${spec.priorityClassName} was found`);
      value = pc.value;
      // (a class stored before its preemptionPolicy was defaulted has none: the default)
      policy = pc.preemptionPolicy ?? 'PreemptLowerPriority';
      if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== policy)
        throw admissionForbidden(a, `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`);
    }
    if (spec.priority !== undefined && spec.priority !== value)
      throw admissionForbidden(a, `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${value} from the given PriorityClass name`);
    spec.priority = value;
    // the class's policy (defaulting wrote PreemptLowerPriority before any class was known)
    if (policy !== undefined) spec['preemptionPolicy'] = policy;
  },
  validate(a) {
    if (a.obj.kind !== 'PriorityClass') return undefined;
    const pc = a.obj as PriorityClass;
    if (pc.globalDefault !== true) return undefined;
    const other = classes(a).find((c) => c.globalDefault === true && c.metadata.name !== pc.metadata.name);
    return other ? `PriorityClass ${other.metadata.name} is already marked as default. Only one default can exist` : undefined;
  },
};
