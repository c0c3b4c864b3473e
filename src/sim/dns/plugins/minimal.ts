/**
 * minimal (coredns v1.13.1 plugin/minimal/minimal.go, setup.go): a NOERROR answer leaves with the
 * authority and additional sections emptied; denials (NXDOMAIN, NODATA), errors and delegations
 * are passed on untouched (response.Typify/Classify). The OPT record is re-added from the request
 * by the server's scrub writer (request.SizeAndDo), so EDNS survives.
 */
import type { DnsMessage } from '../message.js';
import { nextOrFailure, type PluginDef } from '../plugin.js';

/** response.Typify reduced to the classes minimal distinguishes. */
export function typify(m: DnsMessage): 'NoError' | 'NoData' | 'NameError' | 'ServerError' | 'Delegation' | 'OtherError' | 'Meta' {
  const qt = m.question[0]?.type;
  if (qt === 'AXFR' || qt === 'IXFR') return 'Meta';
  if (m.answer.length > 0 && m.rcode === 'NOERROR') return 'NoError';
  const soa = m.authority.some((r) => r.type === 'SOA');
  const ns = m.authority.filter((r) => r.type === 'NS').length;
  if (soa && m.rcode === 'NOERROR') return 'NoData';
  if (soa && m.rcode === 'NXDOMAIN') return 'NameError';
  if (m.rcode === 'SERVFAIL' || m.rcode === 'NOTIMP') return 'ServerError';
  if (ns > 0 && m.rcode === 'NOERROR') return 'Delegation';
  if (m.rcode === 'NOERROR') return 'NoError';
  return 'OtherError';
}

export const minimalPlugin: PluginDef = {
  name: 'minimal',
  setup(c) {
    c.next();
    if (c.nextArg()) throw c.argErr();
    return {
      name: 'minimal',
      serve(req, next) {
        const res = nextOrFailure('minimal', next, req);
        if (!res.reply) return res;
        const ty = typify(res.reply);
        if (ty !== 'NoError') {
          if (ty === 'Meta') return { ...res, error: `plugin/minimal: unhandled response type "${ty}" for "${res.reply.question[0]?.name ?? ''}"` };
          return res;
        }
        return { ...res, reply: { ...res.reply, authority: [], additional: [] } };
      },
    };
  },
};
