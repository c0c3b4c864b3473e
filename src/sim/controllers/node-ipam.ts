/**
 * Node IPAM in kube-controller-manager (pkg/controller/nodeipam, range_allocator.go): with
 * `--allocate-node-cidrs=true` each node gets the next free `--node-cidr-mask-size` block of
 * `--cluster-cidr` as spec.podCIDR, in node creation order.
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Node } from '../api/types.js';
import { clone } from '../api/store.js';
import { runningFlags } from '../controlplane.js';
import { cidrString, parseCidr } from '../../util/ip.js';

export const nodeIpamController: Controller = {
  name: 'node-ipam',
  watches: ['Node', 'hosts'],
  reconcile(c: Cluster): void {
    const st = c.state.controllerManager;
    if (st && !st.up) return;
    const flags = runningFlags(c, 'kube-controller-manager');
    if (flags.get('allocate-node-cidrs') !== 'true') return;
    const cluster = parseCidr(flags.get('cluster-cidr') ?? '');
    if (!cluster) return;
    const mask = Number(flags.get('node-cidr-mask-size') ?? (cluster.bits <= 16 ? 24 : cluster.bits + 8));
    const size = 2 ** (32 - mask);
    const nodes = [...c.store.list<Node>('Node')].sort((a, b) => ((a.metadata.creationTimestamp ?? '') < (b.metadata.creationTimestamp ?? '') ? -1 : a.metadata.creationTimestamp === b.metadata.creationTimestamp ? (a.metadata.name < b.metadata.name ? -1 : 1) : 1));
    const used = new Set(nodes.map((n) => n.spec.podCIDR).filter((x): x is string => !!x));
    for (const n of nodes) {
      if (n.spec.podCIDR) continue;
      for (let base = cluster.base; base < cluster.base + cluster.size; base += size) {
        const cidr = cidrString({ base, bits: mask, size });
        if (used.has(cidr)) continue;
        used.add(cidr);
        const upd = clone(n);
        upd.spec.podCIDR = cidr;
        upd.spec.podCIDRs = [cidr];
        c.write(upd);
        break;
      }
    }
  },
};
