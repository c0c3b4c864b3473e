/**
 * `dns`: a lookup through the whole DNS path (the place's resolv.conf, the kube-dns Service,
 * kube-proxy, a CoreDNS pod and its Corefile), sent with `dig` where the place has it and with
 * `nslookup` otherwise, as a learner would. The result is read back from the client's own output
 * (dig's `status:` header and ANSWER SECTION; nslookup's `** server can't find …: RCODE` and
 * `Address:` lines), then compared: rcode, and optionally the answer set or a substring.
 */
import { z } from 'zod/v4';
import { BASE_FIELDS, PlaceSchema, clip, defineCheck, placeLabel } from './types.js';
import { pickTool } from './client.js';

export interface DnsResult {
  /** NOERROR, NXDOMAIN, SERVFAIL, REFUSED, … or TIMEOUT when no server answered. */
  rcode: string;
  answers: string[];
}

/** Parse `dig NAME TYPE` output (BIND 9 dig, bin/dig/dighost.c printmessage). */
export function parseDig(out: string): DnsResult {
  if (/no servers could be reached|connection timed out/.test(out)) return { rcode: 'TIMEOUT', answers: [] };
  const status = /status: ([A-Z]+)/.exec(out)?.[1] ?? 'UNKNOWN';
  const answers: string[] = [];
  let inAnswer = false;
  for (const line of out.split('\n')) {
    if (line.startsWith(';; ANSWER SECTION:')) inAnswer = true;
    else if (line.trim() === '' || line.startsWith(';')) inAnswer = false;
    else if (inAnswer) {
      const f = line.split(/\s+/);
      if (f.length >= 5) answers.push(f.slice(4).join(' '));
    }
  }
  return { rcode: status, answers };
}

/** Parse busybox or bind9 `nslookup NAME` output (busybox networking/nslookup.c, bind9 bin/dig/nslookup.c). */
export function parseNslookup(out: string, type: string): DnsResult {
  if (/connection timed out|no servers could be reached/.test(out)) return { rcode: 'TIMEOUT', answers: [] };
  const fail = /\*\* server can't find [^:]+: ([A-Z]+)/.exec(out);
  if (fail) return { rcode: fail[1]!, answers: [] };
  const answers: string[] = [];
  let named = false;
  for (const line of out.split('\n')) {
    if (line.startsWith('Name:')) named = true;
    else if (named && line.startsWith('Address:')) {
      const a = line.slice('Address:'.length).trim();
      if (type === 'AAAA' ? a.includes(':') : !a.includes(':')) answers.push(a);
    } else if (named && /canonical name = (.*)\.?$/.test(line) && type === 'CNAME') answers.push(/canonical name = (.*?)\.?$/.exec(line)![1]!);
  }
  return { rcode: 'NOERROR', answers };
}

export const dnsCheck = defineCheck({
  kind: 'dns',
  runsLines: true,
  schema: z.strictObject({
    ...BASE_FIELDS,
    kind: z.literal('dns'),
    from: PlaceSchema.optional(),
    name: z.string().min(1),
    type: z.enum(['A', 'AAAA', 'CNAME', 'SRV', 'PTR', 'TXT', 'MX']).default('A'),
    client: z.enum(['dig', 'nslookup']).optional(),
    expect: z.strictObject({
      rcode: z.enum(['NOERROR', 'NXDOMAIN', 'SERVFAIL', 'REFUSED', 'TIMEOUT']).default('NOERROR'),
      /** The exact set of answers (addresses for A/AAAA). */
      answers: z.array(z.string()).optional(),
      /** One of the answers equals this. */
      includes: z.string().optional(),
    }),
  }),
  async evaluate(spec, ctx) {
    const client = spec.client ?? pickTool(ctx.cluster, spec.from, ['dig', 'nslookup']);
    const where = `${spec.name} ${spec.type} from ${placeLabel(spec.from)}`;
    const from = spec.from ? { from: spec.from } : {};
    if (!client)
      return { ok: false, expected: `a lookup of ${where}`, actual: 'the container has neither dig nor nslookup', problem: { code: 'no-tool', ...(spec.from ? { where: spec.from } : {}), tools: 'dig, nslookup' }, evidence: [] };
    const line = client === 'dig' ? `dig ${spec.name} ${spec.type}` : spec.type === 'A' ? `nslookup ${spec.name}` : `nslookup -type=${spec.type} ${spec.name}`;
    const r = await ctx.run(line, spec.from);
    const evidence = [`${r.transcript.join('\n')}\n${clip(r.stdout + r.stderr, 30)}\n(exit ${r.exitCode})`];
    const out = r.stdout + r.stderr;
    if (/not found|executable file not found/.test(out) && r.exitCode === 127)
      return { ok: false, expected: `a lookup of ${where}`, actual: clip(out, 2), problem: { code: 'broken', error: clip(out, 2) }, evidence };
    const res = client === 'dig' ? parseDig(out) : parseNslookup(out, spec.type);
    const e = spec.expect;
    const actual = `${res.rcode}${res.answers.length ? ` ${res.answers.join(', ')}` : ''}`;
    const wantSet = e.answers ? [...e.answers].sort() : undefined;
    const expected = `${where}: ${e.rcode}${wantSet ? ` {${wantSet.join(', ')}}` : ''}${e.includes ? ` including ${e.includes}` : ''}`;
    let ok = res.rcode === e.rcode;
    if (ok && wantSet) {
      const got = [...new Set(res.answers)].sort();
      ok = got.length === wantSet.length && got.every((g, i) => g === wantSet[i]);
    }
    if (ok && e.includes) ok = res.answers.includes(e.includes);
    return { ok, expected, actual, problem: { code: 'lookup', name: spec.name, type: spec.type, ...from, actual }, evidence };
  },
});
