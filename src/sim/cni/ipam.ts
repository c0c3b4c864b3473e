/**
 * CNI IPAM: where pod IPs come from. Calico hands out addresses from the /26 blocks affine to
 * each node (BlockAffinity objects; the first address of a block is the node's vxlan.calico
 * tunnel address), not from node.spec.podCIDR. flannel and weave use host-local IPAM over the
 * node's podCIDR (.1 is the cni0/weave bridge gateway), round-robin from the last reserved
 * address as host-local does (containernetworking/plugins plugins/ipam/host-local/backend/allocator).
 */
import type { Cluster } from '../cluster.js';
import type { KObject, Node } from '../api/types.js';
import { cidrContains, intToIp, ipFamilyOf, ipToInt, parseCidr, parseRange, rangeAddress, type IPFamily } from '../../util/ip.js';

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

/** Blocks of one family affine to a node under Calico, in address order. */
export function calicoBlocks(c: Cluster, node: string, family: IPFamily = 'IPv4'): string[] {
  return c.store
    .list<BlockAffinity>('BlockAffinity')
    .filter((b) => b.spec.node === node && ipFamilyOf(b.spec.cidr.split('/')[0]!) === family)
    .map((b) => b.spec.cidr)
    .sort((a, b) => (family === 'IPv4' ? ipToInt(a.split('/')[0]!) - ipToInt(b.split('/')[0]!) : Number(parseRange(a)!.base - parseRange(b)!.base)));
}

/** The pod ranges of one family a node's IPAM allocates from. */
export function nodeRanges(c: Cluster, node: Node, family: IPFamily = 'IPv4'): string[] {
  if (c.meta.cni.plugin === 'calico') return calicoBlocks(c, node.metadata.name, family);
  if (family === 'IPv4') return node.spec.podCIDR ? [node.spec.podCIDR] : [];
  return (node.spec.podCIDRs ?? []).filter((r) => ipFamilyOf(r.split('/')[0]!) === family);
}

/**
 * The families the pod network hands out, primary first: Calico's IP pools (CALICO_IPV4POOL_CIDR,
 * CALICO_IPV6POOL_CIDR), host-local IPAM's node podCIDRs. A dual-stack pod gets one of each.
 */
export function podFamilies(c: Cluster, node: Node): IPFamily[] {
  const cidrs = c.meta.cni.plugin === 'calico' ? c.store.list<KObject & { spec: { cidr: string } }>('IPPool').map((p) => p.spec.cidr) : (node.spec.podCIDRs ?? []);
  const fams = new Set(cidrs.map((r) => ipFamilyOf(r.split('/')[0]!)));
  return fams.has('IPv6') ? ['IPv4', 'IPv6'] : ['IPv4'];
}

/**
 * A dual-stack pod's IPv6 address from its node's Calico /122 blocks (offset 0 is the node's
 * vxlan-v6.calico tunnel address, as for IPv4), claiming a new block of the IPv6 pool when they
 * are full. Host-local IPAM over an IPv6 podCIDR (flannel, weave) is not modelled.
 */
export function allocatePodIPv6(c: Cluster, node: Node, owner: string): string | undefined {
  if (c.meta.cni.plugin !== 'calico') return undefined;
  const s = state(c);
  for (const r of calicoBlocks(c, node.metadata.name, 'IPv6')) {
    const range = parseRange(r)!;
    for (let off = 1n; off < range.size; off++) {
      const ip = rangeAddress(range, off);
      if (!s.used[ip]) {
        s.used[ip] = owner;
        return ip;
      }
    }
  }
  return claimCalicoBlock(c, node.metadata.name, 'IPv6') ? allocatePodIPv6(c, node, owner) : undefined;
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
    const claimed = claimCalicoBlock(c, node.metadata.name, 'IPv4');
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

/** Claim the next free block of a family's IPPool for a node (Calico's block affinity claim). */
function claimCalicoBlock(c: Cluster, node: string, family: IPFamily): string | undefined {
  const pools = c.store.list<KObject & { spec: { cidr: string; blockSize?: number } }>('IPPool');
  const taken = new Set(c.store.list<BlockAffinity>('BlockAffinity').map((b) => b.spec.cidr));
  for (const pool of pools) {
    const p = parseRange(pool.spec.cidr);
    if (!p || p.family !== family) continue;
    const bs = pool.spec.blockSize ?? (family === 'IPv4' ? 26 : 122);
    const step = 1n << BigInt((family === 'IPv4' ? 32 : 128) - bs);
    // a block search stops after 2^16 blocks: an IPv6 pool is far larger than any cluster needs
    for (let off = 0n, n = 0; off < p.size && n < 65536; off += step, n++) {
      const cidr = `${rangeAddress(p, off)}/${bs}`;
      if (taken.has(cidr)) continue;
      c.insert({
        apiVersion: 'crd.projectcalico.org/v1',
        kind: 'BlockAffinity',
        metadata: { name: blockAffinityName(node, cidr) },
        spec: { cidr, deleted: 'false', node, state: 'confirmed' },
      });
      return cidr;
    }
  }
  return undefined;
}

/** libcalico-go's BlockAffinity name: the node, then the CIDR with `.`, `:` and `/` as `-` (names.CIDRToName). */
export function blockAffinityName(node: string, cidr: string): string {
  return `${node}-${cidr.replace(/[.:/]/g, '-')}`;
}
