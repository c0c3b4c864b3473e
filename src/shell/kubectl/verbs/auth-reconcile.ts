/**
 * `kubectl auth reconcile -f FILE` (k8s.io/kubectl pkg/cmd/auth/reconcile.go over
 * pkg/registry/rbac/reconciliation reconcile_role.go, reconcile_rolebindings.go and
 * pkg/registry/rbac/validation policy_comparator.go):
 * - a missing Role/ClusterRole/binding is created (a Role's or RoleBinding's namespace too);
 * - an existing role gains the rules it lacks, broken down to one verb × group × resource ×
 *   name each (Covers/BreakdownRule), or with --remove-extra-permissions is set to the file's;
 * - a binding gains missing subjects (or is set to the file's with --remove-extra-subjects); a
 *   different roleRef deletes and recreates it;
 * - labels and annotations merge, the live ones winning; `rbac.authorization.kubernetes.io/autoupdate:
 *   "false"` protects an object.
 * stdout names each object `… reconciled`; stderr says what was required, with Go's `%+v` of
 * the rules and subjects. Other kinds in the file are skipped.
 */
import type { BindingObject, PolicyRule, RoleObject, Subject } from '../../../sim/api/rbac.js';
import type { KObject } from '../../../sim/api/types.js';
import { ApiError } from '../../../sim/api/errors.js';
import type { KubectlEnv, Verb } from '../context.js';
import type { ShellResult } from '../../commands/types.js';
import { errorResult, KubectlError } from '../errors.js';
import { bool, list, str } from '../flags.js';
import { parseDryRun } from '../dry-run.js';
import { manifestNamespace, readManifests } from '../manifest.js';
import { printObject } from '../printobj.js';
import { namespaceOf } from '../target.js';

type Chunk = NonNullable<ShellResult['chunks']>[number];

const AUTOUPDATE = 'rbac.authorization.kubernetes.io/autoupdate';
type Operation = 'none' | 'create' | 'update' | 'recreate';

/** policy_comparator.go BreakdownRule: one rule per group × resource × verb (× name), per URL × verb. */
export function breakdownRule(r: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const g of r.apiGroups ?? [])
    for (const res of r.resources ?? [])
      for (const v of r.verbs) {
        if (r.resourceNames?.length) for (const n of r.resourceNames) out.push({ verbs: [v], apiGroups: [g], resources: [res], resourceNames: [n] });
        else out.push({ verbs: [v], apiGroups: [g], resources: [res] });
      }
  for (const u of r.nonResourceURLs ?? []) for (const v of r.verbs) out.push({ verbs: [v], nonResourceURLs: [u] });
  return out;
}

const has = (set: readonly string[] | undefined, v: string): boolean => (set ?? []).includes(v);
const hasAll = (set: readonly string[] | undefined, vs: readonly string[] | undefined): boolean => (vs ?? []).every((v) => has(set, v));

function resourceCoversAll(set: readonly string[] | undefined, covers: readonly string[] | undefined): boolean {
  if (has(set, '*') || hasAll(set, covers)) return true;
  return (covers ?? []).every((path) => has(set, path) || (path.includes('/') && has(set, `*/${path.slice(path.indexOf('/') + 1)}`)));
}

function urlCovers(owner: string, sub: string): boolean {
  return owner === sub || (owner.endsWith('*') && sub.startsWith(owner.replace(/\*+$/, '')));
}

/** policy_comparator.go ruleCovers. */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, '*') || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, '*') || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources, sub.resources);
  const urls = (sub.nonResourceURLs ?? []).every((p) => (owner.nonResourceURLs ?? []).some((o) => urlCovers(o, p)));
  const names = !sub.resourceNames?.length ? !owner.resourceNames?.length : !owner.resourceNames?.length || hasAll(owner.resourceNames, sub.resourceNames);
  return verbs && groups && resources && names && urls;
}

/** policy_comparator.go Covers: the broken-down servant rules no owner rule covers. */
export function uncovered(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): PolicyRule[] {
  return servant.flatMap(breakdownRule).filter((s) => !owner.some((o) => ruleCovers(o, s)));
}

/** Go's `%+v` of a []string: elements joined by spaces (an empty string prints as nothing). */
const goList = (v: readonly string[] | undefined): string => `[${(v ?? []).join(' ')}]`;

export function formatRule(r: PolicyRule): string {
  return `{Verbs:${goList(r.verbs)} APIGroups:${goList(r.apiGroups)} Resources:${goList(r.resources)} ResourceNames:${goList(r.resourceNames)} NonResourceURLs:${goList(r.nonResourceURLs)}}`;
}

export function formatSubject(s: Subject): string {
  return `{Kind:${s.kind} APIGroup:${s.apiGroup ?? ''} Name:${s.name} Namespace:${s.namespace ?? ''}}`;
}

