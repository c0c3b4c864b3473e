/**
 * `file`: a file on a host (the workstation or a node) exists and its content matches, after
 * normalisers (trim, sort-lines, ignore-case). The exam's "write the answer to /opt/course/…" tasks.
 */
import { z } from 'zod/v4';
import { BASE_FIELDS, clip, defineCheck } from './types.js';
import { MatcherSchema, match } from './matchers.js';

export const fileCheck = defineCheck({
  kind: 'file',
  schema: z
    .strictObject({
      ...BASE_FIELDS,
      kind: z.literal('file'),
      host: z.string(),
      path: z.string().startsWith('/'),
      absent: z.boolean().optional(),
      expect: MatcherSchema.optional(),
    })
    .refine((c) => !(c.absent && c.expect), { message: 'an absent file has no content to match' }),
  evaluate(spec, ctx) {
    const host = ctx.cluster.host(spec.host);
    if (!host) return { ok: false, expected: `host ${spec.host}`, actual: 'no such host', problem: { code: 'broken', error: `no such host ${spec.host}` }, evidence: [] };
    const where = `${spec.host}:${spec.path}`;
    const content = host.fs.tryRead(spec.path);
    if (spec.absent)
      return { ok: content === undefined, expected: `${where} absent`, actual: content === undefined ? 'absent' : 'it exists', problem: { code: 'still-there', what: where }, evidence: [] };
    if (content === undefined) return { ok: false, expected: `${where} exists`, actual: 'No such file or directory', problem: { code: 'missing', what: where }, evidence: [] };
    if (!spec.expect) return { ok: true, expected: `${where} exists`, actual: 'exists', problem: { code: 'missing', what: where }, evidence: [] };
    const r = match(content, spec.expect);
    return { ok: r.ok, expected: `${where} ${r.expected}`, actual: r.actual, problem: { code: 'value', what: where, actual: r.actual }, evidence: [`${where}:\n${clip(content)}`] };
  },
});
