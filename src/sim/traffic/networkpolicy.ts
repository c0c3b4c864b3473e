/**
 * NetworkPolicy verdicts as the networking.k8s.io/v1 semantics define them (and Calico's and Weave's
 * policy controllers implement them): a pod is isolated for a direction when any policy selecting it
 * has that policy type (Ingress always, Egress when listed or when egress rules exist); an isolated
 * pod accepts a connection only if some rule of some selecting policy matches both the peer
 * (podSelector / namespaceSelector / both / ipBlock with except) and the port (number, named port
 * resolved on the destination pod's containers, endPort ranges, protocol defaulting to TCP).
 * Flannel does not enforce policies at all: `enforcesNetworkPolicy` says which CNI does.
 */
import type { Cluster } from '../cluster.js';
import type { Namespace, NetworkPolicy, NetworkPolicyPeer, NetworkPolicyPort, Pod } from '../api/types.js';
import { matchLabelSelector } from '../api/selectors.js';
import { cidrContains, parseCidr, parseIPv4 } from '../net/ipv4.js';
import { cidr6Contains, parseCidr6 } from '../net/ipv6.js';

export type Direction = 'ingress' | 'egress';

export interface PolicyPeer {
  ip: string;
  pod?: Pod;
}

export interface PolicyVerdict {
  allowed: boolean;
  /** `ns/name` of the policies that isolate the pod in this direction (empty: not isolated). */
  policies: string[];
}

/** Calico and Weave Net enforce NetworkPolicy; flannel has no policy engine. */
export function enforcesNetworkPolicy(c: Cluster): boolean {
  return c.meta.cni.plugin === 'calico' || c.meta.cni.plugin === 'weave';
}

function isolates(np: NetworkPolicy, dir: Direction): boolean {
  const types = np.spec.policyTypes;
  if (types && types.length > 0) return types.includes(dir === 'ingress' ? 'Ingress' : 'Egress');
  return dir === 'ingress' || (np.spec.egress?.length ?? 0) > 0;
}

function namespaceLabels(c: Cluster, ns: string): Record<string, string> {
  const obj = c.store.get<Namespace>('Namespace', undefined, ns);
  return { ...(obj?.metadata.labels ?? {}), 'kubernetes.io/metadata.name': ns };
}

function peerMatches(c: Cluster, np: NetworkPolicy, peer: NetworkPolicyPeer, who: PolicyPeer): boolean {
  if (peer.ipBlock) {
    // an ipBlock of one family matches peers of that family only (an IPv6 block never an IPv4 address)
    const inside = (cidr: string): boolean => {
      const ip = parseIPv4(who.ip);
      if (ip !== undefined) {
        const block = parseCidr(cidr);
        return block !== undefined && cidrContains(block, ip);
      }
      const b6 = parseCidr6(cidr);
      return b6 !== undefined && b6 !== 'mask' && cidr6Contains(b6.addr, b6.prefix, who.ip);
    };
    if (!inside(peer.ipBlock.cidr)) return false;
    return !(peer.ipBlock.except ?? []).some(inside);
  }
  const pod = who.pod;
  if (!pod) return false;
  const podNs = pod.metadata.namespace ?? 'default';
  if (peer.namespaceSelector) {
    if (!matchLabelSelector(peer.namespaceSelector, namespaceLabels(c, podNs))) return false;
  } else if (podNs !== (np.metadata.namespace ?? 'default')) return false;
  return peer.podSelector ? matchLabelSelector(peer.podSelector, pod.metadata.labels) : true;
}

/** The numeric port a NetworkPolicyPort names on `target` (named ports resolve per pod). */
function portMatches(p: NetworkPolicyPort, port: number, proto: string, target: Pod | undefined): boolean {
  if ((p.protocol ?? 'TCP').toLowerCase() !== proto) return false;
  if (p.port === undefined) return true;
  let n: number | undefined;
  if (typeof p.port === 'number') n = p.port;
  else if (/^\d+$/.test(p.port)) n = Number(p.port);
  else
    n = target?.spec.containers.flatMap((ct) => ct.ports ?? []).find((cp) => cp.name === p.port && (cp.protocol ?? 'TCP').toLowerCase() === proto)?.containerPort;
  if (n === undefined) return false;
  return p.endPort !== undefined ? port >= n && port <= p.endPort : port === n;
}

/**
 * Whether `pod` may send (egress) to / receive (ingress) from `peer` on `port`/`proto`
 * (proto lower case). For egress the named-port lookup uses the destination pod (`peer.pod`).
 */
export function policyVerdict(c: Cluster, dir: Direction, pod: Pod, peer: PolicyPeer, port: number, proto: string): PolicyVerdict {
  const ns = pod.metadata.namespace ?? 'default';
  const selecting = c.store
    .list<NetworkPolicy>('NetworkPolicy', ns)
    .filter((np) => isolates(np, dir) && matchLabelSelector(np.spec.podSelector, pod.metadata.labels));
  if (selecting.length === 0) return { allowed: true, policies: [] };
  const names = selecting.map((np) => `${ns}/${np.metadata.name}`);
  const target = dir === 'ingress' ? pod : peer.pod;
  for (const np of selecting) {
    const rules = dir === 'ingress' ? (np.spec.ingress ?? []).map((r) => ({ peers: r.from, ports: r.ports })) : (np.spec.egress ?? []).map((r) => ({ peers: r.to, ports: r.ports }));
    for (const r of rules) {
      const portOk = !r.ports || r.ports.length === 0 || r.ports.some((p) => portMatches(p, port, proto, target));
      if (!portOk) continue;
      const peerOk = !r.peers || r.peers.length === 0 || r.peers.some((p) => peerMatches(c, np, p, peer));
      if (peerOk) return { allowed: true, policies: names };
    }
  }
  return { allowed: false, policies: names };
}
