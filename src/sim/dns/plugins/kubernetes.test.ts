import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ManualClock } from '../../../util/clock.js';
import { Random } from '../../../util/random.js';
import { newQuery, rdataText, type QType } from '../message.js';
import { startCoreDns } from '../server.js';
import { NODE_RESOLV, testView, upstreamTransport } from '../test-fixture.js';

function server(block: string) {
  const r = startCoreDns({
    corefile: `.:53 {\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n${block}    }\n    forward . /etc/resolv.conf\n}\n`,
    readFile: (p) => (p === '/etc/resolv.conf' ? NODE_RESOLV : undefined),
    view: testView(),
    transport: upstreamTransport(),
    clock: new ManualClock(0),
    random: new Random(3),
    podIp: '10.244.0.2',
  });
  if (!r.ok) throw new Error(r.stderr);
  return r.server;
}

const KUBEADM = '       pods insecure\n       fallthrough in-addr.arpa ip6.arpa\n       ttl 30\n';

/** A compact, exact rendering of a reply: rcode, flags, then sections. */
function show(s: ReturnType<typeof server>, name: string, type: QType): string {
  const r = s.query(newQuery(1, name, type), { ip: '10.244.62.167', port: 40000, proto: 'udp' });
  if (!r) return 'no reply';
  const rr = (x: (typeof r.answer)[number]): string => `${x.name} ${x.ttl} ${x.type} ${rdataText(x)}`;
  const parts = [`${r.rcode} aa=${r.flags.aa} ra=${r.flags.ra}`];
  if (r.answer.length) parts.push(`AN: ${r.answer.map(rr).join(' | ')}`);
  if (r.authority.length) parts.push(`NS: ${r.authority.map(rr).join(' | ')}`);
  if (r.additional.length) parts.push(`AR: ${r.additional.map(rr).join(' | ')}`);
  return parts.join('; ');
}

const SOA = 'NS: cluster.local. 30 SOA ns.dns.cluster.local. hostmaster.cluster.local. 1718000000 7200 1800 86400 30';

