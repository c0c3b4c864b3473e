/**
 * busybox 1.29–1.37 nslookup's own resolver (networking/nslookup.c, FEATURE_NSLOOKUP_BIG): a name
 * with a dot (or an IP) is sent exactly as typed; a dotless name is sent once per search domain
 * and never as is; ndots is ignored. Without -type both A and AAAA: A × domains, then AAAA × domains.
 * 1.29.x had no search list yet (`search: false`; it came with commit 9408978a4 in 1.30.0): a
 * dotless name is sent as typed.
 */
import { reverseName, isIP, type QType } from '../message.js';
import type { ResolvConf } from '../resolv-conf.js';
import { joinName } from './query.js';

export interface BusyboxQuery {
  name: string;
  type: QType;
}

export function busyboxQueries(host: string, types: QType[] | undefined, rc: ResolvConf | undefined, search = true): BusyboxQuery[] {
  if (isIP(host)) return [{ name: reverseName(host) ?? host, type: 'PTR' }];
  const list = types ?? ['A', 'AAAA'];
  const names = host.includes('.') || !search || !rc || rc.searches.length === 0 ? [host.endsWith('.') ? host : `${host}.`] : rc.searches.map((d) => joinName(host, d));
  return list.flatMap((type) => names.map((name) => ({ name, type })));
}
