/**
 * CNI IPAM: where pod IPs come from. Calico hands out addresses from the /26 blocks affine to
 * each node (BlockAffinity objects; the first address of a block is the node's vxlan.calico
 * tunnel address), not from node.spec.podCIDR. flannel and weave use host-local IPAM over the
 * node's podCIDR (.1 is the cni0/weave bridge gateway), round-robin from the last reserved
 * address as host-local does (containernetworking/plugins plugins/ipam/host-local/backend/allocator).
 */
import type { Cluster } from '../cluster.js';
import type { KObject, Node } from '../api/types.js';
import { cidrContains, cidrString, intToIp, ipToInt, parseCidr } from '../../util/ip.js';

export interface IpamState {
  /** ip → pod uid (or a reserved tag). */
  used: Record<string, string>;
  lastReserved: Record<string, string>;
}

function state(c: Cluster): IpamState {
  return (c.state.ipam ??= { used: {}, lastReserved: {} });
}

export function markUsed(c: Cluster, ip: string, owner: string): void {
  state(c).used[ip] = owner;
}

export function release(c: Cluster, owner: string): void {
  const s = state(c);
  for (const [ip, o] of Object.entries(s.used)) if (o === owner) delete s.used[ip];
}

export function ipOwner(c: Cluster, ip: string): string | undefined {
  return state(c).used[ip];
}

interface BlockAffinity extends KObject {
  spec: { node: string; cidr: string; state?: string; deleted?: string };
}

/** Blocks affine to a node under Calico, in CIDR order. */
export function calicoBlocks(c: Cluster, node: string): string[] {
  return c.store
    .list<BlockAffinity>('BlockAffinity')
    .filter((b) => b.spec.node === node)
    .map((b) => b.spec.cidr)
    .sort((a, b) => ipToInt(a.split('/')[0]!) - ipToInt(b.split('/')[0]!));
}

/** The pod ranges a node's IPAM allocates from. */
export function nodeRanges(c: Cluster, node: Node): string[] {
  if (c.meta.cni.plugin === 'calico') return calicoBlocks(c, node.metadata.name);
  return node.spec.podCIDR ? [node.spec.podCIDR] : [];
}

/**
 * Fixture pins: the next IP for a pod whose name starts with a prefix, so a fixture can reproduce
 * a recorded cluster's addresses (e.g. CoreDNS at 192.128.0.48 and .51 in seed 004).
 */
export interface Pin {
  namespace: string;
  prefix: string;
  ips?: string[];
  names?: string[];
}

export function pins(c: Cluster): Pin[] {
  return (c.state.pins ??= []);
}

/** Allocate a pod IP on a node; undefined when the node has no range (or it is full). */
export function allocatePodIP(c: Cluster, node: Node, owner: string, pod?: { namespace: string; name: string }): string | undefined {
  const s = state(c);
  if (pod) {
    const pin = pins(c).find((p) => p.namespace === pod.namespace && pod.name.startsWith(p.prefix) && (p.ips?.length ?? 0) > 0);
    const ip = pin?.ips?.shift();
    if (ip && !s.used[ip]) {
      s.used[ip] = owner;
      return ip;
    }
  }
  const ranges = nodeRanges(c, node);
  if (c.meta.cni.plugin === 'calico') {
    for (const r of ranges) {
      const cidr = parseCidr(r)!;
      // offset 0 is the node's tunnel address
      for (let off = 1; off < cidr.size; off++) {
        const ip = intToIp(cidr.base + off);
        if (!s.used[ip]) {
          s.used[ip] = owner;
          return ip;
        }
      }
    }
    const claimed = claimCalicoBlock(c, node.metadata.name);
    if (claimed) return allocatePodIP(c, node, owner);
    return undefined;
  }
  const r = ranges[0];
  if (!r) return undefined;
  const cidr = parseCidr(r)!;
  const first = cidr.base + 2;
  const last = cidr.base + cidr.size - 2;
  const prev = s.lastReserved[node.metadata.name];
  let start = prev && cidrContains(cidr, prev) ? ipToInt(prev) + 1 : first;
  for (let i = 0; i <= last - first; i++) {
    if (start > last) start = first;
    const ip = intToIp(start);
    if (!s.used[ip]) {
      s.used[ip] = owner;
      s.lastReserved[node.metadata.name] = ip;
      return ip;
    }
    start++;
  }
  return undefined;
}

/** Claim the next free /26 of the IPPool for a node (Calico's block affinity claim). */
function claimCalicoBlock(c: Cluster, node: string): string | undefined {
  const pools = c.store.list<KObject & { spec: { cidr: string; blockSize?: number } }>('IPPool');
  const taken = new Set(c.store.list<BlockAffinity>('BlockAffinity').map((b) => b.spec.cidr));
  for (const pool of pools) {
    const p = parseCidr(pool.spec.cidr);
    if (!p) continue;
    const bs = pool.spec.blockSize ?? 26;
    const step = 2 ** (32 - bs);
    for (let base = p.base; base < p.base + p.size; base += step) {
      const cidr = cidrString({ base, bits: bs, size: step });
      if (taken.has(cidr)) continue;
      c.insert({
        apiVersion: 'crd.projectcalico.org/v1',
        kind: 'BlockAffinity',
        metadata: { name: `${node}-${cidr.replace(/[./]/g, '-')}` },
        spec: { cidr, deleted: 'false', node, state: 'confirmed' },
      });
      return cidr;
    }
  }
  return undefined;
}
