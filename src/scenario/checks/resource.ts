/**
 * `resource`: an API object exists (or is absent), and optionally a jsonpath over it matches.
 * Reads the object store the way `kubectl get -o jsonpath=…` would print it (the kubectl
 * printer's JsonPath, k8s.io/client-go/util/jsonpath), so authors can test their template with
 * kubectl itself. A target without a name selects a list (`{.items[*]…}`), like `kubectl get pods -l …`.
 */
import { z } from 'zod/v4';
import { BASE_FIELDS, clip, defineCheck } from './types.js';
import { MatcherSchema, match } from './matchers.js';
import { parseLabelSelector, matchRequirements } from '../../sim/api/selectors.js';
import { JsonPath } from '../../shell/printers/jsonpath.js';
import type { KObject } from '../../sim/api/types.js';

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
    })
    .refine((c) => (c.jsonpath === undefined) === (c.expect === undefined), { message: 'jsonpath and expect go together' })
    .refine((c) => !(c.absent && c.jsonpath), { message: 'an absent resource has no jsonpath to match' }),
  evaluate(spec, ctx) {
    const t = spec.target;
    const d = ctx.cluster.discovery();
    if (!d.hasKind(t.kind)) return { ok: false, expected: `a ${t.kind}`, actual: `unknown kind ${t.kind}`, evidence: [] };
    const info = d.infoForKind(t.kind);
    const ns = info.namespaced ? (t.namespace ?? 'default') : undefined;
    const label = `${t.kind}${t.name ? ` ${t.name}` : t.selector ? ` -l ${t.selector}` : 's'}${ns ? ` in namespace ${ns}` : ''}`;
    let data: unknown;
    let found: boolean;
    if (t.name !== undefined) {
      const obj = ctx.cluster.store.get<KObject>(t.kind, ns, t.name);
      found = obj !== undefined && !obj.metadata.deletionTimestamp;
      data = obj;
    } else {
      let sel: ReturnType<typeof parseLabelSelector> | undefined;
      try {
        sel = t.selector ? parseLabelSelector(t.selector) : undefined;
      } catch (e) {
        return { ok: false, expected: `a valid selector`, actual: (e as Error).message, evidence: [] };
      }
      const items = ctx.cluster.store
        .list<KObject>(t.kind, ns)
        .filter((o) => !o.metadata.deletionTimestamp && (!sel || matchRequirements(sel, o.metadata.labels)));
      found = items.length > 0;
      data = { apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } };
    }
    if (spec.absent) return { ok: !found, expected: `${label} absent`, actual: found ? 'it exists' : 'absent', evidence: [] };
    if (!found) return { ok: false, expected: `${label} exists`, actual: 'not found', evidence: [] };
    if (spec.jsonpath === undefined || spec.expect === undefined) return { ok: true, expected: `${label} exists`, actual: 'exists', evidence: [] };
    let text: string;
    try {
      text = new JsonPath(spec.jsonpath).execute(data);
    } catch (e) {
      return { ok: false, expected: `jsonpath ${spec.jsonpath}`, actual: `error: ${(e as Error).message}`, evidence: [] };
    }
    const r = match(text, spec.expect);
    return { ok: r.ok, expected: `${label}: ${spec.jsonpath} ${r.expected}`, actual: r.actual, evidence: [`${spec.jsonpath} → ${clip(text)}`] };
  },
});
