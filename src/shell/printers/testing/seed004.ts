/**
 * Objects shaped like seed 004's single-node flannel cluster (service CIDR 10.244.0.0/16, pod
 * network 192.128.0.0/16): the Services and Endpoints listed by `kubectl get svc -A` / `get ep -A`.
 */
import type { Endpoints, Service, ServicePort } from '../../../sim/api/types.js';
import { endpoints, service } from './factories.js';

export const SEED004_NOW = Date.parse('2019-09-04T12:00:00Z');
const OLD = '2019-09-02T09:56:16Z';
const UWSGI = '2019-09-04T06:40:00Z'; // 5h20m before SEED004_NOW

const tcp = (port: number, extra: Partial<ServicePort> = {}): ServicePort => ({ port, protocol: 'TCP', targetPort: port, ...extra });

const NGINX_SERVER_PORTS = [443, 20100, 20101, 20102, 20103, 10080, 10081];

export function seed004Services(): Service[] {
  return [
    service('kubernetes', 'default', OLD, { clusterIP: '10.244.0.1', clusterIPs: ['10.244.0.1'], ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }] }),
    service('mysql', 'default', OLD, { clusterIP: 'None', clusterIPs: ['None'], ports: [tcp(3306)], selector: { app: 'mysql' } }),
    service('mysql-read', 'default', OLD, { clusterIP: '10.244.27.22', clusterIPs: ['10.244.27.22'], ports: [tcp(3306)], selector: { app: 'mysql' } }),
    service('nginx', 'default', OLD, { clusterIP: '10.244.190.26', clusterIPs: ['10.244.190.26'], ports: [tcp(10100)], selector: { app: 'nginx' } }),
    service('nginx-server', 'default', OLD, {
      type: 'NodePort',
      clusterIP: '10.244.155.83',
      clusterIPs: ['10.244.155.83'],
      ports: NGINX_SERVER_PORTS.map((p) => tcp(p, { name: `p${p}`, nodePort: p })),
      selector: { app: 'nginx' },
      externalTrafficPolicy: 'Cluster',
    }),
    service('uwsgi', 'default', UWSGI, { clusterIP: '10.244.144.63', clusterIPs: ['10.244.144.63'], ports: [tcp(8001, { name: 'a' }), tcp(8000, { name: 'b' })], selector: { app: 'uwsgi' } }),
    service('elasticsearch-logging', 'kube-system', OLD, { clusterIP: '10.244.212.106', clusterIPs: ['10.244.212.106'], ports: [{ port: 9200, protocol: 'TCP', targetPort: 'db' }], selector: { 'k8s-app': 'elasticsearch-logging' } }),
    service('kibana-logging', 'kube-system', OLD, { clusterIP: '10.244.117.119', clusterIPs: ['10.244.117.119'], ports: [{ port: 5601, protocol: 'TCP', targetPort: 'ui' }], selector: { 'k8s-app': 'kibana-logging' } }),
    service('kube-dns', 'kube-system', '2019-09-02T09:56:10Z', {
      clusterIP: '10.244.0.10',
      clusterIPs: ['10.244.0.10'],
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
        { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
        { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
      ],
      selector: { 'k8s-app': 'kube-dns' },
    }),
  ];
}

const addr = (ip: string): { ip: string } => ({ ip });

export function seed004Endpoints(): Endpoints[] {
  return [
    endpoints('kubernetes', 'default', OLD, [{ addresses: [addr('10.244.0.200')], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }]),
    endpoints('mysql', 'default', OLD, [{ addresses: [addr('192.128.0.47'), addr('192.128.0.52')], ports: [{ port: 3306, protocol: 'TCP' }] }]),
    endpoints('mysql-read', 'default', OLD, [{ addresses: [addr('192.128.0.47'), addr('192.128.0.52')], ports: [{ port: 3306, protocol: 'TCP' }] }]),
    endpoints('nginx', 'default', OLD, [{ addresses: [addr('192.128.0.55')], ports: [{ port: 10100, protocol: 'TCP' }] }]),
    endpoints('nginx-server', 'default', OLD, [
      {
        addresses: [addr('192.128.0.55')],
        ports: [443, 20103, 20101, 20100, 20102, 10080, 10081].map((p) => ({ name: `p${p}`, port: p, protocol: 'TCP' })),
      },
    ]),
    endpoints('uwsgi', 'default', UWSGI, [{ addresses: [addr('192.128.0.54')], ports: [{ name: 'b', port: 8000, protocol: 'TCP' }, { name: 'a', port: 8001, protocol: 'TCP' }] }]),
    endpoints('elasticsearch-logging', 'kube-system', OLD, [{ addresses: [addr('192.128.0.43'), addr('192.128.0.49')], ports: [{ port: 9200, protocol: 'TCP' }] }]),
    endpoints('kibana-logging', 'kube-system', OLD, [{ addresses: [addr('192.128.0.46')], ports: [{ port: 5601, protocol: 'TCP' }] }]),
    endpoints('kube-controller-manager', 'kube-system', OLD),
    endpoints('kube-dns', 'kube-system', OLD, [
      {
        addresses: [addr('192.128.0.48'), addr('192.128.0.51')],
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP' },
          { name: 'dns-tcp', port: 53, protocol: 'TCP' },
          { name: 'metrics', port: 9153, protocol: 'TCP' },
        ],
      },
    ]),
    endpoints('kube-scheduler', 'kube-system', OLD),
  ];
}
