/**
 * A small simulated internet behind the node's resolver (e.g. libvirt's dnsmasq at 192.168.122.1):
 * fixed, plausible records for well-known names; everything else NXDOMAIN with the root SOA.
 * Replies are recursive-resolver style: RA set, AA clear.
 */
import { canonical, replyTo, type DnsMessage, type RR } from './message.js';

const T = 300;

function a(name: string, address: string, ttl = T): RR {
  return { name, ttl, class: 'IN', type: 'A', address };
}
function aaaa(name: string, address: string, ttl = T): RR {
  return { name, ttl, class: 'IN', type: 'AAAA', address };
}
function cname(name: string, target: string, ttl = T): RR {
  return { name, ttl, class: 'IN', type: 'CNAME', target };
}

/** The records of the simulated internet, by owner name. */
export const UPSTREAM_RECORDS: readonly RR[] = [
  a('example.com.', '93.184.215.14'),
  aaaa('example.com.', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'),
  a('www.example.com.', '93.184.215.14'),
  a('example.org.', '93.184.215.15'),
  a('kubernetes.io.', '15.197.167.90'),
  a('www.kubernetes.io.', '15.197.167.90'),
  a('google.com.', '142.250.196.110'),
  aaaa('google.com.', '2404:6800:4004:827::200e'),
  a('www.google.com.', '142.250.196.100'),
  aaaa('www.google.com.', '2404:6800:4004:81f::2004'),
  a('github.com.', '140.82.112.3'),
  cname('registry.k8s.io.', 'registry-k8s-io.l.googleusercontent.com.'),
  a('registry-k8s-io.l.googleusercontent.com.', '34.96.108.209'),
  a('dl.k8s.io.', '34.107.204.206'),
  a('docker.io.', '54.236.113.205'),
  a('registry-1.docker.io.', '54.236.113.205'),
  a('one.one.one.one.', '1.1.1.1'),
  a('dns.google.', '8.8.8.8'),
  { name: '8.8.8.8.in-addr.arpa.', ttl: T, class: 'IN', type: 'PTR', target: 'dns.google.' },
  { name: '1.1.1.1.in-addr.arpa.', ttl: T, class: 'IN', type: 'PTR', target: 'one.one.one.one.' },
];

const ROOT_SOA: RR = {
  name: '.',
  ttl: 86400,
  class: 'IN',
  type: 'SOA',
  mname: 'a.root-servers.net.',
  rname: 'nstld.verisign-grs.com.',
  serial: 2026120200,
  refresh: 1800,
  retry: 900,
  expire: 604800,
  minimum: 86400,
};

/** Answer one query the way a recursive resolver would, from `records` (default: UPSTREAM_RECORDS). */
export function upstreamAnswer(query: DnsMessage, records: readonly RR[] = UPSTREAM_RECORDS): DnsMessage {
  const reply = replyTo(query);
  reply.flags.ra = true;
  const q = query.question[0];
  if (!q) return replyTo(query, 'FORMERR');
  let name = canonical(q.name);
  for (let hops = 0; hops < 8; hops++) {
    const owned = records.filter((r) => canonical(r.name) === name);
    if (owned.length === 0) {
      if (reply.answer.length === 0) {
        reply.rcode = 'NXDOMAIN';
        reply.authority = [{ ...ROOT_SOA }];
      }
      return reply;
    }
    const match = owned.filter((r) => r.type === q.type);
    if (match.length > 0) {
      reply.answer.push(...match.map((r) => ({ ...r, name: hops === 0 ? q.name : r.name })));
      return reply;
    }
    const cn = owned.find((r) => r.type === 'CNAME');
    if (cn && cn.type === 'CNAME' && q.type !== 'CNAME') {
      reply.answer.push({ ...cn, name: hops === 0 ? q.name : cn.name });
      name = canonical(cn.target);
      continue;
    }
    if (reply.answer.length === 0) reply.authority = [{ ...ROOT_SOA }];
    return reply;
  }
  return reply;
}

/**
 * A DNS server outside the cluster that is authoritative for some zones (a corporate DNS server a
 * fixture declares): names in its zones are answered from its records (AA set, NXDOMAIN with the
 * zone's SOA when unknown); anything else is REFUSED, as an authoritative-only BIND refuses
 * recursion.
 */
export interface ExternalDnsServer {
  ip: string;
  zones: string[];
  records: { name: string; type: 'A' | 'CNAME' | 'TXT'; value: string }[];
}

export function authoritativeAnswer(query: DnsMessage, server: ExternalDnsServer): DnsMessage {
  const q = query.question[0];
  if (!q) return replyTo(query, 'FORMERR');
  const name = canonical(q.name);
  const zone = server.zones.map((z) => canonical(z.endsWith('.') ? z : `${z}.`)).find((z) => name === z || name.endsWith(`.${z}`));
  if (!zone) return replyTo(query, 'REFUSED');
  const records: RR[] = server.records.map((r) => {
    const owner = r.name.endsWith('.') ? r.name : `${r.name}.`;
    if (r.type === 'A') return a(owner, r.value);
    if (r.type === 'CNAME') return cname(owner, r.value.endsWith('.') ? r.value : `${r.value}.`);
    return { name: owner, ttl: T, class: 'IN', type: 'TXT', texts: [r.value] };
  });
  const reply = upstreamAnswer(query, records);
  reply.flags.aa = true;
  reply.flags.ra = false;
  if (reply.rcode === 'NXDOMAIN') {
    const soa: RR = { name: zone, ttl: 3600, class: 'IN', type: 'SOA', mname: `ns1.${zone}`, rname: `hostmaster.${zone}`, serial: 2026120200, refresh: 3600, retry: 900, expire: 604800, minimum: 300 };
    reply.authority = [soa];
  }
  return reply;
}
