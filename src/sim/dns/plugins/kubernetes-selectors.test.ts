/**
 * The kubernetes plugin's `labels` and `namespace_labels` (coredns v1.13.1 setup.go ParseStanza,
 * controller.go list functions with the selector), `endpoint_pod_names`, and reverse.go's
 * endpoint PTR for an EndpointSlice whose Service object does not exist.
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

function svc(ns: string, name: string, ip: string, labels?: Record<string, string>): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns, ...(labels ? { labels } : {}) }, spec: { clusterIP: ip, clusterIPs: [ip], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] } };
}

function slice(ns: string, svcName: string, ip: string, pod: string, labels: Record<string, string> = {}): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: `${svcName}-x`, namespace: ns, labels: { 'kubernetes.io/service-name': svcName, ...labels } },
    addressType: 'IPv4',
    endpoints: [{ addresses: [ip], conditions: { ready: true }, targetRef: { kind: 'Pod', namespace: ns, name: pod } }],
    ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
  };
}

const view = staticClusterView({
  namespaces: ['default', 'team-a', 'team-b'],
  namespaceLabels: { 'team-a': { dns: 'on' }, 'team-b': { dns: 'off' }, default: {} },
  services: [svc('team-a', 'api', '10.96.1.1', { expose: 'yes' }), svc('team-b', 'api', '10.96.2.2', { expose: 'yes' }), svc('team-a', 'internal', '10.96.1.9')],
  endpointSlices: [slice('team-a', 'api', '10.244.1.1', 'api-7d9f-abcde', { expose: 'yes' }), slice('team-a', 'gone', '10.244.1.77', 'gone-0')],
});

function start(block: string) {
  return startCoreDns({ corefile: `.:53 {\n    kubernetes cluster.local in-addr.arpa {\n${block}    }\n}\n`, readFile: () => undefined, view, transport: () => 'timeout', clock: new ManualClock(0), random: new Random(1), podIp: '10.244.0.2' });
}

const soa = (ttl: number): string => `NS: cluster.local. ${ttl} SOA ns.dns.cluster.local. hostmaster.cluster.local. 1718000000 7200 1800 86400 ${ttl}`;

describe('kubernetes labels, namespace_labels, endpoint_pod_names, PTR without a Service', () => {
  const cases: { name: string; block: string; qname: string; qtype?: QType; want: string }[] = [
    { name: 'labels: a matching Service is served', block: '        labels expose=yes\n', qname: 'api.team-a.svc.cluster.local.', want: 'NOERROR aa=true; AN: api.team-a.svc.cluster.local. 5 A 10.96.1.1' },
    { name: 'labels: a Service without the label does not exist', block: '        labels expose=yes\n', qname: 'internal.team-a.svc.cluster.local.', want: `NXDOMAIN aa=true; ${soa(5)}` },
    { name: 'labels: set-based expression', block: '        labels expose in (yes, maybe)\n', qname: 'api.team-b.svc.cluster.local.', want: 'NOERROR aa=true; AN: api.team-b.svc.cluster.local. 5 A 10.96.2.2' },
    { name: 'namespace_labels: a matching namespace is served', block: '        namespace_labels dns=on\n', qname: 'api.team-a.svc.cluster.local.', want: 'NOERROR aa=true; AN: api.team-a.svc.cluster.local. 5 A 10.96.1.1' },
    { name: 'namespace_labels: other namespaces do not exist', block: '        namespace_labels dns=on\n', qname: 'api.team-b.svc.cluster.local.', want: `NXDOMAIN aa=true; ${soa(5)}` },
    { name: 'endpoint_pod_names: the endpoint is named after its pod', block: '        endpoint_pod_names\n', qname: 'api-7d9f-abcde.api.team-a.svc.cluster.local.', want: 'NOERROR aa=true; AN: api-7d9f-abcde.api.team-a.svc.cluster.local. 5 A 10.244.1.1' },
    { name: 'without endpoint_pod_names the dashed IP names it', block: '', qname: '10-244-1-1.api.team-a.svc.cluster.local.', want: 'NOERROR aa=true; AN: 10-244-1-1.api.team-a.svc.cluster.local. 5 A 10.244.1.1' },
    { name: 'PTR of an endpoint whose Service is absent (EpIndexReverse)', block: '', qname: '77.1.244.10.in-addr.arpa.', qtype: 'PTR', want: 'NOERROR aa=true; AN: 77.1.244.10.in-addr.arpa. 5 PTR 10-244-1-77.gone.team-a.svc.cluster.local.' },
    { name: 'PTR with endpoint_pod_names', block: '        endpoint_pod_names\n', qname: '77.1.244.10.in-addr.arpa.', qtype: 'PTR', want: 'NOERROR aa=true; AN: 77.1.244.10.in-addr.arpa. 5 PTR gone-0.gone.team-a.svc.cluster.local.' },
  ];
  for (const tc of cases)
    it(tc.name, () => {
      const r = start(tc.block);
      if (!r.ok) throw new Error(r.stderr);
      assert.equal(showReply(r.server.query(newQuery(1, tc.qname, tc.qtype ?? 'A'), { ip: '10.0.0.1', port: 1, proto: 'udp' })), tc.want);
    });

  const errors: { name: string; block: string; stderr: string }[] = [
    { name: 'bad labels selector', block: '        labels app==(\n', stderr: `plugin/kubernetes: unable to parse label selector value: 'app==(': couldn't parse the selector string "app==(": unable to parse requirement: found '(', expected: identifier` },
    { name: 'bad namespace_labels selector', block: '        namespace_labels a b\n', stderr: `plugin/kubernetes: unable to parse namespace_label selector value: 'a b': couldn't parse the selector string "a b": unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt` },
    { name: 'namespaces and namespace_labels', block: '        namespaces team-a\n        namespace_labels dns=on\n', stderr: 'plugin/kubernetes: /etc/coredns/Corefile:5 - Error during parsing: namespaces and namespace_labels cannot both be set' },
  ];
  for (const tc of errors)
    it(tc.name, () => {
      const r = start(tc.block);
      assert.equal(r.ok ? 'started' : r.stderr, `${tc.stderr}\n`);
    });
});
