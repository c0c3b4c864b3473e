/**
 * Objects the control plane keeps up to date continuously, served as derived views of the
 * cluster instead of being written to the store on every tick:
 *  - the default ServiceCIDR `kubernetes` (networking.k8s.io/v1), which the API server keeps from
 *    its --service-cluster-ip-range flag (pkg/controlplane/controller/defaultservicecidr);
 *  - each node's Lease in kube-node-lease, which its kubelet renews every 10 s while it runs
 *    (pkg/kubelet/nodelease, leaseDurationSeconds 40).
 * Deriving them keeps an idle cluster's store still and the renew time always current.
 */
import type { Cluster } from './cluster.js';
import type { KObject, Node } from './api/types.js';
import { kubeletRunning, kubeletStoppedAt, serviceCIDR } from './controlplane.js';

const RENEW_MS = 10_000;

function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

function defaultServiceCIDR(c: Cluster): KObject {
  const created = c.store.get('Service', 'default', 'kubernetes')?.metadata.creationTimestamp ?? c.timestamp();
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'ServiceCIDR',
    metadata: { name: 'kubernetes', uid: 'a1b2c3d4-0000-4000-8000-5e7c1d700001', resourceVersion: '1', creationTimestamp: created },
    spec: { cidrs: [serviceCIDR(c)] },
    status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: created, reason: '', message: 'Kubernetes Service CIDR is ready' }] },
  };
}

function nodeLease(c: Cluster, node: Node): KObject {
  const host = c.host(node.metadata.name);
  const created = Date.parse(node.metadata.creationTimestamp ?? c.timestamp());
  const last = host && kubeletRunning(host) ? c.now() : host ? kubeletStoppedAt(host, c.now()) : created;
  const renew = created + Math.floor(Math.max(0, last - created) / RENEW_MS) * RENEW_MS;
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: node.metadata.name,
      namespace: 'kube-node-lease',
      uid: `${(node.metadata.uid ?? '').slice(0, 24)}1ea5e0000000`.slice(0, 36),
      resourceVersion: String(1 + Math.floor((renew - created) / RENEW_MS)),
      creationTimestamp: node.metadata.creationTimestamp ?? c.timestamp(),
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node.metadata.name, uid: node.metadata.uid ?? '' }],
    },
    spec: { holderIdentity: node.metadata.name, leaseDurationSeconds: 40, renewTime: microTime(renew) },
  };
}

/** The derived objects of a kind (in a namespace, when namespaced), in name order. */
export function virtualObjects(c: Cluster, kind: string, namespace: string | undefined): KObject[] {
  if (kind === 'ServiceCIDR') return [defaultServiceCIDR(c)];
  if (kind === 'Lease' && (namespace === undefined || namespace === 'kube-node-lease')) return c.store.list<Node>('Node').map((n) => nodeLease(c, n));
  return [];
}
