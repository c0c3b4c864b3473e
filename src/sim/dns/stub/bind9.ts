/**
 * bind9 9.18 lookup list (bin/dig/dighost.c) for nslookup and host: with dots < ndots the search
 * domains first, then the name as is; with dots ≥ ndots the name first, then the search list.
 * Only NXDOMAIN moves on; NOERROR, NODATA and SERVFAIL stop there. A trailing dot: as is only.
 * dig uses no search list unless +search.
 */
import type { DnsMessage, QType } from '../message.js';
import type { ResolvConf } from '../resolv-conf.js';
import { resolverOptions } from '../resolv-conf.js';
import type { Proto } from '../transport.js';
import { countDots, joinName, type QueryFn, type QueryOptions, type QueryResult } from './query.js';

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

/** The query function of a bind9 tool that falls back to TCP, and what it did. */
export interface Bind9Sender {
  query: QueryFn;
  /** The transport now in use ('tcp' after a truncated reply). */
  proto(): Proto;
  /** Replies that came over TCP because the UDP one was truncated (nslookup prints a line first). */
  retried: Set<DnsMessage>;
  /** A truncated answer was asked again over TCP, and TCP failed (timeout or refused). */
  retryFailed(): boolean;
}

/**
 * dighost.c recv_done: a UDP reply with TC set (and no +ignore) is not used; the lookup is queued
 * again with tcp_mode, and the lookups that follow it in the same run stay on TCP (recorded with
 * bind9-dnsutils 9.18.49: host's AAAA and MX, nslookup's AAAA, all over TCP after one truncation).
 * `send` is called once per packet sent (host -v prints `Trying` for each).
 */
export function bind9Sender(send: (server: string, name: string, type: QType, opts: QueryOptions, proto: Proto) => QueryResult, tcp: boolean, ignore = false): Bind9Sender {
  let proto: Proto = tcp ? 'tcp' : 'udp';
  const retried = new Set<DnsMessage>();
  let failed = false;
  const query: QueryFn = (server, name, type, opts = {}) => {
    const r = send(server, name, type, opts, proto);
    if (typeof r === 'string' || !r.flags.tc || proto === 'tcp' || ignore) return r;
    proto = 'tcp';
    const again = send(server, name, type, opts, proto);
    if (typeof again !== 'string') retried.add(again);
    else failed = true;
    return again;
  };
  return { query, proto: () => proto, retried, retryFailed: () => failed };
}
