/**
 * `kubectl create role|clusterrole|rolebinding|clusterrolebinding`
 * (k8s.io/kubectl pkg/cmd/create/create_role.go, create_clusterrole.go, create_rolebinding.go,
 * create_clusterrolebinding.go). Resources resolve through discovery (`po` → pods, `deploy` →
 * deployments in `apps`); one rule per API group, groups sorted.
 */
import type { KObject } from '../../../../sim/api/types.js';
import { KubectlError } from '../../errors.js';
import { list, str } from '../../flags.js';
import { resolveType } from '../../target.js';
import { meta, type GenContext, type Generator } from './types.js';

const VALID_VERBS = ['*', 'get', 'delete', 'list', 'create', 'update', 'patch', 'watch', 'proxy', 'deletecollection', 'use', 'bind', 'escalate', 'impersonate'];
const NON_RESOURCE_VERBS = ['*', 'get', 'post', 'put', 'delete', 'patch', 'head', 'options'];

interface Rule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

function resourceRules(ctx: GenContext, verbs: string[]): Rule[] {
  const byGroup = new Map<string, string[]>();
  for (const spec of list(ctx.p.flags, 'resource')) {
    const slash = spec.indexOf('/');
    const [res, sub] = slash >= 0 ? [spec.slice(0, slash), spec.slice(slash + 1)] : [spec, ''];
    if (res === '*') {
      const g = byGroup.get('') ?? [];
      if (!g.includes('*')) g.push('*');
      byGroup.set('', g);
      continue;
    }
    const info = resolveType(res, ctx.env.cluster.discovery(), ctx.env.shortNames);
    const name = sub ? `${info.resource}/${sub}` : info.resource;
    const g = byGroup.get(info.group) ?? [];
    if (!g.includes(name)) g.push(name);
    byGroup.set(info.group, g);
  }
  const names = list(ctx.p.flags, 'resource-name');
  return [...byGroup.keys()].sort().map((group) => ({
    verbs: [...verbs],
    apiGroups: [group],
    resources: byGroup.get(group)!,
    ...(names.length > 0 ? { resourceNames: [...names] } : {}),
  }));
}

function checkVerbs(ctx: GenContext, verbs: string[], nonResource: boolean): void {
  if (verbs.length === 0) throw new KubectlError('at least one verb must be specified');
  for (const v of verbs) {
    if (nonResource && !NON_RESOURCE_VERBS.includes(v)) throw new KubectlError(`invalid verb: '${v}' for nonResourceURL`);
    if (!nonResource && !VALID_VERBS.includes(v)) ctx.warnings.push(`Warning: '${v}' is not a standard resource verb\n`);
  }
}


export const roleGenerator: Generator = {
  name: 'role',
  path: 'create role',
  build(ctx) {
    const verbs = list(ctx.p.flags, 'verb');
    checkVerbs(ctx, verbs, false);
    if (list(ctx.p.flags, 'resource').length === 0) throw new KubectlError('at least one resource must be specified');
    return { kind: 'Role', apiVersion: 'rbac.authorization.k8s.io/v1', metadata: meta(ctx), rules: resourceRules(ctx, verbs) } as KObject;
  },
};

export const clusterRoleGenerator: Generator = {
  name: 'clusterrole',
  path: 'create clusterrole',
  build(ctx) {
    const verbs = list(ctx.p.flags, 'verb');
    const urls = list(ctx.p.flags, 'non-resource-url');
    const aggregation = str(ctx.p.flags, 'aggregation-rule');
    if (aggregation) {
      const matchLabels = Object.fromEntries(aggregation.split(',').map((kv) => kv.split('=') as [string, string]));
      return { kind: 'ClusterRole', apiVersion: 'rbac.authorization.k8s.io/v1', metadata: meta(ctx, undefined, false), aggregationRule: { clusterRoleSelectors: [{ matchLabels }] } } as KObject;
    }
    if (verbs.length === 0) throw new KubectlError('at least one verb must be specified');
    const resources = list(ctx.p.flags, 'resource');
    if (resources.length === 0 && urls.length === 0) throw new KubectlError('one of resource or nonResourceURL must be specified');
    if (urls.length > 0) checkVerbs(ctx, verbs, true);
    else checkVerbs(ctx, verbs, false);
    const rules: Rule[] = resources.length > 0 ? resourceRules(ctx, verbs) : [];
    if (urls.length > 0) rules.push({ verbs: [...verbs], nonResourceURLs: [...urls] });
    return { kind: 'ClusterRole', apiVersion: 'rbac.authorization.k8s.io/v1', metadata: meta(ctx, undefined, false), rules } as KObject;
  },
};

interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

function subjects(ctx: GenContext): Subject[] {
  const out: Subject[] = [];
  for (const u of list(ctx.p.flags, 'user')) out.push({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: u });
  for (const g of list(ctx.p.flags, 'group')) out.push({ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: g });
  for (const sa of list(ctx.p.flags, 'serviceaccount')) {
    const parts = sa.split(':');
    if (parts.length !== 2 || !parts[0] || !parts[1]) throw new KubectlError('serviceaccount must be <namespace>:<name>');
    out.push({ kind: 'ServiceAccount', name: parts[1], namespace: parts[0] });
  }
  return out;
}


export const roleBindingGenerator: Generator = {
  name: 'rolebinding',
  path: 'create rolebinding',
  errorPrefix: 'failed to create rolebinding: ',
  build(ctx) {
    const role = str(ctx.p.flags, 'role') ?? '';
    const clusterRole = str(ctx.p.flags, 'clusterrole') ?? '';
    if ((role === '') === (clusterRole === '')) throw new KubectlError('exactly one of clusterrole or role must be specified');
    const subs = subjects(ctx);
    return {
      kind: 'RoleBinding',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: meta(ctx),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: role ? 'Role' : 'ClusterRole', name: role || clusterRole },
      ...(subs.length > 0 ? { subjects: subs } : {}),
    } as KObject;
  },
};

export const clusterRoleBindingGenerator: Generator = {
  name: 'clusterrolebinding',
  path: 'create clusterrolebinding',
  required: ['clusterrole'],
  errorPrefix: 'failed to create clusterrolebinding: ',
  build(ctx) {
    const subs = subjects(ctx);
    return {
      kind: 'ClusterRoleBinding',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: meta(ctx, undefined, false),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: str(ctx.p.flags, 'clusterrole')! },
      ...(subs.length > 0 ? { subjects: subs } : {}),
    } as KObject;
  },
};
