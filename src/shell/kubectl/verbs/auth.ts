/**
 * `kubectl auth can-i` and `kubectl auth whoami` (k8s.io/kubectl pkg/cmd/auth/cani.go,
 * whoami.go): a SelfSubjectAccessReview answered `yes`/`no` with exit status 0/1, the
 * SelfSubjectRulesReview table of `--list` (rules broken down, compacted and sorted as
 * pkg/apis/rbac/v1/helpers and pkg/describe do), and the SelfSubjectReview of the caller.
 */
import type { PolicyRule, RequestAttributes } from '../../../sim/api/rbac.js';
import type { KObject } from '../../../sim/api/types.js';
import { Streams } from '../streams.js';
import { renderRows } from '../../printers/tabwriter.js';
import type { Verb } from '../context.js';
import { KubectlError } from '../errors.js';
import { bool, str } from '../flags.js';
import { printObject } from '../printobj.js';
import { namespaceOf, resolveType } from '../target.js';

const RESOURCE_VERBS = new Set(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'use', 'bind', 'impersonate', '*', 'approve', 'sign', 'escalate', 'attest']);
const NON_RESOURCE_VERBS = new Set(['get', 'put', 'post', 'head', 'options', 'delete', 'patch', '*']);
/** Resources can-i accepts without a discovery warning (cani.go nonStandardResourceNames). */
const NON_STANDARD = new Set(['users', 'groups']);

/** BreakdownRule: one rule per group × resource × resourceName, one per URL. */
function breakdown(r: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const g of r.apiGroups ?? [])
    for (const res of r.resources ?? []) {
      if (r.resourceNames?.length) for (const n of r.resourceNames) out.push({ verbs: r.verbs, apiGroups: [g], resources: [res], resourceNames: [n] });
      else out.push({ verbs: r.verbs, apiGroups: [g], resources: [res] });
    }
  for (const u of r.nonResourceURLs ?? []) out.push({ verbs: r.verbs, nonResourceURLs: [u] });
  return out;
}

/** CompactRules: simple resource rules (one group, one resource, no names) merge their verbs. */
function compact(rules: PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    if (r.apiGroups?.length === 1 && r.resources?.length === 1 && !r.resourceNames?.length && !r.nonResourceURLs?.length) {
      const key = `${r.apiGroups[0]}\u0000${r.resources[0]}`;
      const have = simple.get(key);
      if (have) {
        for (const v of r.verbs) if (!have.verbs.includes(v)) have.verbs.push(v);
        continue;
      }
      const copy = { ...r, verbs: [...r.verbs] };
      simple.set(key, copy);
      out.push(copy);
    } else out.push(r);
  }
  return out;
}

/** The generated String() of rbacv1.PolicyRule, which SortableRuleSlice compares. */
function ruleString(r: PolicyRule): string {
  const l = (v?: string[]): string => `[${(v ?? []).join(' ')}]`;
  return `&PolicyRule{Verbs:${l(r.verbs)},APIGroups:${l(r.apiGroups)},Resources:${l(r.resources)},ResourceNames:${l(r.resourceNames)},NonResourceURLs:${l(r.nonResourceURLs)},}`;
}

/** describe.CombineResourceGroup: `deployments.apps`, `pods/log`. */
function combineResourceGroup(resources: string[] = [], groups: string[] = []): string {
  if (resources.length === 0) return '';
  const [head, sub] = resources[0]!.split(/\/(.*)/s) as [string, string | undefined];
  let out = head;
  if (groups.length > 0 && groups[0] !== '') out += `.${groups[0]}`;
  if (sub !== undefined) out += `/${sub}`;
  return out;
}

