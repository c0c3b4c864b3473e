/**
 * Test setup shared by the traffic tests: seed 000's `net/web` on kubeadm-calico — namespace `net`,
 * two nginx pods pinned at 10.244.62.167 (cka-w2) and 10.244.95.170 (cka-w1), Service `web`
 * (ClusterIP 10.111.80.136, NodePort 31777) — and a busybox pod `c` on cka-w1 in `net` (seed 000 worked in namespace net).
 */
import type { Cluster } from '../cluster.js';
import type { Namespace, Pod, Service } from '../api/types.js';

function pod(ns: string, name: string, node: string, ip: string, image: string, labels: Record<string, string>, command?: string[]): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels },
    spec: { nodeName: node, containers: [{ name: name.replace(/-.*/, ''), image, ...(command ? { command } : {}) }] },
    status: { phase: 'Pending', podIP: ip, podIPs: [{ ip }] },
  };
}

export function addSeed000Web(c: Cluster): void {
  c.insert<Namespace>({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'net', labels: { 'kubernetes.io/metadata.name': 'net' } } });
  c.insert(pod('net', 'web-1', 'cka-w2', '10.244.62.167', 'nginx', { app: 'web' }));
  c.insert(pod('net', 'web-2', 'cka-w1', '10.244.95.170', 'nginx', { app: 'web' }));
  c.insert(pod('net', 'c', 'cka-w1', '10.244.95.140', 'busybox:1.36', { run: 'c' }, ['sleep', '3600']));
  c.insert<Service>({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'net' },
    spec: { type: 'NodePort', clusterIP: '10.111.80.136', clusterIPs: ['10.111.80.136'], selector: { app: 'web' }, ports: [{ port: 80, targetPort: 80, protocol: 'TCP', nodePort: 31777 }], externalTrafficPolicy: 'Cluster', sessionAffinity: 'None' },
  });
  c.settle();
  c.advance(5_000);
}
