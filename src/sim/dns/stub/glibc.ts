/**
 * glibc's search logic (resolv/res_query.c __res_context_search): as-is first when dots ≥ ndots,
 * then every search domain (continuing on NXDOMAIN, NODATA and SERVFAIL), then as-is last if not yet
 * tried; a trailing dot means as-is only. Used by getaddrinfo tools (ping, curl, wget in Debian
 * images) and `getent hosts`.
 */
import type { DnsMessage, QType, RR } from '../message.js';
import type { ResolvConf } from '../resolv-conf.js';
import { resolverOptions } from '../resolv-conf.js';
import { countDots, joinName, type QueryFn } from './query.js';

export type StubOutcome =
  | { status: 'found'; name: string; reply: DnsMessage; records: RR[] }
  | { status: 'NXDOMAIN' | 'NODATA' | 'SERVFAIL' | 'TIMEOUT' | 'REFUSED'; name: string };

/** Candidate names in glibc order. */
export function glibcCandidates(name: string, rc: ResolvConf): string[] {
  if (name.endsWith('.')) return [name];
  const { ndots } = resolverOptions(rc);
  const dots = countDots(name);
  const out: string[] = [];
  if (dots >= ndots) out.push(`${name}.`);
  for (const d of rc.searches) out.push(joinName(name, d));
  if (dots < ndots) out.push(`${name}.`);
  return out;
}

/**
 * Ask each nameserver in turn (glibc rotates only on timeout/refusal). A truncated UDP answer is
 * asked again of the same server over TCP: glibc resolv/res_send.c send_dg sets v_circuit when TC
 * is set, and musl does the same since 1.2.4 (res_msend.c; Alpine 3.18
 * and later). Recorded with Debian 12's getent: 30 addresses where the UDP answer held 29.
 */
export function askServers(rc: ResolvConf, name: string, type: QType, query: QueryFn): DnsMessage | 'timeout' | 'refused' {
  const servers = rc.nameservers.length > 0 ? rc.nameservers : ['127.0.0.1'];
  let last: 'timeout' | 'refused' = 'timeout';
  for (const s of servers) {
    const udp = query(s, name, type);
    const r = typeof udp !== 'string' && udp.flags.tc ? query(s, name, type, { proto: 'tcp' }) : udp;
    if (r === 'timeout' || r === 'refused') {
      last = r;
      continue;
    }
    return r;
  }
  return last;
}

function answersOf(reply: DnsMessage, type: QType): RR[] {
  return reply.answer.filter((r) => r.type === type || r.type === 'CNAME');
}

export function glibcResolve(name: string, type: QType, rc: ResolvConf, query: QueryFn): StubOutcome {
  let remembered: StubOutcome | undefined;
  for (const cand of glibcCandidates(name, rc)) {
    const r = askServers(rc, cand, type, query);
    if (r === 'timeout') return { status: 'TIMEOUT', name: cand };
    if (r === 'refused') return { status: 'REFUSED', name: cand };
    if (r.rcode === 'NOERROR' && answersOf(r, type).some((x) => x.type === type)) return { status: 'found', name: cand, reply: r, records: answersOf(r, type) };
    if (r.rcode === 'NOERROR') remembered = remembered ?? { status: 'NODATA', name: cand };
    else if (r.rcode === 'SERVFAIL') remembered = { status: 'SERVFAIL', name: cand };
    else if (r.rcode !== 'NXDOMAIN') return { status: 'SERVFAIL', name: cand };
    if (name.endsWith('.')) break;
  }
  return remembered ?? { status: 'NXDOMAIN', name: `${name.replace(/\.$/, '')}.` };
}