const cases: { what: string; name: string; type: QType; want: string; block?: string }[] = [
  { what: 'ClusterIP A', name: 'web.default.svc.cluster.local', type: 'A', want: 'NOERROR aa=true ra=false; AN: web.default.svc.cluster.local. 30 A 10.96.120.5' },
  { what: 'ClusterIP AAAA is NODATA', name: 'web.default.svc.cluster.local', type: 'AAAA', want: `NOERROR aa=true ra=false; ${SOA}` },
  { what: 'headless A = ready endpoints', name: 'db.prod.svc.cluster.local', type: 'A', want: 'NOERROR aa=true ra=false; AN: db.prod.svc.cluster.local. 30 A 10.244.1.5 | db.prod.svc.cluster.local. 30 A 10.244.2.7' },
  { what: 'headless without ready endpoints is NXDOMAIN', name: 'empty.default.svc.cluster.local', type: 'A', want: `NXDOMAIN aa=true ra=false; ${SOA}` },
  { what: 'endpoint hostname', name: 'db-0.db.prod.svc.cluster.local', type: 'A', want: 'NOERROR aa=true ra=false; AN: db-0.db.prod.svc.cluster.local. 30 A 10.244.1.5' },
  { what: 'endpoint by dashed IP on a ClusterIP service', name: '10-244-1-10.web.default.svc.cluster.local', type: 'A', want: 'NOERROR aa=true ra=false; AN: 10-244-1-10.web.default.svc.cluster.local. 30 A 10.244.1.10' },
  { what: 'endpoint_pod_names', name: 'web-2.web.default.svc.cluster.local', type: 'A', block: '       endpoint_pod_names\n       ttl 30\n', want: 'NOERROR aa=true ra=false; AN: web-2.web.default.svc.cluster.local. 30 A 10.244.2.11' },
  { what: 'ExternalName CNAME + upstream A', name: 'ext.default.svc.cluster.local', type: 'A', want: 'NOERROR aa=true ra=false; AN: ext.default.svc.cluster.local. 30 CNAME example.com. | example.com. 300 A 93.184.215.14' },
  { what: 'ExternalName CNAME query', name: 'ext.default.svc.cluster.local', type: 'CNAME', want: 'NOERROR aa=true ra=false; AN: ext.default.svc.cluster.local. 30 CNAME example.com.' },
  { what: 'SRV by port name', name: '_http._tcp.web.default.svc.cluster.local', type: 'SRV', want: 'NOERROR aa=true ra=false; AN: _http._tcp.web.default.svc.cluster.local. 30 SRV 0 100 80 web.default.svc.cluster.local.; AR: web.default.svc.cluster.local. 30 A 10.96.120.5' },
  { what: 'SRV headless', name: 'db.prod.svc.cluster.local', type: 'SRV', want: 'NOERROR aa=true ra=false; AN: db.prod.svc.cluster.local. 30 SRV 0 50 5432 db-0.db.prod.svc.cluster.local. | db.prod.svc.cluster.local. 30 SRV 0 50 5432 db-1.db.prod.svc.cluster.local.; AR: db-0.db.prod.svc.cluster.local. 30 A 10.244.1.5 | db-1.db.prod.svc.cluster.local. 30 A 10.244.2.7' },
  { what: 'SRV unknown port is NXDOMAIN', name: '_nope._tcp.web.default.svc.cluster.local', type: 'SRV', want: `NXDOMAIN aa=true ra=false; ${SOA}` },
  { what: 'SRV case is kept', name: '_HtTp._TcP.wEb.DeFaUlT.SvC.cLuStEr.LoCaL', type: 'SRV', want: 'NOERROR aa=true ra=false; AN: _HtTp._TcP.wEb.DeFaUlT.SvC.cLuStEr.LoCaL. 30 SRV 0 100 80 web.default.svc.cLuStEr.LoCaL.; AR: web.default.svc.cLuStEr.LoCaL. 30 A 10.96.120.5' },
  { what: 'PTR of a ClusterIP', name: '1.0.96.10.in-addr.arpa', type: 'PTR', want: 'NOERROR aa=true ra=false; AN: 1.0.96.10.in-addr.arpa. 30 PTR kubernetes.default.svc.cluster.local.' },
  { what: 'PTR of an endpoint', name: '5.1.244.10.in-addr.arpa', type: 'PTR', want: 'NOERROR aa=true ra=false; AN: 5.1.244.10.in-addr.arpa. 30 PTR db-0.db.prod.svc.cluster.local.' },
  { what: 'PTR unknown falls through to forward', name: '8.8.8.8.in-addr.arpa', type: 'PTR', want: 'NOERROR aa=false ra=true; AN: 8.8.8.8.in-addr.arpa. 300 PTR dns.google.' },
  { what: 'pod insecure', name: '10-244-62-167.net.pod.cluster.local', type: 'A', want: 'NOERROR aa=true ra=false; AN: 10-244-62-167.net.pod.cluster.local. 30 A 10.244.62.167' },
  { what: 'pod in missing namespace', name: '10-244-62-167.nope.pod.cluster.local', type: 'A', want: `NXDOMAIN aa=true ra=false; ${SOA}` },
  { what: 'pods disabled', name: '10-244-62-167.net.pod.cluster.local', type: 'A', block: '       ttl 30\n', want: `NXDOMAIN aa=true ra=false; ${SOA}` },
  { what: 'pods verified, no such pod', name: '10-244-62-168.net.pod.cluster.local', type: 'A', block: '       pods verified\n       ttl 30\n', want: `NXDOMAIN aa=true ra=false; ${SOA}` },
  { what: 'pods verified, pod exists', name: '10-244-62-167.net.pod.cluster.local', type: 'A', block: '       pods verified\n       ttl 30\n', want: 'NOERROR aa=true ra=false; AN: 10-244-62-167.net.pod.cluster.local. 30 A 10.244.62.167' },
  { what: 'namespace name is NODATA', name: 'default.svc.cluster.local', type: 'A', want: `NOERROR aa=true ra=false; ${SOA}` },
  { what: 'missing namespace is NXDOMAIN', name: 'web.svc.cluster.local', type: 'A', want: `NXDOMAIN aa=true ra=false; ${SOA}` },
  { what: 'not svc/pod is NXDOMAIN', name: 'web.cluster.local', type: 'A', want: `NXDOMAIN aa=true ra=false; ${SOA}` },
  { what: 'dns-version TXT', name: 'dns-version.cluster.local', type: 'TXT', want: 'NOERROR aa=true ra=false; AN: dns-version.cluster.local. 28800 TXT "1.1.0"' },
  { what: 'apex SOA', name: 'cluster.local', type: 'SOA', want: 'NOERROR aa=true ra=false; AN: cluster.local. 30 SOA ns.dns.cluster.local. hostmaster.cluster.local. 1718000000 7200 1800 86400 30' },
  { what: 'non-apex SOA is NODATA', name: 'web.default.svc.cluster.local', type: 'SOA', want: `NOERROR aa=true ra=false; ${SOA}` },
  { what: 'apex NS with glue', name: 'cluster.local', type: 'NS', want: 'NOERROR aa=true ra=false; AN: cluster.local. 30 NS kube-dns.kube-system.svc.cluster.local.; AR: kube-dns.kube-system.svc.cluster.local. 30 A 10.96.0.10' },
  { what: 'MX of existing name is NODATA', name: 'web.default.svc.cluster.local', type: 'MX', want: `NOERROR aa=true ra=false; ${SOA}` },
  { what: 'default ttl 5', name: 'web.default.svc.cluster.local', type: 'A', block: '', want: 'NOERROR aa=true ra=false; AN: web.default.svc.cluster.local. 5 A 10.96.120.5' },
  { what: 'namespaces restricts', name: 'web.default.svc.cluster.local', type: 'A', block: '       namespaces prod\n', want: 'NXDOMAIN aa=true ra=false; NS: cluster.local. 5 SOA ns.dns.cluster.local. hostmaster.cluster.local. 1718000000 7200 1800 86400 5' },
  { what: 'fallthrough all zones sends NXDOMAIN names on', name: 'web.cluster.local', type: 'A', block: '       fallthrough\n', want: 'NXDOMAIN aa=false ra=true; NS: . 86400 SOA a.root-servers.net. nstld.verisign-grs.com. 2026120200 1800 900 604800 86400' },
  { what: 'AXFR refused', name: 'cluster.local', type: 'AXFR', want: 'REFUSED aa=false ra=false' },
];

describe('kubernetes plugin records', () => {
  for (const tc of cases) {
    it(tc.what, () => {
      assert.equal(show(server(tc.block ?? KUBEADM), tc.name, tc.type), tc.want);
    });
  }
});
