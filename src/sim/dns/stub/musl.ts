/**
 * musl 1.2.x (src/network/lookup_name.c name_from_dns_search): no search when dots ≥ ndots or a
 * trailing dot; otherwise each search domain then the name as is. A and AAAA go together; NXDOMAIN
 * in either reply skips to the next candidate, SERVFAIL/timeout stops (EAI_AGAIN), NOERROR without
 * addresses stops (EAI_NODATA). Alpine images.
 */
import type { RR } from '../message.js';
import type { ResolvConf } from '../resolv-conf.js';
import { resolverOptions } from '../resolv-conf.js';
import { askServers, type StubOutcome } from './glibc.js';
import { countDots, joinName, type QueryFn } from './query.js';

export function muslCandidates(name: string, rc: ResolvConf): string[] {
  const { ndots } = resolverOptions(rc);
  if (name.endsWith('.') || countDots(name) >= ndots) return [name.endsWith('.') ? name : `${name}.`];
  return [...rc.searches.map((d) => joinName(name, d)), `${name}.`];
}

/** Resolve to addresses (A and AAAA), as getaddrinfo does in musl. */
export function muslResolve(name: string, rc: ResolvConf, query: QueryFn): StubOutcome {
  for (const cand of muslCandidates(name, rc)) {
    const a = askServers(rc, cand, 'A', query);
    const aaaa = askServers(rc, cand, 'AAAA', query);
    if (a === 'timeout' || aaaa === 'timeout') return { status: 'TIMEOUT', name: cand };
    if (a === 'refused' || aaaa === 'refused') return { status: 'REFUSED', name: cand };
    if (a.rcode === 'NXDOMAIN' || aaaa.rcode === 'NXDOMAIN') continue;
    if (a.rcode !== 'NOERROR' || aaaa.rcode !== 'NOERROR') return { status: 'SERVFAIL', name: cand };
    const records: RR[] = [...a.answer, ...aaaa.answer].filter((r) => r.type === 'A' || r.type === 'AAAA');
    if (records.length === 0) return { status: 'NODATA', name: cand };
    return { status: 'found', name: cand, reply: a, records };
  }
  return { status: 'NXDOMAIN', name: `${name.replace(/\.$/, '')}.` };
}
