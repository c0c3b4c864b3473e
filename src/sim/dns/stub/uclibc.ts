/**
 * uClibc-ng's resolver (libc/inet/resolv.c __dns_lookup, since commit 03e03e71 "Try search domains
 * first for unqualified names", 2016; the busybox:1.28 image's libc). ndots is ignored:
 *  - a name with a dot is asked as is first, then with each search domain;
 *  - a dotless name is asked with each search domain only (the loop stops at the last domain, so
 *    the bare name is never sent), or as is when there is no search list;
 *  - a trailing dot, or a PTR query, means as is only;
 *  - NXDOMAIN or SERVFAIL moves to the next candidate; NXDOMAIN on the last one is "not found",
 *    SERVFAIL on the last one (or a timeout, refusal, any other rcode) tries the next nameserver
 *    from the first candidate again, `nameservers × attempts` times in all;
 *  - NOERROR without answers stops the search (NO_DATA).
 */
import type { QType, RR } from '../message.js';
import type { ResolvConf } from '../resolv-conf.js';
import { resolverOptions } from '../resolv-conf.js';
import type { StubOutcome } from './glibc.js';
import { joinName, type QueryFn } from './query.js';

export function uclibcCandidates(name: string, type: QType, rc: ResolvConf): string[] {
  const asIs = name.endsWith('.') ? name : `${name}.`;
  if (type === 'PTR' || name.endsWith('.')) return [asIs];
  const searched = rc.searches.map((d) => joinName(name, d));
  if (name.includes('.')) return [asIs, ...searched];
  return searched.length > 0 ? searched : [asIs];
}

export interface UclibcOutcome {
  outcome: StubOutcome;
  /** How many server tries timed out (each costs the resolv.conf timeout). */
  timeouts: number;
}

export function uclibcResolve(name: string, type: QType, rc: ResolvConf, query: QueryFn): UclibcOutcome {
  const servers = rc.nameservers.length > 0 ? rc.nameservers : ['127.0.0.1'];
  const { attempts } = resolverOptions(rc);
  const cands = uclibcCandidates(name, type, rc);
  let timeouts = 0;
  let last: StubOutcome = { status: 'TIMEOUT', name: cands[0] ?? name };
  for (let tryNo = 0; tryNo < servers.length * attempts; tryNo++) {
    const server = servers[tryNo % servers.length]!;
    for (let i = 0; i < cands.length; i++) {
      const cand = cands[i]!;
      const r = query(server, cand, type);
      if (r === 'timeout') {
        timeouts++;
        last = { status: 'TIMEOUT', name: cand };
        break;
      }
      if (r === 'refused') {
        last = { status: 'REFUSED', name: cand };
        break;
      }
      if (r.rcode === 'NXDOMAIN' || r.rcode === 'SERVFAIL') {
        if (i < cands.length - 1) continue;
        if (r.rcode === 'NXDOMAIN') return { outcome: { status: 'NXDOMAIN', name: cand }, timeouts };
        last = { status: 'SERVFAIL', name: cand };
        break;
      }
      if (r.rcode !== 'NOERROR') {
        last = { status: 'SERVFAIL', name: cand };
        break;
      }
      const records: RR[] = r.answer.filter((x) => x.type === type || x.type === 'CNAME');
      if (r.answer.length === 0 || !records.some((x) => x.type === type)) return { outcome: { status: 'NODATA', name: cand }, timeouts };
      return { outcome: { status: 'found', name: cand, reply: r, records }, timeouts };
    }
  }
  return { outcome: last, timeouts };
}
