import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFixture } from '../../testing/fixtures.js';
import { addSeed000Web } from './seed000.js';
import { connect, packetWith, podAddressReads } from './path.js';
import type { Packet } from '../net/packet.js';
import { clusterIPWalkBench, kubeProxySyncBench, nslookupBench } from './bench.js';
import { loadKubeProxyConfig } from '../controllers/kube-proxy.js';
import { Cluster } from '../cluster.js';
import { ManualClock } from '../../util/clock.js';
import { CONTROLLERS } from '../controllers/index.js';

test('connect: table of outcomes on seed 000', () => {
  const c = loadFixture('kubeadm-calico', 0);
  addSeed000Web(c);
  const cases: { name: string; from: Parameters<typeof connect>[1]; dst: string; port: number; proto: 'tcp' | 'udp' | 'icmp'; ok: boolean; error?: string }[] = [
    { name: 'ClusterIP from pod', from: { kind: 'pod', ns: 'net', name: 'c' }, dst: '10.111.80.136', port: 80, proto: 'tcp', ok: true },
    { name: 'ClusterIP wrong port', from: { kind: 'pod', ns: 'net', name: 'c' }, dst: '10.111.80.136', port: 81, proto: 'tcp', ok: false, error: 'timeout' },
    { name: 'ping ClusterIP (virtual)', from: { kind: 'pod', ns: 'net', name: 'c' }, dst: '10.111.80.136', port: 0, proto: 'icmp', ok: false, error: 'timeout' },
    { name: 'ping pod', from: { kind: 'pod', ns: 'net', name: 'c' }, dst: '10.244.62.167', port: 0, proto: 'icmp', ok: true },
    { name: 'NodePort from node', from: { kind: 'node', host: 'cka-cp1' }, dst: '192.168.122.11', port: 31777, proto: 'tcp', ok: true },
    { name: 'workstation to pod IP', from: { kind: 'workstation' }, dst: '10.244.62.167', port: 80, proto: 'tcp', ok: false, error: 'timeout' },
    { name: 'kube-dns from node', from: { kind: 'node', host: 'cka-w1' }, dst: '10.96.0.10', port: 53, proto: 'udp', ok: true },
    { name: 'apiserver via kubernetes Service', from: { kind: 'pod', ns: 'net', name: 'c' }, dst: '10.96.0.1', port: 443, proto: 'tcp', ok: true },
  ];
  for (const k of cases) {
    const r = connect(c, k.from, k.dst, k.port, k.proto);
    assert.equal(r.ok, k.ok, `${k.name}\n${r.trace.join('\n')}`);
    if (k.error) assert.equal(r.error, k.error, k.name);
  }
});

test('a Service without endpoints is REJECTed (refused)', () => {
  const c = loadFixture('kubeadm-calico', 0);
  addSeed000Web(c);
  c.insert({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'empty', namespace: 'net' }, spec: { clusterIP: '10.100.0.50', clusterIPs: ['10.100.0.50'], selector: { app: 'none' }, ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }] } });
  c.settle();
  const r = connect(c, { kind: 'pod', ns: 'net', name: 'c' }, '10.100.0.50', 80, 'tcp');
  assert.equal(r.error, 'refused', r.trace.join('\n'));
});

test('kube-proxy config errors use kube-proxy wording', () => {
  const cases: { name: string; text: string | undefined; error: RegExp }[] = [
    { name: 'bad mode', text: 'apiVersion: kubeproxy.config.k8s.io/v1alpha1\nkind: KubeProxyConfiguration\nmode: foo\n', error: /^failed validate: KubeProxyConfiguration\.ProxyMode: Invalid value: "foo": must be iptables, ipvs, nftables or blank/ },
    { name: 'broken yaml', text: 'kind: KubeProxyConfiguration\nmode: [\n', error: /^failed complete: failed to decode: error converting YAML to JSON: yaml: line \d+:/ },
    { name: 'missing file', text: undefined, error: /^failed complete: open \/var\/lib\/kube-proxy\/config\.conf: no such file or directory$/ },
  ];
  for (const k of cases) {
    const r = loadKubeProxyConfig(k.text);
    assert.equal(r.ok, false, k.name);
    if (!r.ok) assert.match(r.error, k.error, k.name);
  }
  assert.deepEqual(loadKubeProxyConfig('kind: KubeProxyConfiguration\nmode: ""\nclusterCIDR: 10.244.0.0/16\n'), { ok: true, config: { mode: '', randomFully: true, clusterCIDR: '10.244.0.0/16' } });
});

