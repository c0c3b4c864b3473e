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
