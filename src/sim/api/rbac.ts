/**
 * The RBAC authorizer as a pure function (plugin/pkg/auth/authorizer/rbac/rbac.go,
 * pkg/registry/rbac/validation/rule.go): a request is allowed when any rule of any role bound to
 * the user (a ClusterRoleBinding anywhere, a RoleBinding in the request's namespace) covers it.
 * Aggregated ClusterRoles (aggregationRule) contribute the rules of the ClusterRoles their
 * selectors match, as the clusterrole-aggregation controller would have copied them. A binding
 * that applies to the user but names a missing role is reported in the deny reason
 * (`RBAC: clusterrole.rbac.authorization.k8s.io "x" not found`).
 */
import { matchLabelSelector } from './selectors.js';
import type { KObject, LabelSelector } from './types.js';

export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface RoleObject extends KObject {
  rules?: PolicyRule[] | null;
  aggregationRule?: { clusterRoleSelectors?: LabelSelector[] };
}

export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount';
  name: string;
  namespace?: string;
  apiGroup?: string;
}

export interface BindingObject extends KObject {
  roleRef: { apiGroup: string; kind: 'Role' | 'ClusterRole'; name: string };
  subjects?: Subject[] | null;
}

/** The RBAC objects the authorizer reads (the informers' caches). */
export interface RbacPolicy {
  roles: RoleObject[];
  clusterRoles: RoleObject[];
  roleBindings: BindingObject[];
  clusterRoleBindings: BindingObject[];
}

/** authorizer.Attributes: a resource request or a non-resource (URL path) request. */
export type RequestAttributes =
  | { verb: string; group: string; resource: string; subresource?: string; name?: string; namespace?: string }
  | { verb: string; path: string };

export interface Decision {
  allowed: boolean;
  /** The deny reason RBAC gives: the bindings that named missing roles. */
  reason: string;
}

const isResource = (a: RequestAttributes): a is Extract<RequestAttributes, { resource: string }> => 'resource' in a;

/** Subjects match as rbac.go appliesToUser does; service accounts by their full user name. */
export function appliesTo(user: UserInfo, s: Subject, bindingNamespace: string | undefined): boolean {
  switch (s.kind) {
    case 'User':
      return s.name === user.username;
    case 'Group':
      return user.groups.includes(s.name);
    case 'ServiceAccount': {
      const ns = s.namespace || bindingNamespace || '';
      return ns !== '' && user.username === `system:serviceaccount:${ns}:${s.name}`;
    }
    default:
      return false;
  }
}

/** A ClusterRole's rules, with those of the roles its aggregationRule selects (recursively). */
export function effectiveRules(role: RoleObject, clusterRoles: readonly RoleObject[], seen = new Set<string>()): PolicyRule[] {
  seen.add(role.metadata.name);
  const own = role.rules ?? [];
  const selectors = role.aggregationRule?.clusterRoleSelectors;
  if (!selectors?.length) return own;
  const out: PolicyRule[] = [...own];
  const key = (r: PolicyRule): string => JSON.stringify(r);
  const have = new Set(out.map(key));
  const matching = clusterRoles.filter((c) => !seen.has(c.metadata.name) && selectors.some((s) => matchLabelSelector(s, c.metadata.labels ?? {}))).sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  for (const c of matching)
    for (const r of effectiveRules(c, clusterRoles, seen)) {
      if (have.has(key(r))) continue;
      have.add(key(r));
      out.push(r);
    }
  return out;
}

const has = (list: readonly string[] | undefined, v: string): boolean => !!list && (list.includes('*') || list.includes(v));

/** rbac.RuleAllows: verbs, groups, resources (a star, `pods/` plus a star, a star plus `/scale`), resourceNames, URLs. */
export function ruleAllows(a: RequestAttributes, r: PolicyRule): boolean {
  if (!has(r.verbs, a.verb)) return false;
  if (!isResource(a)) {
    return (r.nonResourceURLs ?? []).some((u) => u === '*' || u === a.path || (u.endsWith('*') && a.path.startsWith(u.slice(0, -1))));
  }
  if (!has(r.apiGroups, a.group)) return false;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const resOk = (r.resources ?? []).some((res) => res === '*' || res === combined || (a.subresource !== undefined && (res === `${a.resource}/*` || res === `*/${a.subresource}`)));
  if (!resOk) return false;
  if (!r.resourceNames?.length) return true;
  return a.name !== undefined && a.name !== '' && r.resourceNames.includes(a.name);
}

