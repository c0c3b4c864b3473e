import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EndpointSlice, Service } from '../../api/types.js';
import { newNftState, walkNftNat } from './nftables.js';
import { syncNftables } from './nftables-sync.js';

const svc: Service = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'svc1', namespace: 'ns1' },
  spec: { type: 'NodePort', clusterIP: '172.30.0.41', ports: [{ name: 'p80', port: 80, protocol: 'TCP', nodePort: 3001 }] },
};
const slice: EndpointSlice = {
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { name: 'svc1-abc', namespace: 'ns1', labels: { 'kubernetes.io/service-name': 'svc1' } },
  addressType: 'IPv4',
  endpoints: [{ addresses: ['10.180.0.1'], conditions: { ready: true } }],
  ports: [{ name: 'p80', port: 80, protocol: 'TCP' }],
};

// Names and rule text as in pkg/proxy/nftables/proxier_test.go (ULMVA6XW-ns1/svc1/tcp/p80,
// 5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80), mark 0x004000 (`%#08x`).
test('syncNftables: chain names, maps and the nodeport-ips set (primary IP only)', () => {
  const st = newNftState();
  const t = syncNftables(st, { services: [svc], endpointSlices: [slice], node: { name: 'n1', ips: ['192.168.0.2'] }, config: { mode: 'nftables', clusterCIDR: '10.0.0.0/8' }, serviceCIDRs: ['172.30.0.0/16'] });
  const rules = (name: string): string[] => t.chains.find((c) => c.name === name)?.rules.map((r) => r.text) ?? [];
  const elems = (name: string): string[] => t.sets.find((s) => s.name === name)?.elements.map((e) => `${e.key.join(' . ')}${e.value ? ` : ${e.value}` : ''}`) ?? [];
  assert.deepEqual(rules('service-ULMVA6XW-ns1/svc1/tcp/p80'), [
    'ip daddr 172.30.0.41 ip saddr != 10.0.0.0/8 jump mark-for-masquerade',
    'numgen random mod 1 vmap { 0 : goto endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80 }',
  ]);
  assert.deepEqual(rules('external-ULMVA6XW-ns1/svc1/tcp/p80'), ['jump mark-for-masquerade', 'goto service-ULMVA6XW-ns1/svc1/tcp/p80']);
  assert.deepEqual(rules('endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80'), ['ip saddr 10.180.0.1 jump mark-for-masquerade', 'meta l4proto tcp dnat to 10.180.0.1:80']);
  assert.deepEqual(rules('mark-for-masquerade'), ['mark set mark or 0x004000']);
  assert.deepEqual(rules('services'), ['ip daddr . meta l4proto . th dport vmap @service-ips', 'ip daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports']);
  assert.deepEqual(elems('service-ips'), ['172.30.0.41 . tcp . 80 : goto service-ULMVA6XW-ns1/svc1/tcp/p80']);
  assert.deepEqual(elems('service-nodeports'), ['tcp . 3001 : goto external-ULMVA6XW-ns1/svc1/tcp/p80']);
  assert.deepEqual(elems('nodeport-ips'), ['192.168.0.2']);
  const ctx = { localAddrs: ['192.168.0.2'], rng: { int: (): number => 0 } };
  assert.deepEqual(walkNftNat(t, { src: '192.168.0.9', dst: '192.168.0.2', proto: 'tcp', dport: 3001 }, 'prerouting', ctx).dnat, { ip: '10.180.0.1', port: 80 });
  assert.equal(walkNftNat(t, { src: '192.168.0.9', dst: '127.0.0.1', proto: 'tcp', dport: 3001 }, 'output', ctx).dnat, undefined);
});
