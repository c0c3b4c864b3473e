/**
 * DNS as traffic: a query from a pod, a node or the workstation to `server:53` travels the packet
 * path (kube-proxy DNAT of the kube-dns ClusterIP, NetworkPolicy egress/ingress on port 53, ip_forward)
 * and is answered by whatever is there: a CoreDNS pod's running server (the Corefile it loaded), the
 * node network's upstream resolver (the simulated internet zone), or a node's systemd-resolved stub
 * on 127.0.0.53 (which forwards to the node's gateway). No listener → ICMP port unreachable
 * ('refused'); a dropped packet → 'timeout'.
 */
import type { Cluster } from '../cluster.js';
import type { Pod } from '../api/types.js';
import type { DnsMessage } from '../dns/message.js';
import type { Transport, TransportResult } from '../dns/transport.js';
import { authoritativeAnswer, upstreamAnswer } from '../dns/upstream-zone.js';
import { externalDnsServers } from './external-dns.js';
import { connect, type Source } from './path.js';
import { lookupImage } from '../images.js';
import type { ProgramOverride } from '../runtime/overrides.js';

export interface DnsHop {
  server: string;
  port: number;
  question: string;
  outcome: string;
  trace: string[];
}

/** Source host of a query (for the node-local resolver). */
function sourceHost(c: Cluster, from: Source): string | undefined {
  if (from.kind === 'node') return from.host;
  if (from.kind === 'pod') {
    const p = c.store.get<Pod>('Pod', from.ns, from.name);
    return p?.spec.hostNetwork ? p.spec.nodeName : undefined;
  }
  return undefined;
}

/** The DNS server program that answers queries reaching `pod` (CoreDNS in a kube-dns pod), if any. */
function dnsProgram(c: Cluster, pod: Pod): NonNullable<ProgramOverride['dns']> | undefined {
  for (const ct of pod.spec.containers) {
    const image = lookupImage(ct.image);
    const dns = image ? c.programOverride(image.repository)?.dns : undefined;
    if (dns?.serves(pod)) return dns;
  }
  return undefined;
}

/** A Transport whose packets start at `from`; each query's path is appended to `hops` when given. */
export function dnsTransport(c: Cluster, from: Source, hops?: DnsHop[], quiet?: () => boolean): Transport {
  return (server, port, proto, query): TransportResult => {
    if (quiet?.()) return 'timeout';
    const q = query.question[0];
    const hop: DnsHop = { server, port, question: q ? `${q.type} ${q.name}` : '?', outcome: '', trace: [] };
    hops?.push(hop);
    const done = (r: TransportResult, why: string): TransportResult => {
      hop.outcome = typeof r === 'string' ? r : `${r.rcode}${r.answer.length ? ` (${r.answer.length} answers)` : ''}${why ? ` from ${why}` : ''}`;
      return r;
    };
    const host = sourceHost(c, from);
    if (host && server.startsWith('127.0.0.5')) {
      hop.trace.push(`${host}: systemd-resolved on ${server}:53 forwards to the node's upstream`);
      return done(upstreamAnswer(query), 'systemd-resolved');
    }
    const r = connect(c, from, server, port, proto);
    hop.trace = r.trace;
    if (!r.ok || !r.to) return done(r.error === 'refused' ? 'refused' : 'timeout', '');
    if (r.to.external) {
      const ext = externalDnsServers(c).find((s) => s.ip === server);
      return ext ? done(authoritativeAnswer(query, ext), `DNS server ${server}`) : done(upstreamAnswer(query), `upstream resolver ${server}`);
    }
    if (r.to.pod) {
      const pod = c.store.get<Pod>('Pod', r.to.pod.ns, r.to.pod.name);
      const dns = pod ? dnsProgram(c, pod) : undefined;
      if (pod && dns) {
        const srv = dns.server(c, pod);
        if (!srv) return done('refused', '');
        const reply: DnsMessage | undefined = srv.query(query, { ip: r.srcSeen ?? '', port: 40000 + (query.id % 20000), proto }, r.to.port);
        return done(reply ?? 'timeout', `CoreDNS pod ${pod.metadata.name} (${r.to.ip})`);
      }
    }
    // Something listens on 53 but is not a DNS server we model: no answer.
    return done('timeout', '');
  };
}