/** rbac v1 SetDefaults_Subject: users and groups are in the rbac API group. */
function defaultSubject(s: Subject): Subject {
  if ((s.kind === 'User' || s.kind === 'Group') && !s.apiGroup) return { ...s, apiGroup: 'rbac.authorization.k8s.io' };
  if (s.kind === 'ServiceAccount' && s.apiGroup === undefined) return { ...s, apiGroup: '' };
  return s;
}

const sameSubject = (a: Subject, b: Subject): boolean => a.kind === b.kind && (a.apiGroup ?? '') === (b.apiGroup ?? '') && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '');

interface Result {
  obj: KObject;
  operation: Operation;
  protected: boolean;
  missingRules: PolicyRule[];
  extraRules: PolicyRule[];
  missingSubjects: Subject[];
  extraSubjects: Subject[];
}

/** reconciliation merge(expected, existing): the live value of a key wins. */
function mergeMeta(live: KObject, expected: KObject): { labels?: Record<string, string>; annotations?: Record<string, string>; changed: boolean } {
  const labels = { ...(expected.metadata.labels ?? {}), ...(live.metadata.labels ?? {}) };
  const annotations = { ...(expected.metadata.annotations ?? {}), ...(live.metadata.annotations ?? {}) };
  const changed = JSON.stringify(labels) !== JSON.stringify(live.metadata.labels ?? {}) || JSON.stringify(annotations) !== JSON.stringify(live.metadata.annotations ?? {});
  return { ...(Object.keys(labels).length ? { labels } : {}), ...(Object.keys(annotations).length ? { annotations } : {}), changed };
}

function withMeta(obj: KObject, m: ReturnType<typeof mergeMeta>): KObject {
  const metadata = { ...obj.metadata };
  if (m.labels) metadata.labels = m.labels;
  if (m.annotations) metadata.annotations = m.annotations;
  return { ...obj, metadata };
}

function reconcileRole(live: RoleObject | undefined, expected: RoleObject, removeExtra: boolean): Result {
  const base = { missingSubjects: [], extraSubjects: [] };
  if (!live) return { ...base, obj: expected, operation: 'create', protected: false, missingRules: expected.rules ?? [], extraRules: [] };
  const m = mergeMeta(live, expected);
  let obj = withMeta(live, m) as RoleObject;
  let operation: Operation = m.changed ? 'update' : 'none';
  const aggregated = !!(expected as { aggregationRule?: unknown }).aggregationRule && !!(live as { aggregationRule?: unknown }).aggregationRule;
  const extraRules = aggregated ? [] : uncovered(expected.rules ?? [], live.rules ?? []);
  const missingRules = uncovered(live.rules ?? [], expected.rules ?? []);
  if (!removeExtra && missingRules.length) {
    obj = { ...obj, rules: [...(obj.rules ?? []), ...missingRules] };
    operation = 'update';
  } else if (removeExtra && (missingRules.length || extraRules.length)) {
    obj = { ...obj, rules: expected.rules ?? [] };
    operation = 'update';
  }
  return { ...base, obj, operation, protected: live.metadata.annotations?.[AUTOUPDATE] === 'false', missingRules, extraRules };
}

function reconcileBinding(live: BindingObject | undefined, expected: BindingObject, removeExtra: boolean): Result {
  const base = { missingRules: [], extraRules: [] };
  const want = (expected.subjects ?? []).map(defaultSubject);
  const exp = { ...expected, subjects: want } as BindingObject;
  if (!live) return { ...base, obj: exp, operation: 'create', protected: false, missingSubjects: want, extraSubjects: [] };
  const prot = live.metadata.annotations?.[AUTOUPDATE] === 'false';
  const ref = (b: BindingObject): string => `${b.roleRef.apiGroup}/${b.roleRef.kind}/${b.roleRef.name}`;
  if (ref(live) !== ref(exp)) return { ...base, obj: exp, operation: 'recreate', protected: prot, missingSubjects: [], extraSubjects: [] };
  const m = mergeMeta(live, exp);
  let obj = withMeta(live, m) as BindingObject;
  let operation: Operation = m.changed ? 'update' : 'none';
  const have = live.subjects ?? [];
  const missingSubjects = want.filter((s) => !have.some((h) => sameSubject(h, s)));
  const extraSubjects = have.filter((h) => !want.some((s) => sameSubject(h, s)));
  if (!removeExtra && missingSubjects.length) {
    obj = { ...obj, subjects: [...have, ...missingSubjects] };
    operation = 'update';
  } else if (removeExtra && (missingSubjects.length || extraSubjects.length)) {
    obj = { ...obj, subjects: want };
    operation = 'update';
  }
  return { ...base, obj, operation, protected: prot, missingSubjects, extraSubjects };
}

