/**
 * Connections from a pod through kube-proxy's nftables table on its node, for the real-kernel
 * check (src/sim/net/nft-flows.test.ts): scripts/record-nft-list.mjs loads the `overall` table
 * (nft-list-cases.ts, upstream's TestOverallNFTablesRules Services) into a node namespace between a
 * pod namespace (10.0.0.2, pod CIDR 10.0.0.0/8) and an endpoints namespace (10.180.0.1–5 answering
 * on port 80 with their address and the peer's), connects from the pod to each destination, and
 * records every answer it saw; then the same with the node's rules in iptables mode instead
 * (overallIptables, loaded with iptables-nft-restore).
 */
import { newIptablesState, type IptablesState } from '../sim/net/iptables.js';
import { ensureKubeletRules } from '../sim/net/kube-proxy/kubelet-rules.js';
import { syncProxyRules } from '../sim/net/kube-proxy/sync.js';
import { overallNftablesObjects } from './proxy-objects.js';

export const FLOW_POD_IP = '10.0.0.2';
export const FLOW_NODE_IP = '192.168.0.2';

/** [destination, port, what it exercises], from the node itself (nat and filter output hooks). */
export const NODE_FLOW_CASES: readonly (readonly [string, number, string])[] = [
  ['172.30.0.41', 80, 'ClusterIP from the node'],
  ['172.30.0.41', 81, 'ClusterIP from the node, a port the Service does not have'],
  ['172.30.0.46', 80, 'ClusterIP without endpoints from the node'],
  ['192.168.0.2', 3003, 'NodePort on the node IP from the node'],
  ['5.6.7.8', 80, 'LoadBalancer IP with source ranges, from the node'],
  ['1.2.3.4', 80, 'LoadBalancer IP, Local policy, no local endpoints, from the node'],
  ['192.168.99.33', 80, 'external IP from the node'],
];

/** [destination, port, what it exercises]. */
export const FLOW_CASES: readonly (readonly [string, number, string])[] = [
  ['172.30.0.41', 80, 'ClusterIP, one endpoint'],
  ['172.30.0.41', 81, 'ClusterIP, a port the Service does not have'],
  ['172.30.0.99', 80, 'an unallocated address in the service CIDR'],
  ['172.30.0.46', 80, 'ClusterIP of a Service without endpoints'],
  ['192.168.0.2', 3003, 'NodePort on the node IP'],
  ['192.168.0.2', 3001, 'NodePort of an externalTrafficPolicy Local Service without local endpoints'],
  ['192.168.0.2', 3999, 'a node port no Service has'],
  ['5.6.7.8', 80, 'LoadBalancer IP with loadBalancerSourceRanges the pod is outside of'],
  ['1.2.3.4', 80, 'LoadBalancer IP, externalTrafficPolicy Local, no local endpoints'],
  ['192.168.99.22', 80, 'external IP of the same Service'],
  ['192.168.99.33', 80, 'external IP, two endpoints'],
];

/**
 * The same Services in iptables mode, as iptables-save prints the node's rules after kube-proxy's
 * first sync (the kubelet's chains included): what the recording loads with iptables-nft-restore.
 */
export function overallIptables(): IptablesState {
  const st = newIptablesState();
  ensureKubeletRules(st);
  const { services, slices } = overallNftablesObjects();
  syncProxyRules(st, { services, endpointSlices: slices, node: { name: 'test-node', ips: [FLOW_NODE_IP] }, config: { clusterCIDR: '10.0.0.0/8', randomFully: true } });
  return st;
}
