/**
 * `http`: a request from a pod, a node or the workstation, sent with the client a learner would
 * use there (busybox `wget -qO- -T N`, or `curl -s -m N`), so it walks whatever the simulated data
 * plane does: Service VIPs through kube-proxy's rules, NodePorts, pod IPs, NetworkPolicy. Passes
 * when the request succeeds (or, with `succeeds: false`, when it fails) and the body matches.
 */
import { z } from 'zod/v4';
import { BASE_FIELDS, PlaceSchema, clip, defineCheck, placeLabel } from './types.js';
import { MatcherSchema, match } from './matchers.js';
import { pickTool } from './client.js';

export const httpCheck = defineCheck({
  kind: 'http',
  runsLines: true,
  schema: z.strictObject({
    ...BASE_FIELDS,
    kind: z.literal('http'),
    from: PlaceSchema.optional(),
    url: z.string().regex(/^https?:\/\//, 'an http:// or https:// URL'),
    client: z.enum(['wget', 'curl']).optional(),
    timeoutSeconds: z.number().int().min(1).max(30).default(2),
    succeeds: z.boolean().default(true),
    body: MatcherSchema.optional(),
  }),
  async evaluate(spec, ctx) {
    const client = spec.client ?? pickTool(ctx.cluster, spec.from, spec.from && 'pod' in spec.from ? ['wget', 'curl'] : ['curl', 'wget']);
    const where = `${spec.url} from ${placeLabel(spec.from)}`;
    const from = spec.from ? { from: spec.from } : {};
    if (!client)
      return { ok: false, expected: `a request to ${where}`, actual: 'the container has neither wget nor curl', problem: { code: 'no-tool', ...(spec.from ? { where: spec.from } : {}), tools: 'wget, curl' }, evidence: [] };
    const t = spec.timeoutSeconds;
    const line = client === 'wget' ? `wget -qO- -T ${t} ${spec.url}` : `curl -sS -m ${t} ${spec.url}`;
    const r = await ctx.run(line, spec.from);
    const evidence = [`${r.transcript.join('\n')}\n${clip(r.stdout + r.stderr)}\n(exit ${r.exitCode})`];
    const succeeded = r.exitCode === 0;
    if (!spec.succeeds)
      return {
        ok: !succeeded,
        expected: `${where} fails`,
        actual: succeeded ? `it answered: ${clip(r.stdout, 2)}` : `failed: ${clip(r.stderr, 2)}`,
        problem: { code: 'reachable', url: spec.url, ...from },
        evidence,
      };
    const failure = clip(r.stderr || r.stdout, 2);
    if (!succeeded)
      return { ok: false, expected: `${where} answers`, actual: `failed (exit ${r.exitCode}): ${failure}`, problem: { code: 'unreachable', url: spec.url, ...from, error: failure || `exit ${r.exitCode}` }, evidence };
    if (!spec.body) return { ok: true, expected: `${where} answers`, actual: 'answered', problem: { code: 'unreachable', url: spec.url, ...from, error: '' }, evidence };
    const m = match(r.stdout, spec.body);
    return { ok: m.ok, expected: `${where}: body ${m.expected}`, actual: clip(m.actual, 3), problem: { code: 'body', url: spec.url, ...from, actual: clip(m.actual, 3) }, evidence };
  },
});
