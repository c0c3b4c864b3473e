/**
 * The query function every stub resolver and client uses: one question to one server, answered
 * with the reply, 'timeout' (no answer within the client's retries) or 'refused' (ICMP port
 * unreachable). `queryFnFromTransport` builds one over a Transport with ids from the seeded Random.
 */
import type { Random } from '../../../util/random.js';
import { newQuery, type DnsMessage, type Edns, type QType } from '../message.js';
import type { Proto, Transport } from '../transport.js';

export interface QueryOptions {
  port?: number;
  proto?: Proto;
  edns?: Edns;
  /** RD bit (default true). */
  rd?: boolean;
}

export type QueryResult = DnsMessage | 'timeout' | 'refused';
export type QueryFn = (server: string, name: string, type: QType, opts?: QueryOptions) => QueryResult;

export function queryFnFromTransport(transport: Transport, random: Random): QueryFn {
  return (server, name, type, opts = {}) => {
    const q = newQuery(random.int(65536), name, type, opts.edns);
    if (opts.rd === false) q.flags.rd = false;
    return transport(server, opts.port ?? 53, opts.proto ?? 'udp', q);
  };
}

/** Number of dots in a name as typed, ignoring a trailing dot. */
export function countDots(name: string): number {
  const n = name.endsWith('.') ? name.slice(0, -1) : name;
  return (n.match(/\./g) ?? []).length;
}

export function joinName(name: string, domain: string): string {
  if (domain === '.' || domain === '') return `${name}.`;
  return `${name}.${domain.replace(/\.$/, '')}.`;
}
