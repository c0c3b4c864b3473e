/**
 * The Service and EndpointSlice shapes upstream's proxier tests build (makeTestService,
 * makeTestEndpointSlice in pkg/proxy/{iptables,nftables}/proxier_test.go): a ClusterIP Service with
 * one named TCP port, and its one slice of ready IPv4 endpoints.
 */
import type { EndpointSlice, Service } from '../sim/api/types.js';

export function clusterIPService(ns: string, name: string, ip: string, portName: string, port: number): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns }, spec: { type: 'ClusterIP', clusterIP: ip, ports: [{ name: portName, port, protocol: 'TCP' }] } };
}

export function endpointSlice(ns: string, svc: string, portName: string, port: number, ips: string[]): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: `${svc}-1`, namespace: ns, labels: { 'kubernetes.io/service-name': svc } },
    addressType: 'IPv4',
    endpoints: ips.map((ip) => ({ addresses: [ip] })),
    ports: [{ name: portName, port, protocol: 'TCP' }],
  };
}

/** A Service of upstream's tests with one named TCP port `p80` and the spec fields `extra` sets. */
function p80Service(ns: string, name: string, ip: string, extra: Partial<Service['spec']>, nodePort?: number, status?: Service['status']): Service {
  const port = { name: 'p80', port: 80, protocol: 'TCP' as const, ...(nodePort !== undefined ? { nodePort } : {}) };
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns }, spec: { type: 'ClusterIP', clusterIP: ip, ports: [port], ...extra }, ...(status ? { status } : {}) };
}

function p80Slice(ns: string, svc: string, eps: { ip: string; node?: string }[]): EndpointSlice {
  const s = endpointSlice(ns, svc, 'p80', 80, []);
  s.endpoints = eps.map((e) => ({ addresses: [e.ip], ...(e.node !== undefined ? { nodeName: e.node } : {}) }));
  return s;
}

/**
 * The Services and EndpointSlices of TestOverallNFTablesRules (pkg/proxy/nftables/proxier_test.go):
 * a ClusterIP, a Local LoadBalancer without local endpoints, a NodePort, an ExternalIP one, a
 * Cluster LoadBalancer with source ranges and session affinity, and one without endpoints. The
 * test's node is `test-node`.
 */
export function overallNftablesObjects(): { services: Service[]; slices: EndpointSlice[] } {
  const services = [
    p80Service('ns1', 'svc1', '172.30.0.41', {}),
    p80Service('ns2', 'svc2', '172.30.0.42', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', externalIPs: ['192.168.99.22'], healthCheckNodePort: 30000 }, 3001, { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } }),
    p80Service('ns3', 'svc3', '172.30.0.43', { type: 'NodePort' }, 3003),
    p80Service('ns4', 'svc4', '172.30.0.44', { type: 'NodePort', externalIPs: ['192.168.99.33'] }),
    p80Service(
      'ns5',
      'svc5',
      '172.30.0.45',
      { type: 'LoadBalancer', externalTrafficPolicy: 'Cluster', healthCheckNodePort: 30000, loadBalancerSourceRanges: [' 203.0.113.0/25'], sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } } },
      3002,
      { loadBalancer: { ingress: [{ ip: '5.6.7.8' }] } },
    ),
    p80Service('ns6', 'svc6', '172.30.0.46', {}),
  ];
  const slices = [
    p80Slice('ns1', 'svc1', [{ ip: '10.180.0.1' }]),
    p80Slice('ns2', 'svc2', [{ ip: '10.180.0.2' }]),
    p80Slice('ns3', 'svc3', [{ ip: '10.180.0.3' }]),
    p80Slice('ns4', 'svc4', [{ ip: '10.180.0.4' }, { ip: '10.180.0.5', node: 'test-node' }]),
    p80Slice('ns5', 'svc5', [{ ip: '10.180.0.3' }]),
  ];
  return { services, slices };
}
