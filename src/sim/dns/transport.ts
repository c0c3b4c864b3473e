/**
 * How DNS traffic leaves a resolver or CoreDNS's forward plugin. The lead routes it through the
 * simulated network (kube-proxy DNAT, NetworkPolicy, the upstream zone); tests pass a function.
 * 'timeout' = packets dropped (no answer within the client's timeout); 'refused' = ICMP port
 * unreachable (kube-proxy REJECT for a Service without endpoints, nothing listening).
 */
import type { DnsMessage } from './message.js';

export type Proto = 'udp' | 'tcp';
export type TransportResult = DnsMessage | 'timeout' | 'refused';
export type Transport = (serverIp: string, port: number, proto: Proto, query: DnsMessage) => TransportResult;
