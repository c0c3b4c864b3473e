/**
 * Node IPAM in kube-controller-manager (pkg/controller/nodeipam, range_allocator.go): with
 * `--allocate-node-cidrs=true` each node gets the next free `--node-cidr-mask-size` block of
 * `--cluster-cidr` as spec.podCIDR, in node creation order; with a dual-stack cluster CIDR, one
 * block of each family (spec.podCIDRs, dual_stack_range_allocator behaviour of range_allocator.go).
 */
import type { Cluster, Controller } from '../cluster.js';
import type { Node } from '../api/types.js';
import { clone } from '../api/store.js';
import { runningFlags } from '../controlplane.js';
import { parseRange, rangeAddress, type IPRange } from '../../util/ip.js';

export const nodeIpamController: Controller = {
  name: 'node-ipam',
  watches: ['Node', 'hosts'],
  reconcile(c: Cluster): void {
    const st = c.state.controllerManager;
    if (st && !st.up) return;
    const flags = runningFlags(c, 'kube-controller-manager');
    if (flags.get('allocate-node-cidrs') !== 'true') return;
    // one range per family of --cluster-cidr; a dual-stack KCM masks with --node-cidr-mask-size-ipv4/-ipv6 (24/64)
    const clusters = (flags.get('cluster-cidr') ?? '').split(',').map((r) => parseRange(r)).filter((r): r is IPRange => r !== undefined);
    if (clusters.length === 0) return;
    const dual = clusters.length > 1;
    const masks = clusters.map((r) =>
      r.family === 'IPv6'
        ? Number(flags.get('node-cidr-mask-size-ipv6') ?? 64)
        : Number((dual ? flags.get('node-cidr-mask-size-ipv4') : flags.get('node-cidr-mask-size')) ?? (r.bits <= 16 ? 24 : r.bits + 8)),
    );
    const nodes = [...c.store.list<Node>('Node')].sort((a, b) => ((a.metadata.creationTimestamp ?? '') < (b.metadata.creationTimestamp ?? '') ? -1 : a.metadata.creationTimestamp === b.metadata.creationTimestamp ? (a.metadata.name < b.metadata.name ? -1 : 1) : 1));
    const used = new Set(nodes.flatMap((n) => n.spec.podCIDRs ?? (n.spec.podCIDR ? [n.spec.podCIDR] : [])));
    for (const n of nodes) {
      if (n.spec.podCIDR) continue;
      const cidrs: string[] = [];
      clusters.forEach((cluster, i) => {
        const mask = masks[i]!;
        const step = 1n << BigInt((cluster.family === 'IPv4' ? 32 : 128) - mask);
        for (let off = 0n, k = 0; off < cluster.size && k < 65536; off += step, k++) {
          const cidr = `${rangeAddress(cluster, off)}/${mask}`;
          if (used.has(cidr)) continue;
          used.add(cidr);
          cidrs.push(cidr);
          break;
        }
      });
      if (cidrs.length === 0) continue;
      const upd = clone(n);
      upd.spec.podCIDR = cidrs[0]!;
      upd.spec.podCIDRs = cidrs;
      c.write(upd);
    }
  },
};
