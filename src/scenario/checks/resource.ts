/**
 * `resource`: an API object exists (or is absent), and optionally a jsonpath over it matches.
 * Reads the object store the way `kubectl get -o jsonpath=…` would print it (the kubectl
 * printer's JsonPath, k8s.io/client-go/util/jsonpath), so authors can test their template with
 * kubectl itself. A target without a name selects a list (`{.items[*]…}`), like `kubectl get pods -l …`.
 * An object being deleted no longer counts as existing; for `absent` it counts as gone only when it
 * goes by itself (a pod in its grace period), not while a finalizer holds it Terminating
 * (sim/api/deletion.ts isGoing).
 *
 * `selects` grades label selectors by what they select, not by how they are written: `matchLabels`
 * and `matchExpressions` (metav1.LabelSelector, k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go
 * LabelSelectorAsSelector) are evaluated against sample label sets, so `app: db` and
 * `{key: app, operator: In, values: [db]}` grade alike.
 */
import { z } from 'zod/v4';
import { BASE_FIELDS, clip, defineCheck } from './types.js';
import { MatcherSchema, match } from './matchers.js';
import { parseLabelSelector, matchRequirements, matchLabelSelector } from '../../sim/api/selectors.js';
import { parsedJsonPath } from '../../shell/printers/jsonpath.js';
import type { KObject, LabelSelector } from '../../sim/api/types.js';
import { isGoing } from '../../sim/api/deletion.js';

const LabelsSchema = z.record(z.string(), z.string());

/** Semantic selector test: see the module comment and {@link selectsCandidate}. */
const SelectsSchema = z.strictObject({
  /** Dotted path from the object to the candidates, `[*]` for every element: `spec`, `spec.egress[*].to[*]`. */
  path: z.string(),
  /** Per selector field of a candidate (e.g. `podSelector`), a label set the selector must select. */
  matches: z.record(z.string(), LabelsSchema),
  /** Per selector field, a label set the selector must not select. */
  rejects: z.record(z.string(), LabelsSchema).optional(),
});

/** Values at a dotted path with `[*]` and `[n]` steps; missing steps yield nothing. */
export function valuesAt(root: unknown, path: string): unknown[] {
  let cur: unknown[] = [root];
  for (const step of path.split('.').filter((x) => x !== '')) {
    const m = /^([^[\]]*)((?:\[(?:\*|\d+)\])*)$/.exec(step);
    if (!m) return [];
    const next: unknown[] = [];
    for (const v of cur) {
      let vals: unknown[] = [m[1] ? (v as Record<string, unknown> | undefined)?.[m[1]] : v];
      for (const idx of m[2]!.match(/\[(\*|\d+)\]/g) ?? []) {
        const i = idx.slice(1, -1);
        vals = vals.flatMap((x) => (Array.isArray(x) ? (i === '*' ? x : [x[Number(i)]]) : []));
      }
      next.push(...vals.filter((x) => x !== undefined && x !== null));
    }
    cur = next;
  }
  return cur;
}

/**
 * One candidate passes when each `matches` selector selects its labels and each `rejects` selector
 * does not. An absent selector field counts as selecting everything: in a NetworkPolicy peer a
 * missing podSelector means every pod of the selected namespaces.
 */
export function selectsCandidate(candidate: unknown, matches: Record<string, Record<string, string>>, rejects: Record<string, Record<string, string>> = {}): boolean {
  const sel = (field: string, labels: Record<string, string>): boolean => {
    const s = (candidate as Record<string, unknown> | undefined)?.[field] as LabelSelector | undefined;
    return s === undefined ? true : matchLabelSelector(s, labels);
  };
  return Object.entries(matches).every(([f, l]) => sel(f, l)) && Object.entries(rejects).every(([f, l]) => !sel(f, l));
}