/** RoleModifier / RoleBindingClientAdapter tryEnsureNamespace: a missing namespace is created. */
function ensureNamespace(env: KubectlEnv, ns: string | undefined): void {
  if (!ns || env.api.tryGet('Namespace', undefined, ns)) return;
  try {
    env.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  } catch (e) {
    if (!(e instanceof ApiError && e.reason === 'AlreadyExists')) throw e;
  }
}

function withoutVersion(obj: KObject): KObject {
  const { resourceVersion: _rv, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

function persist(env: KubectlEnv, r: Result): KObject {
  const { kind, metadata } = r.obj;
  switch (r.operation) {
    case 'create':
      ensureNamespace(env, metadata.namespace);
      return env.api.create(r.obj);
    case 'update':
      return env.api.update(r.obj);
    case 'recreate':
      env.api.delete(kind, metadata.namespace, metadata.name ?? '');
      return env.api.create(withoutVersion(r.obj));
    default:
      return r.obj;
  }
}

function report(r: Result, removeExtraSubjects: boolean, removeExtraPermissions: boolean): string {
  if (r.operation === 'none') return '';
  const caveat = r.protected ? ', but object opted out (rbac.authorization.kubernetes.io/autoupdate: false)' : '';
  let s = `\treconciliation required ${r.operation}${caveat}\n`;
  if (r.missingSubjects.length) s += `\tmissing subjects added:\n${r.missingSubjects.map((x) => `\t\t${formatSubject(x)}\n`).join('')}`;
  if (removeExtraSubjects && r.extraSubjects.length) s += `\textra subjects removed:\n${r.extraSubjects.map((x) => `\t\t${formatSubject(x)}\n`).join('')}`;
  if (r.missingRules.length) s += `\tmissing rules added:\n${r.missingRules.map((x) => `\t\t${formatRule(x)}\n`).join('')}`;
  if (removeExtraPermissions && r.extraRules.length) s += `\textra rules removed:\n${r.extraRules.map((x) => `\t\t${formatRule(x)}\n`).join('')}`;
  return s;
}

export const authReconcileVerb: Verb = {
  name: 'auth reconcile',
  async run(inv, env) {
    const p = inv.parsed;
    let stdout = '';
    let stderr = '';
    // each object's line, then what its reconciliation required, in the order kubectl writes them
    const chunks: Chunk[] = [];
    try {
      const files = list(p.flags, 'filename');
      if (files.length === 0 && !str(p.flags, 'kustomize')) throw new KubectlError('must specify one of -f and -k');
      if (p.args.length > 0) throw new KubectlError('no arguments are allowed');
      const dry = parseDryRun(p.flags);
      if (dry.mode === 'server') throw new KubectlError('--dry-run=server for command reconcile is not supported yet');
      const removePerms = bool(p.flags, 'remove-extra-permissions');
      const removeSubjects = bool(p.flags, 'remove-extra-subjects');
      const ns = namespaceOf(env, p);
      for (const { obj } of readManifests(env, files, bool(p.flags, 'recursive'), 'reconcile')) {
        if (!['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'].includes(obj.kind)) continue;
        if (obj.apiVersion !== 'rbac.authorization.k8s.io/v1') throw new KubectlError(`only rbac.authorization.k8s.io/v1 is supported: not *${obj.apiVersion.split('/')[1] ?? ''}.${obj.kind}`);
        const namespace = manifestNamespace(obj, ns, env.cluster.discovery());
        const expected = { ...obj, metadata: { ...obj.metadata, ...(namespace ? { namespace } : {}) } } as KObject;
        const live = env.api.tryGet(obj.kind, namespace, obj.metadata.name ?? '');
        const r = obj.kind.endsWith('Binding')
          ? reconcileBinding(live as BindingObject | undefined, expected as BindingObject, removeSubjects)
          : reconcileRole(live as RoleObject | undefined, expected as RoleObject, removePerms);
        const shown = r.protected || dry.mode === 'client' ? r.obj : persist(env, r);
        const line = printObject(shown, { output: str(p.flags, 'output'), operation: 'reconciled', dryRun: dry.mode === 'client' ? 'client' : 'none', generated: false });
        const said = report(r, removeSubjects, removePerms);
        stdout += line;
        stderr += said;
        chunks.push({ stream: 'stdout', text: line }, { stream: 'stderr', text: said });
      }
      return { stdout, stderr, exitCode: 0, chunks } as ShellResult;
    } catch (e) {
      const r = errorResult(e, 'auth reconcile', stdout);
      return { ...r, stderr: stderr + r.stderr, chunks: [...chunks, { stream: 'stderr', text: r.stderr }] } as ShellResult;
    }
  },
};
