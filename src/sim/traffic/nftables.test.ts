/**
 * kube-proxy in nftables mode (pkg/proxy/nftables/proxier.go): after `mode: nftables` in the
 * kube-proxy ConfigMap the proxies restart, remove their iptables rules (platformCleanup) and
 * program the `ip kube-proxy` table; NodePorts answer on the node's primary IP from nodes, pods
 * and the workstation, ClusterIPs still work, a Service without endpoints is rejected.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { addSeed000Web } from './seed000.js';
import { connect } from './path.js';
import { ApiServer } from '../apiserver.js';
import type { ConfigMap } from '../api/types.js';
import type { Cluster } from '../cluster.js';
import { nodeIptables } from '../node/runtime.js';
import { renderListRules } from '../net/render.js';

function nftablesMode(c: Cluster): void {
  const api = new ApiServer(c);
  const cm = structuredClone(c.store.get<ConfigMap>('ConfigMap', 'kube-system', 'kube-proxy')!);
  const text = cm.data!['config.conf']!;
  assert.match(text, /^mode: ""$/m);
  cm.data!['config.conf'] = text.replace(/^mode: ""$/m, 'mode: nftables');
  api.update(cm);
  c.advance(60_000);
}

test('nftables mode: NodePorts, ClusterIPs and no-endpoint rejects follow the nftables proxier', () => {
  const c = loadFixture('kubeadm-calico', 0);
  addSeed000Web(c);
  nftablesMode(c);
  c.insert({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'empty', namespace: 'net' }, spec: { type: 'NodePort', clusterIP: '10.100.0.50', clusterIPs: ['10.100.0.50'], selector: { app: 'none' }, ports: [{ port: 80, protocol: 'TCP', targetPort: 80, nodePort: 31888 }] } });
  c.insert({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web2', namespace: 'net' }, spec: { type: 'NodePort', clusterIP: '10.100.0.51', clusterIPs: ['10.100.0.51'], selector: { app: 'web' }, ports: [{ port: 80, protocol: 'TCP', targetPort: 80, nodePort: 31999 }] } });
  c.settle();
  const cases: { name: string; from: Parameters<typeof connect>[1]; dst: string; port: number; ok: boolean; error?: string }[] = [
    { name: 'NodePort from another node', from: { kind: 'node', host: 'cka-w1' }, dst: '192.168.122.11', port: 31777, ok: true },
    { name: 'NodePort from the node itself', from: { kind: 'node', host: 'cka-cp1' }, dst: '192.168.122.11', port: 31777, ok: true },
    { name: 'NodePort from a pod', from: { kind: 'pod', ns: 'net', name: 'c' }, dst: '192.168.122.21', port: 31777, ok: true },
    { name: 'NodePort from the workstation', from: { kind: 'workstation' }, dst: '192.168.122.22', port: 31777, ok: true },
    { name: 'a NodePort created in nftables mode, from a pod', from: { kind: 'pod', ns: 'net', name: 'c' }, dst: '192.168.122.22', port: 31999, ok: true },
    { name: 'a NodePort created in nftables mode, from a node', from: { kind: 'node', host: 'cka-w2' }, dst: '192.168.122.21', port: 31999, ok: true },
    { name: 'no localhost NodePorts in nftables mode', from: { kind: 'node', host: 'cka-w1' }, dst: '127.0.0.1', port: 31777, ok: false, error: 'refused' },
    { name: 'ClusterIP from a pod', from: { kind: 'pod', ns: 'net', name: 'c' }, dst: '10.111.80.136', port: 80, ok: true },
    { name: 'ClusterIP, wrong port: cluster-ips-check rejects', from: { kind: 'pod', ns: 'net', name: 'c' }, dst: '10.111.80.136', port: 81, ok: false, error: 'refused' },
    { name: 'no endpoints: ClusterIP rejected', from: { kind: 'pod', ns: 'net', name: 'c' }, dst: '10.100.0.50', port: 80, ok: false, error: 'refused' },
    { name: 'no endpoints: NodePort rejected', from: { kind: 'workstation' }, dst: '192.168.122.21', port: 31888, ok: false, error: 'refused' },
    { name: 'kube-dns from a node', from: { kind: 'node', host: 'cka-w1' }, dst: '10.96.0.10', port: 53, ok: true },
  ];
  for (const k of cases) {
    const r = connect(c, k.from, k.dst, k.port, 'tcp');
    assert.equal(r.ok, k.ok, `${k.name}\n${r.trace.join('\n')}`);
    if (k.error) assert.equal(r.error, k.error, `${k.name}\n${r.trace.join('\n')}`);
  }
  const viaNft = connect(c, { kind: 'pod', ns: 'net', name: 'c' }, '192.168.122.21', 31777, 'tcp');
  assert.ok(viaNft.trace.some((l) => /nft nat-prerouting: .*ip daddr @nodeport-ips meta l4proto \. th dport vmap @service-nodeports .*external-[A-Z2-7]{8}-net\/web\/tcp\/: .*dnat to 10\.244\./.test(l)), viaNft.trace.join('\n'));
  // platformCleanup removed kube-proxy's iptables chains (the kubelet's stay)
  const nat = renderListRules(nodeIptables(c.host('cka-w1')!).tables.nat!);
  assert.doesNotMatch(nat, /KUBE-SERVICES|KUBE-SVC-|KUBE-NODEPORTS/);
});
