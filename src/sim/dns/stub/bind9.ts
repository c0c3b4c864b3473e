/**
 * bind9 9.18 lookup list (bin/dig/dighost.c) for nslookup and host: with dots < ndots the search
 * domains first, then the name as is; with dots ≥ ndots the name first, then the search list.
 * Only NXDOMAIN moves on; NOERROR, NODATA and SERVFAIL stop there. A trailing dot: as is only.
 * dig uses no search list unless +search.
 */
import type { DnsMessage, QType } from '../message.js';
import type { ResolvConf } from '../resolv-conf.js';
import { resolverOptions } from '../resolv-conf.js';
import { countDots, joinName, type QueryFn } from './query.js';

export function bind9Candidates(name: string, rc: ResolvConf, search = true): string[] {
  if (name.endsWith('.') || !search) return [name.endsWith('.') ? name : `${name}.`];
  const { ndots } = resolverOptions(rc);
  const searched = rc.searches.map((d) => joinName(name, d));
  return countDots(name) >= ndots ? [`${name}.`, ...searched] : [...searched, `${name}.`];
}

export interface Bind9Step {
  name: string;
  server: string;
  reply: DnsMessage | 'timeout' | 'refused';
}

/** Walk the candidates with one server; returns every step (the last decides). */
export function bind9Lookup(name: string, type: QType, rc: ResolvConf, server: string, query: QueryFn, search = true): Bind9Step[] {
  const steps: Bind9Step[] = [];
  for (const cand of bind9Candidates(name, rc, search)) {
    const reply = query(server, cand, type);
    steps.push({ name: cand, server, reply });
    if (reply === 'timeout' || reply === 'refused') break;
    if (reply.rcode !== 'NXDOMAIN') break;
  }
  return steps;
}