export interface BoundRules {
  rules: PolicyRule[];
  errors: string[];
}

/** Every rule bound to the user for a namespace (undefined: cluster-wide bindings only). */
export function rulesFor(policy: RbacPolicy, user: UserInfo, namespace: string | undefined): BoundRules {
  const rules: PolicyRule[] = [];
  const errors: string[] = [];
  const roleRules = (ref: BindingObject['roleRef'], ns: string | undefined): PolicyRule[] | undefined => {
    if (ref.kind === 'ClusterRole') {
      const cr = policy.clusterRoles.find((c) => c.metadata.name === ref.name);
      return cr ? effectiveRules(cr, policy.clusterRoles) : undefined;
    }
    return policy.roles.find((r) => r.metadata.namespace === ns && r.metadata.name === ref.name)?.rules ?? (policy.roles.some((r) => r.metadata.namespace === ns && r.metadata.name === ref.name) ? [] : undefined);
  };
  const visit = (b: BindingObject, ns: string | undefined): void => {
    if (!(b.subjects ?? []).some((s) => appliesTo(user, s, ns))) return;
    const got = roleRules(b.roleRef, ns);
    if (got) rules.push(...got);
    else errors.push(`${b.roleRef.kind === 'ClusterRole' ? 'clusterrole' : 'role'}.rbac.authorization.k8s.io "${b.roleRef.name}" not found`);
  };
  for (const b of policy.clusterRoleBindings) visit(b, undefined);
  if (namespace) for (const b of policy.roleBindings) if (b.metadata.namespace === namespace) visit(b, namespace);
  return { rules, errors };
}

/** RBACAuthorizer.Authorize. */
export function authorize(policy: RbacPolicy, user: UserInfo, a: RequestAttributes): Decision {
  return decideByRules(rulesFor(policy, user, requestNamespace(a)), a);
}

/** The namespace whose RoleBindings count for a request (rulesFor's `namespace`). */
export function requestNamespace(a: RequestAttributes): string | undefined {
  return isResource(a) ? a.namespace || undefined : undefined;
}

/** authorize() given the rules bound to the user in the request's namespace (rulesFor). */
export function decideByRules({ rules, errors }: BoundRules, a: RequestAttributes): Decision {
  if (rules.some((r) => ruleAllows(a, r))) return { allowed: true, reason: '' };
  const reason = errors.length === 0 ? '' : `RBAC: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`;
  return { allowed: false, reason };
}

/**
 * The Forbidden status text (apiserver endpoints/handlers/responsewriters/errors.go
 * forbiddenMessage, apimachinery errors.NewForbidden): `pods "web" is forbidden: User "jane"
 * cannot get resource "pods" in API group "" in the namespace "dev"`.
 */
export function forbiddenText(user: UserInfo, a: RequestAttributes, reason = ''): string {
  if (!isResource(a)) {
    const msg = `User "${user.username}" cannot ${a.verb} path "${a.path}"`;
    return `forbidden: ${msg}${reason ? `: ${reason}` : ''}`;
  }
  const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const msg = a.namespace
    ? `User "${user.username}" cannot ${a.verb} resource "${res}" in API group "${a.group}" in the namespace "${a.namespace}"`
    : `User "${user.username}" cannot ${a.verb} resource "${res}" in API group "${a.group}" at the cluster scope`;
  const qualified = a.group ? `${a.resource}.${a.group}` : a.resource;
  const subject = a.name ? `${qualified} "${a.name}"` : qualified;
  return `${subject} is forbidden: ${msg}${reason ? `: ${reason}` : ''}`;
}

/**
 * Users the API server never asks RBAC about: members of system:masters (the super-admin
 * kubeconfig) are allowed everything by the privileged-group authorizer in front of RBAC.
 */
export function isPrivileged(user: UserInfo): boolean {
  return user.groups.includes('system:masters');
}
