/**
 * k8s_external, ported from coredns v1.13.1 plugin/k8s_external/external_test.go (the `tests`
 * table, its svcIndexExternal/epIndexExternal fixtures: namespace testns, svc1 1.2.3.4, svc6
 * 1:2::5, svc11 LoadBalancer 2.3.4.5, svc12 LoadBalancer hostname dummy.hostname, svc-headless)
 * and setup_test.go TestSetup; the apex cases follow apex_test.go.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EndpointSlice, Service } from '../../api/types.js';
import { ManualClock } from '../../../util/clock.js';
import { Random } from '../../../util/random.js';
import { staticClusterView } from '../cluster-view.js';
import { newQuery, type QType } from '../message.js';
import { startCoreDns } from '../server.js';
import { showReply } from '../test-fixture.js';

function svc(name: string, spec: Partial<Service['spec']>, lb?: { ip?: string; hostname?: string }): Service {
  const s: Service = { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'testns' }, spec: { ports: [{ name: 'http', protocol: 'TCP', port: 80 }], ...spec } };
  if (lb) s.status = { loadBalancer: { ingress: [lb] } };
  return s;
}

const headlessSlice: EndpointSlice = {
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { name: 'svc-headless-x', namespace: 'testns', labels: { 'kubernetes.io/service-name': 'svc-headless' } },
  addressType: 'IPv4',
  endpoints: [
    { addresses: ['1.2.3.4'], hostname: 'endpoint-svc-0', conditions: { ready: true } },
    { addresses: ['1.2.3.5'], hostname: 'endpoint-svc-1', conditions: { ready: true } },
  ],
  ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
};

const view = staticClusterView({
  namespaces: ['testns', 'other'],
  lastChangeMs: 1499347823000,
  services: [
    svc('svc1', { clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1'], externalIPs: ['1.2.3.4'] }),
    svc('svc6', { clusterIP: '10.0.0.3', clusterIPs: ['10.0.0.3'], externalIPs: ['1:2::5'] }),
    svc('svc11', { type: 'LoadBalancer', clusterIP: '10.0.0.3', clusterIPs: ['10.0.0.3'] }, { ip: '2.3.4.5' }),
    svc('svc12', { type: 'LoadBalancer', clusterIP: '10.0.0.3', clusterIPs: ['10.0.0.3'] }, { hostname: 'dummy.hostname' }),
    svc('svc-headless', { clusterIP: 'None', clusterIPs: ['None'] }),
  ],
  endpointSlices: [headlessSlice],
});

function start(corefile: string) {
  return startCoreDns({ corefile, readFile: () => undefined, view, transport: () => 'timeout', clock: new ManualClock(0), random: new Random(1), podIp: '10.244.0.2' });
}

const COREFILE = '.:53 {\n    k8s_external example.com in-addr.arpa {\n        headless\n    }\n    kubernetes cluster.local {\n        namespaces testns\n    }\n}\n';
const SOA = 'NS: example.com. 5 SOA ns1.dns.example.com. hostmaster.dns.example.com. 1499347823 7200 1800 86400 5';

// Upstream's SOA rendering in the table reads hostmaster.example.com.; apex.go builds
// dnsutil.Join(e.hostmaster, e.apex, zone) = hostmaster.dns.example.com., which test.SortAndCheck does not compare.
const cases: { what: string; qname: string; qtype: QType; want: string }[] = [
  { what: 'PTR reverse lookup', qname: '4.3.2.1.in-addr.arpa.', qtype: 'PTR', want: 'NOERROR aa=true; AN: 4.3.2.1.in-addr.arpa. 5 PTR svc1.testns.example.com.' },
  { what: 'bad PTR using an existing service name', qname: 'svc1.testns.example.com.', qtype: 'PTR', want: `NOERROR aa=true; ${SOA}` },
  { what: 'bad PTR using a missing service name', qname: 'not-existing.testns.example.com.', qtype: 'PTR', want: `NXDOMAIN aa=true; ${SOA}` },
  { what: 'A service', qname: 'svc1.testns.example.com.', qtype: 'A', want: 'NOERROR aa=true; AN: svc1.testns.example.com. 5 A 1.2.3.4' },
  { what: 'SRV service', qname: 'svc1.testns.example.com.', qtype: 'SRV', want: 'NOERROR aa=true; AN: svc1.testns.example.com. 5 SRV 0 100 80 svc1.testns.example.com.; AR: svc1.testns.example.com. 5 A 1.2.3.4' },
  { what: 'SRV not udp/tcp', qname: '*._not-udp-or-tcp.svc1.testns.example.com.', qtype: 'SRV', want: `NXDOMAIN aa=true; ${SOA}` },
  { what: 'SRV by port', qname: '_http._tcp.svc1.testns.example.com.', qtype: 'SRV', want: 'NOERROR aa=true; AN: _http._tcp.svc1.testns.example.com. 5 SRV 0 100 80 svc1.testns.example.com.; AR: svc1.testns.example.com. 5 A 1.2.3.4' },
  { what: 'AAAA with only an A', qname: 'svc1.testns.example.com.', qtype: 'AAAA', want: `NOERROR aa=true; ${SOA}` },
  { what: 'AAAA of a missing service', qname: 'svc0.testns.example.com.', qtype: 'AAAA', want: `NXDOMAIN aa=true; ${SOA}` },
  { what: 'A of a missing service', qname: 'svc0.testns.example.com.', qtype: 'A', want: `NXDOMAIN aa=true; ${SOA}` },
  { what: 'A in a namespace not exposed', qname: 'svc0.svc-nons.example.com.', qtype: 'A', want: `NXDOMAIN aa=true; ${SOA}` },
  { what: 'AAAA service', qname: 'svc6.testns.example.com.', qtype: 'AAAA', want: 'NOERROR aa=true; AN: svc6.testns.example.com. 5 AAAA 1:2::5' },
  { what: 'SRV with AAAA glue', qname: '_http._tcp.svc6.testns.example.com.', qtype: 'SRV', want: 'NOERROR aa=true; AN: _http._tcp.svc6.testns.example.com. 5 SRV 0 100 80 svc6.testns.example.com.; AR: svc6.testns.example.com. 5 AAAA 1:2::5' },
  { what: 'namespace name is NODATA', qname: 'testns.example.com.', qtype: 'A', want: `NOERROR aa=true; ${SOA}` },
  { what: 'namespace SOA is NODATA', qname: 'testns.example.com.', qtype: 'SOA', want: `NOERROR aa=true; ${SOA}` },
  { what: 'LoadBalancer ingress IP', qname: 'svc11.testns.example.com.', qtype: 'A', want: 'NOERROR aa=true; AN: svc11.testns.example.com. 5 A 2.3.4.5' },
  { what: 'LoadBalancer ingress SRV', qname: '_http._tcp.svc11.testns.example.com.', qtype: 'SRV', want: 'NOERROR aa=true; AN: _http._tcp.svc11.testns.example.com. 5 SRV 0 100 80 svc11.testns.example.com.; AR: svc11.testns.example.com. 5 A 2.3.4.5' },
  { what: 'LoadBalancer hostname is a CNAME', qname: 'svc12.testns.example.com.', qtype: 'A', want: 'NOERROR aa=true; AN: svc12.testns.example.com. 5 CNAME dummy.hostname.' },
  { what: 'LoadBalancer hostname SRV target', qname: '_http._tcp.svc12.testns.example.com.', qtype: 'SRV', want: 'NOERROR aa=true; AN: _http._tcp.svc12.testns.example.com. 5 SRV 0 100 80 dummy.hostname.' },
  { what: 'headless A', qname: 'svc-headless.testns.example.com.', qtype: 'A', want: 'NOERROR aa=true; AN: svc-headless.testns.example.com. 5 A 1.2.3.4 | svc-headless.testns.example.com. 5 A 1.2.3.5' },
  {
    what: 'headless SRV',
    qname: 'svc-headless.testns.example.com.',
    qtype: 'SRV',
    want: 'NOERROR aa=true; AN: svc-headless.testns.example.com. 5 SRV 0 50 80 endpoint-svc-0.svc-headless.testns.example.com. | svc-headless.testns.example.com. 5 SRV 0 50 80 endpoint-svc-1.svc-headless.testns.example.com.; AR: endpoint-svc-0.svc-headless.testns.example.com. 5 A 1.2.3.4 | endpoint-svc-1.svc-headless.testns.example.com. 5 A 1.2.3.5',
  },
  { what: 'headless endpoint SRV', qname: 'endpoint-svc-1.svc-headless.testns.example.com.', qtype: 'SRV', want: 'NOERROR aa=true; AN: endpoint-svc-1.svc-headless.testns.example.com. 5 SRV 0 100 80 endpoint-svc-1.svc-headless.testns.example.com.; AR: endpoint-svc-1.svc-headless.testns.example.com. 5 A 1.2.3.5' },
  { what: 'headless endpoint A', qname: 'endpoint-svc-0.svc-headless.testns.example.com.', qtype: 'A', want: 'NOERROR aa=true; AN: endpoint-svc-0.svc-headless.testns.example.com. 5 A 1.2.3.4' },
  // apex_test.go: SOA and NS at the apex, dns.<zone> NODATA, ns1.dns.<zone> the CoreDNS address (no fronting Service here: the pod IP).
  { what: 'apex SOA', qname: 'example.com.', qtype: 'SOA', want: 'NOERROR aa=true; AN: example.com. 5 SOA ns1.dns.example.com. hostmaster.dns.example.com. 1499347823 7200 1800 86400 5' },
  { what: 'apex NS', qname: 'example.com.', qtype: 'NS', want: 'NOERROR aa=true; AN: example.com. 5 NS ns1.dns.example.com.; AR: ns1.dns.example.com. 5 A 10.244.0.2' },
  { what: 'apex other type', qname: 'example.com.', qtype: 'SRV', want: `NOERROR aa=true; ${SOA}` },
  { what: 'dns. empty non-terminal', qname: 'dns.example.com.', qtype: 'A', want: `NOERROR aa=true; ${SOA}` },
  { what: 'ns1.dns. address', qname: 'ns1.dns.example.com.', qtype: 'A', want: 'NOERROR aa=true; AN: ns1.dns.example.com. 5 A 10.244.0.2' },
  { what: 'ns2.dns. is NXDOMAIN', qname: 'ns2.dns.example.com.', qtype: 'A', want: `NXDOMAIN aa=true; ${SOA}` },
];

describe('k8s_external records (external_test.go)', () => {
  const r = start(COREFILE);
  if (!r.ok) throw new Error(r.stderr);
  for (const tc of cases)
    it(tc.what, () => {
      assert.equal(showReply(r.server.query(newQuery(1, tc.qname, tc.qtype), { ip: '10.244.1.1', port: 40000, proto: 'udp' })), tc.want);
    });
});

describe('k8s_external setup (setup_test.go, setup.go)', () => {
  const table: { name: string; stanza: string; stderr?: string; probe?: { qname: string; want: string } }[] = [
    { name: 'server block zone', stanza: 'k8s_external', probe: { qname: 'svc1.testns.', want: 'NOERROR aa=true; AN: svc1.testns. 5 A 1.2.3.4' } },
    { name: 'apex testdns', stanza: 'k8s_external example.org {\n        apex testdns\n    }', probe: { qname: 'ns1.testdns.example.org.', want: 'NOERROR aa=true; AN: ns1.testdns.example.org. 5 A 10.244.0.2' } },
    { name: 'ttl', stanza: 'k8s_external example.org {\n        ttl 300\n    }', probe: { qname: 'svc1.testns.example.org.', want: 'NOERROR aa=true; AN: svc1.testns.example.org. 300 A 1.2.3.4' } },
    { name: 'without headless, a headless service has no external IP', stanza: 'k8s_external example.org', probe: { qname: 'svc-headless.testns.example.org.', want: 'NXDOMAIN aa=true; NS: example.org. 5 SOA ns1.dns.example.org. hostmaster.dns.example.org. 1499347823 7200 1800 86400 5' } },
    { name: 'fallthrough passes NXDOMAIN on', stanza: 'k8s_external example.org {\n        fallthrough\n    }', probe: { qname: 'svc0.testns.example.org.', want: 'SERVFAIL aa=false' } },
    { name: 'ttl out of range', stanza: 'k8s_external example.org {\n        ttl 3601\n    }', stderr: 'plugin/k8s_external: /etc/coredns/Corefile:3 - Error during parsing: ttl must be in range [0, 3600]: 3601' },
    { name: 'ttl not a number', stanza: 'k8s_external example.org {\n        ttl 1m\n    }', stderr: 'plugin/k8s_external: strconv.Atoi: parsing "1m": invalid syntax' },
    { name: 'apex without a value', stanza: 'k8s_external example.org {\n        apex\n    }', stderr: "plugin/k8s_external: /etc/coredns/Corefile:3 - Error during parsing: Wrong argument count or unexpected line ending after 'apex'" },
    { name: 'unknown property', stanza: 'k8s_external example.org {\n        headles\n    }', stderr: "plugin/k8s_external: /etc/coredns/Corefile:3 - Error during parsing: unknown property 'headles'" },
  ];
  for (const tc of table)
    it(tc.name, () => {
      const r = start(`.:53 {\n    ${tc.stanza}\n    kubernetes cluster.local\n}\n`);
      if (tc.stderr !== undefined) {
        assert.equal(r.ok ? 'started' : r.stderr, `${tc.stderr}\n`);
        return;
      }
      if (!r.ok) throw new Error(r.stderr);
      const probe = tc.probe as { qname: string; want: string };
      assert.equal(showReply(r.server.query(newQuery(1, probe.qname, 'A'), { ip: '10.244.1.1', port: 40000, proto: 'udp' })), probe.want);
    });

  it('needs the kubernetes plugin in the same server block (OnStartup error)', () => {
    const r = start('.:53 {\n    k8s_external example.org\n    forward . 8.8.8.8\n}\n');
    assert.deepEqual(r.ok ? 'started' : [r.stderr, r.exitCode], ['plugin/k8s_external: kubernetes plugin not loaded\n', 1]);
  });
});