test('snapshot/restore rebuilds the CoreDNS runtimes', () => {
  const c = loadFixture('kubeadm-calico', 0);
  addSeed000Web(c);
  const snap = c.snapshot();
  const r = Cluster.restore(snap, new ManualClock(snap.now), CONTROLLERS);
  assert.equal(nslookupBench(r)(), 0);
});

test('bench bodies run (small sizes)', () => {
  assert.ok(kubeProxySyncBench(100, 500)() > 1000);
  const c = loadFixture('kubeadm-calico', 0);
  addSeed000Web(c);
  assert.equal(clusterIPWalkBench(c)(), true);
  assert.equal(nslookupBench(c)(), 0);
});

test('a NodePort on another node is DNATed by that node (curl from cka-w1 to the control plane)', () => {
  const c = loadFixture('kubeadm-calico', 0);
  addSeed000Web(c);
  const r = connect(c, { kind: 'node', host: 'cka-w1' }, '192.168.122.11', 31777, 'tcp');
  assert.equal(r.ok, true, r.trace.join('\n'));
  assert.ok(r.trace.some((l) => l.startsWith('cka-cp1: DNAT 192.168.122.11:31777 → ')), r.trace.join('\n'));
});

test('the first Service change after a snapshot restore reaches the rules (REJECT → refused)', () => {
  const c = loadFixture('kubeadm-calico', 0);
  addSeed000Web(c);
  const snap = c.snapshot();
  const r = Cluster.restore(snap, new ManualClock(snap.now), CONTROLLERS);
  r.insert({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'empty', namespace: 'net' }, spec: { clusterIP: '10.100.0.50', clusterIPs: ['10.100.0.50'], selector: { app: 'none' }, ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }] } });
  r.settle();
  const res = connect(r, { kind: 'pod', ns: 'net', name: 'c' }, '10.100.0.50', 80, 'tcp');
  assert.equal(res.error, 'refused', res.trace.join('\n'));
});

test('packetWith gives what the spread gives, every field of a packet copied', () => {
  const full: Required<Packet> = { src: '10.0.0.1', dst: '10.0.0.2', proto: 'udp', sport: 1, dport: 2, inIface: 'eth0', outIface: 'eth1', mark: 0x4000, ctstates: ['NEW'] };
  const bare: Packet = { src: '10.0.0.1', dst: '10.0.0.2', proto: 'icmp' };
  for (const p of [full, bare]) {
    assert.deepEqual(packetWith(p, {}), { ...p });
    assert.deepEqual(packetWith(p, { inIface: 'cali1' }), { ...p, inIface: 'cali1' });
    assert.deepEqual(packetWith(p, { src: '', inIface: 'x' }), { ...p, src: '', inIface: 'x' });
    assert.deepEqual(packetWith(p, { ctstates: ['NEW', 'DNAT'] }), { ...p, ctstates: ['NEW', 'DNAT'] });
  }
});

test("a stored pod's addresses are read once per version, and the connection is the same", () => {
  const c = loadFixture('kubeadm-calico', 0);
  addSeed000Web(c);
  // straight to a pod: no endpoint is drawn, so both connections take the same path
  const go = (): unknown => {
    const r = connect(c, { kind: 'pod', ns: 'net', name: 'c' }, '10.244.62.167', 80, 'tcp');
    return [r.ok, r.srcSeen, r.to?.ip, r.trace];
  };
  const first = go();
  const before = podAddressReads();
  assert.deepEqual(go(), first);
  assert.equal(podAddressReads(), before, "the second connection read the pods' addresses again");
});