export const authCanIVerb: Verb = {
  name: 'auth can-i',
  run(inv, env) {
    const p = inv.parsed;
    const args = p.args;
    const listMode = bool(p.flags, 'list');
    const quiet = bool(p.flags, 'quiet');
    const all = bool(p.flags, 'all-namespaces');
    const sub = str(p.flags, 'subresource') ?? '';
    let stderr = '';
    // can_i.go Validate/resourceFor print `Warning: …` with a message of its own ending in a
    // newline, so a blank line follows each, all before the review is sent (kubectl v1.35.2)
    const warn = (m: string, blank = true): void => {
      stderr += `Warning: ${m}\n${blank ? '\n' : ''}`;
    };
    if (listMode) {
      if (args.length !== 0) throw new KubectlError('list option must be specified with no arguments');
      if (quiet || all || sub) throw new KubectlError("list option can't be specified with neither quiet, all-namespaces nor subresource options");
      const ns = namespaceOf(env, p).name;
      const review = env.api.rulesReview(ns);
      if (review.errors.length) warn(`the list may be incomplete: ${review.errors.length === 1 ? review.errors[0] : `[${review.errors.join(', ')}]`}`, false);
      const rules = compact(review.rules.flatMap(breakdown)).sort((a, b) => (ruleString(a) < ruleString(b) ? -1 : ruleString(a) > ruleString(b) ? 1 : 0));
      const l = (v?: string[]): string => `[${(v ?? []).join(' ')}]`;
      const rows = rules.map((r) => [combineResourceGroup(r.resources, r.apiGroups), l(r.nonResourceURLs), l(r.resourceNames), l(r.verbs)]);
      const head = bool(p.flags, 'no-headers') ? [] : [['Resources', 'Non-Resource URLs', 'Resource Names', 'Verbs']];
      return { stdout: renderRows([...head, ...rows]), stderr, exitCode: 0 };
    }
    if (args.length !== 2) throw new KubectlError("you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples.");
    const verb = args[0]!;
    let attrs: RequestAttributes;
    const namespace = all ? '' : namespaceOf(env, p).name;
    if (args[1]!.startsWith('/')) {
      if (sub) throw new KubectlError('--subresource can not be used with NonResourceURL');
      if (!NON_RESOURCE_VERBS.has(verb)) warn(`verb '${verb}' is not a known verb`);
      attrs = { verb, path: args[1]! };
    } else {
      const [type, name] = args[1]!.split(/\/(.*)/s) as [string, string | undefined];
      let group = '';
      let resource = type.toLowerCase();
      let namespaced = true;
      if (type !== '*') {
        try {
          const info = resolveType(type.toLowerCase(), env.cluster.discovery(), env.shortNames);
          group = info.group;
          resource = info.resource;
          namespaced = info.namespaced;
        } catch {
          const [r0, ...g] = resource.split('.');
          if (!NON_STANDARD.has(resource)) warn(g.length ? `the server doesn't have a resource type '${r0}' in group '${g.join('.')}'` : `the server doesn't have a resource type '${resource}'`);
        }
      }
      if (!all && !namespaced) warn(group ? `resource '${resource}' is not namespace scoped in group '${group}'` : `resource '${resource}' is not namespace scoped`);
      if (!all && !RESOURCE_VERBS.has(verb)) warn(`verb '${verb}' is not a known verb`);
      attrs = { verb, group, resource, ...(sub ? { subresource: sub } : {}), ...(name ? { name } : {}), ...(namespace ? { namespace } : {}) };
    }
    if (bool(p.flags, 'no-headers')) throw new KubectlError('--no-headers cannot be set without --list specified');
    const io = new Streams();
    io.err(stderr);
    const d = env.api.review(attrs);
    const text = d.allowed ? 'yes\n' : `no${d.reason ? ` - ${d.reason}` : ''}\n`;
    if (!quiet) io.out(text);
    return io.result(d.allowed ? 0 : 1);
  },
};

export const authWhoamiVerb: Verb = {
  name: 'auth whoami',
  run(inv, env) {
    const p = inv.parsed;
    const user = env.api.user() ?? { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };
    const output = str(p.flags, 'output');
    if (output) {
      const review = {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'SelfSubjectReview',
        metadata: { creationTimestamp: env.cluster.timestamp() },
        status: { userInfo: { ...(user.extra && Object.keys(user.extra).length ? { extra: user.extra } : {}), groups: user.groups, ...(user.uid ? { uid: user.uid } : {}), username: user.username } },
      } as unknown as KObject;
      return { stdout: printObject(review, { output, operation: '', dryRun: 'none', generated: false }), stderr: '', exitCode: 0 };
    }
    const rows: string[][] = [['ATTRIBUTE', 'VALUE'], ['Username', user.username]];
    if (user.uid) rows.push(['UID', user.uid]);
    if (user.groups.length) rows.push(['Groups', `[${user.groups.join(' ')}]`]);
    for (const k of Object.keys(user.extra ?? {}).sort()) rows.push([`Extra: ${k}`, `[${user.extra![k]!.join(' ')}]`]);
    return { stdout: renderRows(rows), stderr: '', exitCode: 0 };
  },
};
