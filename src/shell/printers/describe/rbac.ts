/**
 * Role, ClusterRole, RoleBinding and ClusterRoleBinding: describe.go's RBAC describers, kubectl
 * v1.35. A role's rules are broken down to one verb per (group, resource, name) and compacted back
 * per simple resource (k8s.io/kubectl pkg/util/rbac BreakdownRule, CompactRules), then sorted by
 * the rules' generated String() (SortableRuleSlice); each row prints CombineResourceGroup and Go's
 * `%v` of the lists (`[get list]`, `[]`).
 */
import type { BindingObject, PolicyRule, RoleObject } from '../../../sim/api/rbac.js';
import { LEVEL_0, LEVEL_1, printAnnotationsMultiline, printLabelsMultiline, tabbedString } from './writer.js';

/** Go's fmt `%v` of a []string. */
const goList = (xs: readonly string[] | undefined): string => `[${(xs ?? []).join(' ')}]`;

/** rbac.BreakdownRule: one rule per group × resource × verb (× resource name), then per URL × verb. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? [])
    for (const resource of rule.resources ?? [])
      for (const verb of rule.verbs ?? []) {
        if ((rule.resourceNames ?? []).length > 0) for (const name of rule.resourceNames!) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

/** rbac.CompactRules: rules on one group/resource (and at most one name) merge their verbs. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    const isSimple = (r.resourceNames ?? []).length <= 1 && (r.nonResourceURLs ?? []).length === 0 && (r.apiGroups ?? []).length === 1 && (r.resources ?? []).length === 1;
    if (!isSimple) {
      compacted.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups![0], r.resources![0], r.resourceNames?.[0] ?? null]);
    const existing = simple.get(key);
    if (!existing) simple.set(key, { ...r, verbs: [...(r.verbs ?? [])] });
    else for (const v of r.verbs ?? []) if (!existing.verbs.includes(v)) existing.verbs.push(v);
  }
  return [...compacted, ...simple.values()];
}

/** The generated PolicyRule.String() that SortableRuleSlice compares. */
function ruleString(r: PolicyRule): string {
  return `&PolicyRule{Verbs:${goList(r.verbs)},APIGroups:${goList(r.apiGroups)},Resources:${goList(r.resources)},ResourceNames:${goList(r.resourceNames)},NonResourceURLs:${goList(r.nonResourceURLs)},}`;
}

/** describe.go CombineResourceGroup: `resource.group/subresource`. */
export function combineResourceGroup(resources: readonly string[] | undefined, groups: readonly string[] | undefined): string {
  if (!resources || resources.length === 0) return '';
  const [base, sub] = [resources[0]!.split('/')[0]!, resources[0]!.includes('/') ? resources[0]!.slice(resources[0]!.indexOf('/') + 1) : undefined];
  let combine = base;
  if (groups && groups.length > 0 && groups[0] !== '') combine += `.${groups[0]}`;
  if (sub !== undefined) combine += `/${sub}`;
  return combine;
}

export function describeRole(role: RoleObject): string {
  const rows = compactRules((role.rules ?? []).flatMap(breakdownRule)).sort((a, b) => {
    const x = ruleString(a);
    const y = ruleString(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${role.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', role.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', role.metadata.annotations);
    w.write(LEVEL_0, 'PolicyRule:\n');
    w.write(LEVEL_1, 'Resources\tNon-Resource URLs\tResource Names\tVerbs\n');
    w.write(LEVEL_1, '---------\t-----------------\t--------------\t-----\n');
    for (const r of rows) w.write(LEVEL_1, `${combineResourceGroup(r.resources, r.apiGroups)}\t${goList(r.nonResourceURLs)}\t${goList(r.resourceNames)}\t${goList(r.verbs)}\n`);
  });
}

export function describeRoleBinding(binding: BindingObject): string {
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${binding.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', binding.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', binding.metadata.annotations);
    w.write(LEVEL_0, 'Role:\n');
    w.write(LEVEL_1, `Kind:\t${binding.roleRef.kind}\n`);
    w.write(LEVEL_1, `Name:\t${binding.roleRef.name}\n`);
    w.write(LEVEL_0, 'Subjects:\n');
    w.write(LEVEL_1, 'Kind\tName\tNamespace\n');
    w.write(LEVEL_1, '----\t----\t---------\n');
    for (const s of binding.subjects ?? []) w.write(LEVEL_1, `${s.kind}\t${s.name}\t${s.namespace ?? ''}\n`);
  });
}
