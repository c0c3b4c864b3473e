/**
 * The cluster the DNS tests share: the reference's example cluster (coredns.md §10) plus seed 000's
 * kube-dns Service. `default/web` ClusterIP 10.96.120.5 (http 80), `prod/db` headless with db-0
 * 10.244.1.5 and db-1 10.244.2.7, `default/ext` ExternalName example.com, `default/kubernetes`
 * 10.96.0.1, `kube-system/kube-dns` 10.96.0.10 backed by the CoreDNS pod 10.244.0.2.
 */
import type { EndpointSlice, Pod, Service } from '../api/types.js';
import { staticClusterView, type ClusterView } from './cluster-view.js';
import { DEFAULT_COREFILE_SEED000 } from './corefile/kubeadm.js';
import { ManualClock } from '../../util/clock.js';
import { Random } from '../../util/random.js';
import { startCoreDns, type CoreDns } from './server.js';
import { upstreamAnswer } from './upstream-zone.js';
import { rdataText, type DnsMessage, type RR } from './message.js';
import type { Transport } from './transport.js';

function svc(ns: string, name: string, spec: Service['spec']): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns }, spec };
}

function slice(ns: string, svcName: string, eps: { ip: string; hostname?: string; pod?: string; ready?: boolean }[], ports: EndpointSlice['ports']): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: `${svcName}-abcde`, namespace: ns, labels: { 'kubernetes.io/service-name': svcName } },
    addressType: 'IPv4',
    endpoints: eps.map((e) => ({
      addresses: [e.ip],
      conditions: { ready: e.ready ?? true },
      ...(e.hostname ? { hostname: e.hostname } : {}),
      ...(e.pod ? { targetRef: { kind: 'Pod', namespace: ns, name: e.pod } } : {}),
    })),
    ports,
  };
}

function pod(ns: string, name: string, ip: string): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns }, spec: { containers: [] }, status: { podIP: ip } };
}

export function testView(): ClusterView {
  return staticClusterView({
    namespaces: ['default', 'kube-system', 'prod', 'net'],
    lastChangeMs: 1718000000000,
    services: [
      svc('default', 'kubernetes', { clusterIP: '10.96.0.1', clusterIPs: ['10.96.0.1'], ports: [{ name: 'https', port: 443, protocol: 'TCP' }] }),
      svc('default', 'web', { clusterIP: '10.96.120.5', clusterIPs: ['10.96.120.5'], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }),
      svc('prod', 'db', { clusterIP: 'None', clusterIPs: ['None'], ports: [{ name: 'pg', port: 5432, protocol: 'TCP' }] }),
      svc('default', 'ext', { type: 'ExternalName', externalName: 'example.com' }),
      svc('default', 'empty', { clusterIP: 'None', clusterIPs: ['None'], ports: [{ port: 80 }] }),
      svc('kube-system', 'kube-dns', {
        clusterIP: '10.96.0.10',
        clusterIPs: ['10.96.0.10'],
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP' },
          { name: 'dns-tcp', port: 53, protocol: 'TCP' },
          { name: 'metrics', port: 9153, protocol: 'TCP' },
        ],
      }),
    ],
    endpointSlices: [
      slice('default', 'web', [{ ip: '10.244.1.10', pod: 'web-1' }, { ip: '10.244.2.11', pod: 'web-2' }], [{ name: 'http', port: 80, protocol: 'TCP' }]),
      slice('prod', 'db', [{ ip: '10.244.1.5', hostname: 'db-0' }, { ip: '10.244.2.7', hostname: 'db-1' }], [{ name: 'pg', port: 5432, protocol: 'TCP' }]),
      slice('default', 'empty', [{ ip: '10.244.2.99', ready: false }], [{ port: 80, protocol: 'TCP' }]),
      slice('kube-system', 'kube-dns', [{ ip: '10.244.0.2', pod: 'coredns-abc' }], [{ name: 'dns', port: 53, protocol: 'UDP' }]),
    ],
    pods: [pod('net', 'client', '10.244.62.167')],
  });
}

export const NODE_RESOLV = 'nameserver 192.168.122.1\n';

/** Transport to the upstream resolver 192.168.122.1; other addresses time out. */
export function upstreamTransport(): Transport {
  return (ip, _port, _proto, q: DnsMessage) => (ip === '192.168.122.1' ? upstreamAnswer(q) : 'timeout');
}

export function startTestServer(corefile = DEFAULT_COREFILE_SEED000, files: Record<string, string> = {}): {
  server: CoreDns;
  clock: ManualClock;
} {
  const clock = new ManualClock(Date.UTC(2026, 11, 2, 8, 50, 58));
  const fs: Record<string, string> = { '/etc/resolv.conf': NODE_RESOLV, '/etc/hosts': '127.0.0.1\tlocalhost\n10.244.0.2\tcoredns-abc\n', ...files };
  const r = startCoreDns({
    corefile,
    readFile: (p) => fs[p],
    view: testView(),
    transport: upstreamTransport(),
    clock,
    random: new Random(7),
    podIp: '10.244.0.2',
  });
  if (!r.ok) throw new Error(r.stderr);
  return { server: r.server, clock };
}

/** A compact, exact rendering of a reply for table tests: rcode, aa, then each section. */
export function showReply(r: DnsMessage | undefined): string {
  if (!r) return 'no reply';
  const rr = (x: RR): string => `${x.name} ${x.ttl} ${x.type} ${rdataText(x)}`;
  const parts = [`${r.rcode} aa=${r.flags.aa}`];
  if (r.answer.length) parts.push(`AN: ${r.answer.map(rr).join(' | ')}`);
  if (r.authority.length) parts.push(`NS: ${r.authority.map(rr).join(' | ')}`);
  if (r.additional.length) parts.push(`AR: ${r.additional.map(rr).join(' | ')}`);
  return parts.join('; ');
}
