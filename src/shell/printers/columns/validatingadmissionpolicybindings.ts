/**
 * ValidatingAdmissionPolicyBindings: printers.go validatingAdmissionPolicyBinding columns (Name,
 * PolicyName, ParamRef, Age), printValidatingAdmissionPolicyBinding: PARAMREF is `namespace/name`,
 * `*\/name` without a namespace, the selector's Go String() form without a name, else `<unset>`.
 */
import { translateTimestampSince } from '../duration.js';
import { AGE, NAME, arr, at, str, strMap } from './cells.js';
import type { KindPrinter } from './types.js';

/** The gogo-protobuf String() of a metav1.LabelSelector (generated.pb.go), as `%s` prints it. */
function goSelectorString(sel: unknown): string {
  const labels = strMap(sel, 'matchLabels');
  const ml = Object.keys(labels).sort().map((k) => `${k}: ${labels[k]},`).join('');
  const me = arr(sel, 'matchExpressions')
    .map((e) => `LabelSelectorRequirement{Key:${str(e, 'key')},Operator:${str(e, 'operator')},Values:[${arr(e, 'values').join(' ')}],},`)
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${ml}},MatchExpressions:[]LabelSelectorRequirement{${me}},}`;
}

export const validatingadmissionpolicybindings: KindPrinter = {
  columns: [NAME, { name: 'PolicyName' }, { name: 'ParamRef' }, AGE],
  row(obj, now) {
    let paramName = '<unset>';
    const pr = at(obj, 'spec', 'paramRef');
    if (pr !== undefined && pr !== null) {
      const name = str(pr, 'name');
      const sel = at(pr, 'selector');
      if (name !== '') paramName = `${str(pr, 'namespace') || '*'}/${name}`;
      else if (sel !== undefined && sel !== null) paramName = goSelectorString(sel);
    }
    return [obj.metadata.name, str(obj, 'spec', 'policyName'), paramName, translateTimestampSince(obj.metadata.creationTimestamp, now)];
  },
};