export const resourceCheck = defineCheck({
  kind: 'resource',
  schema: z
    .strictObject({
      ...BASE_FIELDS,
      kind: z.literal('resource'),
      target: z.strictObject({
        kind: z.string(),
        name: z.string().optional(),
        namespace: z.string().optional(),
        /** Label selector (`app=web,tier!=db`) when no name is given. */
        selector: z.string().optional(),
      }),
      /** Expect the object (or, for a list, every match) to be gone. */
      absent: z.boolean().optional(),
      jsonpath: z.string().optional(),
      expect: MatcherSchema.optional(),
      selects: SelectsSchema.optional(),
    })
    .refine((c) => (c.jsonpath === undefined) === (c.expect === undefined), { message: 'jsonpath and expect go together' })
    .refine((c) => !(c.absent && c.jsonpath), { message: 'an absent resource has no jsonpath to match' })
    .refine((c) => !(c.selects && (c.jsonpath || c.absent || c.target.name === undefined)), { message: 'selects needs a named target and no jsonpath' }),
  evaluate(spec, ctx) {
    const t = spec.target;
    const d = ctx.cluster.discovery();
    if (!d.hasKind(t.kind)) return { ok: false, expected: `a ${t.kind}`, actual: `unknown kind ${t.kind}`, problem: { code: 'broken', error: `unknown kind ${t.kind}` }, evidence: [] };
    const info = d.infoForKind(t.kind);
    const ns = info.namespaced ? (t.namespace ?? 'default') : undefined;
    const label = `${t.kind}${t.name ? ` ${t.name}` : t.selector ? ` -l ${t.selector}` : 's'}${ns ? ` in namespace ${ns}` : ''}`;
    // the learner's wording: identifiers only, the same in every language
    const what = t.name !== undefined ? `${t.kind} ${ns ? `${ns}/` : ''}${t.name}` : `${t.kind}${t.selector ? ` -l ${t.selector}` : ''}${ns ? ` -n ${ns}` : ''}`;
    let data: unknown;
    let found: boolean;
    let gone: boolean;
    if (t.name !== undefined) {
      const obj = ctx.cluster.store.get<KObject>(t.kind, ns, t.name);
      found = obj !== undefined && !obj.metadata.deletionTimestamp;
      gone = obj === undefined || isGoing(obj);
      data = obj;
    } else {
      let sel: ReturnType<typeof parseLabelSelector> | undefined;
      try {
        sel = t.selector ? parseLabelSelector(t.selector) : undefined;
      } catch (e) {
        return { ok: false, expected: `a valid selector`, actual: (e as Error).message, problem: { code: 'broken', error: (e as Error).message }, evidence: [] };
      }
      const selected = ctx.cluster.store.list<KObject>(t.kind, ns).filter((o) => !sel || matchRequirements(sel, o.metadata.labels));
      const items = selected.filter((o) => !o.metadata.deletionTimestamp);
      found = items.length > 0;
      gone = selected.every(isGoing);
      data = { apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } };
    }
    if (spec.absent)
      return {
        ok: gone,
        expected: `${label} absent`,
        actual: gone ? 'absent' : found ? 'it exists' : 'it is Terminating, held by a finalizer',
        problem: { code: found ? 'still-there' : 'held', what },
        evidence: [],
      };
    if (!found) return { ok: false, expected: `${label} exists`, actual: 'not found', problem: { code: 'missing', what }, evidence: [] };
    if (spec.selects) {
      const { path, matches, rejects } = spec.selects;
      const candidates = valuesAt(data, path);
      const ok = candidates.some((c) => selectsCandidate(c, matches, rejects));
      const want = `${label}: a selector at ${path} selecting ${JSON.stringify(matches)}${rejects ? ` and not ${JSON.stringify(rejects)}` : ''}`;
      return {
        ok,
        expected: want,
        actual: ok ? 'found' : `none of ${candidates.length} candidate(s) does`,
        problem: { code: 'no-selector', what, path, candidates: candidates.length },
        evidence: candidates.map((c) => `${path} → ${clip(JSON.stringify(c))}`),
      };
    }
    if (spec.jsonpath === undefined || spec.expect === undefined) return { ok: true, expected: `${label} exists`, actual: 'exists', problem: { code: 'missing', what }, evidence: [] };
    let text: string;
    try {
      text = parsedJsonPath(spec.jsonpath).execute(data);
    } catch (e) {
      return { ok: false, expected: `jsonpath ${spec.jsonpath}`, actual: `error: ${(e as Error).message}`, problem: { code: 'broken', error: `jsonpath ${spec.jsonpath}: ${(e as Error).message}` }, evidence: [] };
    }
    const r = match(text, spec.expect);
    return {
      ok: r.ok,
      expected: `${label}: ${spec.jsonpath} ${r.expected}`,
      actual: r.actual,
      problem: { code: 'value', what: `${what} ${spec.jsonpath}`, actual: r.actual },
      evidence: [`${spec.jsonpath} → ${clip(text)}`],
    };
  },
});
