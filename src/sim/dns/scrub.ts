/**
 * What CoreDNS does to every reply on its way out (core/dnsserver/server.go wraps the writer in
 * request.ScrubWriter; request/request.go Size and Scrub, coredns v1.13.1): the reply is cut to the
 * client's buffer with miekg/dns Msg.Truncate (setting TC when records had to go), and a UDP reply
 * still over the fragmentation limit (1480 bytes over IPv4, 1220 over IPv6) is compressed.
 */
import { MAX_MSG_SIZE, MIN_MSG_SIZE, truncate, wireSize, type DnsMessage } from './message.js';
import type { Proto } from './transport.js';

/**
 * request.Size via edns.Size: TCP carries 64 KiB; over UDP the query's EDNS buffer size, never
 * below 512 (also the size without EDNS).
 */
export function requestSize(query: DnsMessage, proto: Proto): number {
  if (proto === 'tcp') return MAX_MSG_SIZE;
  return Math.max(query.edns?.udpSize ?? 0, MIN_MSG_SIZE);
}

/** request.Scrub: the reply as the client receives it from `clientIp` over `proto`. */
export function scrub(reply: DnsMessage, query: DnsMessage, proto: Proto, clientIp: string): DnsMessage {
  const out = truncate(reply, requestSize(query, proto));
  if (out.compress || proto !== 'udp') return out;
  const limit = clientIp.includes(':') ? 1220 : 1480;
  if (wireSize(out) > limit) out.compress = true;
  return out;
}
