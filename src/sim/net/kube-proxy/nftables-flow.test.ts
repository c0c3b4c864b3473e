/**
 * Packets through the nftables proxier's table, as upstream's packet-flow tests send them
 * (pkg/proxy/nftables/proxier_test.go TestLoadBalancer with runPacketFlowTests, and session
 * affinity): the pre-DNAT filter chain, nat, then the filter chain at the filter priority on the
 * translated packet. Sources that are the node's own addresses go through output, others
 * through prerouting (helpers_test.go's tracer does the same).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EndpointSlice, Service } from '../../api/types.js';
import { endpointSlice } from '../../../testing/proxy-objects.js';
import { newNftState, nftAffinity, walkNftFilter, walkNftNat, type NftAffinityState, type NftTable } from './nftables.js';
import { syncNftables } from './nftables-sync.js';

const NODE_IP = '192.168.0.2';

function table(svc: Service, slice: EndpointSlice): NftTable {
  return syncNftables(newNftState(), { services: [svc], endpointSlices: [slice], node: { name: 'test-node', ips: [NODE_IP] }, config: { mode: 'nftables', clusterCIDR: '10.0.0.0/8' }, serviceCIDRs: ['172.30.0.0/16'] });
}

/** The packet's fate: DROP, REJECT, or `ip:port` it was DNATed to (with ` masq` when marked). */
function flow(t: NftTable, src: string, dst: string, dport: number, affinity?: NftAffinityState, now = 0): string {
  const local = src === NODE_IP;
  const ctx = { localAddrs: [NODE_IP], rng: { int: (): number => 0 }, ...(affinity ? { affinity: nftAffinity(affinity, now) } : {}) };
  const p = { src, dst, proto: 'tcp', dport };
  const pre = walkNftFilter(t, p, local ? 'filter-output-pre-dnat' : 'filter-prerouting-pre-dnat', ctx);
  if (pre.verdict !== 'ACCEPT') return pre.verdict;
  const nat = walkNftNat(t, p, local ? 'output' : 'prerouting', ctx);
  const out = nat.dnat ? { ...p, dst: nat.dnat.ip, dport: nat.dnat.port } : p;
  const post = walkNftFilter(t, out, local ? 'filter-output' : out.dst === NODE_IP ? 'filter-input' : 'filter-forward', ctx);
  if (post.verdict !== 'ACCEPT') return post.verdict;
  return nat.dnat ? `${nat.dnat.ip}:${nat.dnat.port}${nat.masquerade ? ' masq' : ''}` : 'no DNAT';
}

test('TestLoadBalancer: loadBalancerSourceRanges filter before DNAT; NodePorts bypass them; the node may reach its own VIPs', () => {
  const svc: Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'svc1', namespace: 'ns1' },
    spec: { type: 'LoadBalancer', clusterIP: '172.30.0.41', loadBalancerSourceRanges: ['192.168.0.0/24', ' 203.0.113.0/25'], ports: [{ name: 'p80', port: 80, protocol: 'TCP', nodePort: 3001 }] },
    status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }, { ip: '5.6.7.8' }] } },
  };
  const t = table(svc, endpointSlice('ns1', 'svc1', 'p80', 80, ['10.180.0.1']));
  const cases: { name: string; src: string; dst: string; port: number; want: string }[] = [
    { name: 'pod to cluster IP', src: '10.0.0.2', dst: '172.30.0.41', port: 80, want: '10.180.0.1:80' },
    { name: 'external to nodePort', src: '203.0.113.2', dst: NODE_IP, port: 3001, want: '10.180.0.1:80 masq' },
    { name: 'nodePort bypasses LoadBalancerSourceRanges', src: '203.0.113.130', dst: NODE_IP, port: 3001, want: '10.180.0.1:80 masq' },
    { name: 'accepted external to LB1', src: '203.0.113.2', dst: '1.2.3.4', port: 80, want: '10.180.0.1:80 masq' },
    { name: 'accepted external to LB2', src: '203.0.113.2', dst: '5.6.7.8', port: 80, want: '10.180.0.1:80 masq' },
    { name: 'blocked external to LB1', src: '203.0.113.130', dst: '1.2.3.4', port: 80, want: 'DROP' },
    { name: 'pod to LB2 (blocked by LoadBalancerSourceRanges)', src: '10.0.0.2', dst: '5.6.7.8', port: 80, want: 'DROP' },
    { name: 'node to LB1 (allowed by LoadBalancerSourceRanges)', src: NODE_IP, dst: '1.2.3.4', port: 80, want: '10.180.0.1:80 masq' },
    { name: 'same node to LB2, SNATted to LB2 (implicitly allowed)', src: '5.6.7.8', dst: '5.6.7.8', port: 80, want: '10.180.0.1:80 masq' },
  ];
  for (const tc of cases) assert.equal(flow(t, tc.src, tc.dst, tc.port), tc.want, tc.name);
});

test('session affinity: a client sticks to the endpoint it reached until the set timeout passes', () => {
  const svc: Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'svc1', namespace: 'ns1' },
    spec: { type: 'ClusterIP', clusterIP: '172.30.0.41', sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } }, ports: [{ name: 'p80', port: 80, protocol: 'TCP' }] },
  };
  const t = table(svc, endpointSlice('ns1', 'svc1', 'p80', 80, ['10.180.0.1', '10.180.0.2']));
  const state: NftAffinityState = {};
  // the random choice is always the first endpoint here; pin the client to the second by hand, as a first connection would
  const second = t.sets.find((s) => s.name.endsWith('__10.180.0.2/80'))!.name;
  nftAffinity(state, 0).update(second, '10.0.0.9');
  assert.equal(flow(t, '10.0.0.9', '172.30.0.41', 80, state, 30_000), '10.180.0.2:80', 'within the timeout: the remembered endpoint');
  assert.equal(flow(t, '10.0.0.8', '172.30.0.41', 80, state, 30_000), '10.180.0.1:80', 'another client: load-balanced');
  assert.equal(flow(t, '10.0.0.9', '172.30.0.41', 80, state, 30_000 + 59_000), '10.180.0.2:80', 'the last packet refreshed the element');
  assert.equal(flow(t, '10.0.0.9', '172.30.0.41', 80, state, 30_000 + 59_000 + 61_000), '10.180.0.1:80', 'expired: load-balanced again, and remembered there');
  assert.ok(state[t.sets.find((s) => s.name.endsWith('__10.180.0.1/80'))!.name]?.['10.0.0.9'] !== undefined);
});
