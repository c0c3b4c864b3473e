/**
 * A dual-stack cluster's control plane (testdata/kubeadm-calico-dualstack.yaml): nodes with an
 * address and a podCIDR of each family, pods with an IPv4 and an IPv6 address, Services that get
 * the families their ipFamilyPolicy asks for, one EndpointSlice per address type, and the API
 * server's own checks of --service-cluster-ip-range.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildCluster, parseFixture } from './fixture/build.js';
import { CONTROLLERS } from './controllers/index.js';
import { ApiServer } from './apiserver.js';
import { serviceRangeError } from './runtime/components.js';
import { virtualObjects } from './virtual-objects.js';
import type { Cluster } from './cluster.js';
import type { ConfigMap, EndpointSlice, Endpoints, KObject, Node, Pod, Service } from './api/types.js';
import { kubeProxyTable } from './net/kube-proxy/nftables.js';
import { runNftTransaction } from './net/kube-proxy/nftables-tx.js';
import { connect } from './traffic/path.js';
import { nodeIp6tables, nodeIptables, nodeNftables } from './node/runtime.js';
import { findChain, ownChain } from './net/iptables.js';

function dualStack(): Cluster {
  const text = readFileSync(new URL('../../fixtures/kubeadm-calico-dualstack.yaml', import.meta.url), 'utf8');
  return buildCluster(parseFixture(text, 'kubeadm-calico-dualstack.yaml'), { seed: 1, controllers: CONTROLLERS });
}

/** The dual-stack cluster with kube-proxy switched to nftables mode (its ConfigMap edited, the pods restarted). */
function dualStackNftables(): Cluster {
  const c = dualStack();
  const cm = structuredClone(c.store.get<ConfigMap>('ConfigMap', 'kube-system', 'kube-proxy')!);
  cm.data!['config.conf'] = cm.data!['config.conf']!.replace(/^mode: ""$/m, 'mode: nftables');
  new ApiServer(c).update(cm);
  c.advance(60_000);
  return c;
}

const V6 = /^fd00:10:244:/;

test('dual-stack nodes carry an address and a podCIDR of each family', () => {
  const c = dualStack();
  const w1 = c.store.get<Node>('Node', undefined, 'cka-w1')!;
  assert.deepEqual(w1.status?.addresses, [
    { address: '192.168.122.21', type: 'InternalIP' },
    { address: 'fd00:192:168:122::21', type: 'InternalIP' },
    { address: 'cka-w1', type: 'Hostname' },
  ]);
  assert.deepEqual(w1.spec.podCIDRs, ['10.244.1.0/24', 'fd00:10:244:1::/64']);
  assert.equal(w1.metadata.annotations?.['projectcalico.org/IPv6Address'], 'fd00:192:168:122::21/64');
  assert.match(c.host('cka-w1')!.fs.read('/var/lib/kubelet/kubeadm-flags.env'), /--node-ip=192\.168\.122\.21,fd00:192:168:122::21"/);
  assert.deepEqual(virtualObjects(c, 'ServiceCIDR', undefined).map((o) => (o as KObject & { spec: { cidrs: string[] } }).spec.cidrs), [['10.96.0.0/12', 'fd00:10:96::/108']]);
});

test('dual-stack pods get an IPv4 and an IPv6 address; host-network pods the node’s two', () => {
  const c = dualStack();
  const pods = c.store.list<Pod>('Pod', 'kube-system');
  const dns = pods.filter((p) => p.metadata.name.startsWith('coredns-'));
  assert.equal(dns.length, 2);
  for (const p of dns) {
    const ips = (p.status?.podIPs ?? []).map((x) => x.ip);
    assert.equal(ips.length, 2, p.metadata.name);
    assert.equal(ips[0], p.status?.podIP);
    assert.match(ips[0]!, /^10\.244\./);
    assert.match(ips[1]!, V6);
  }
  const proxy = pods.find((p) => p.metadata.name.startsWith('kube-proxy-') && p.spec.nodeName === 'cka-w2')!;
  assert.deepEqual(proxy.status?.podIPs, [{ ip: '192.168.122.22' }, { ip: 'fd00:192:168:122::22' }]);
  assert.deepEqual(proxy.status?.hostIPs, [{ ip: '192.168.122.22' }, { ip: 'fd00:192:168:122::22' }]);
});

function service(name: string, spec: Record<string, unknown>): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'kube-system' }, spec: { selector: { 'k8s-app': 'kube-dns' }, ports: [{ name: 'dns', port: 53, protocol: 'UDP' }], ...spec } } as Service;
}

const cases: { name: string; spec: Record<string, unknown>; families: string[]; v1: RegExp }[] = [
  { name: 'default', spec: {}, families: ['IPv4'], v1: /^10\.244\./ },
  { name: 'prefer', spec: { ipFamilyPolicy: 'PreferDualStack' }, families: ['IPv4', 'IPv6'], v1: /^10\.244\./ },
  { name: 'require6', spec: { ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv6', 'IPv4'] }, families: ['IPv6', 'IPv4'], v1: V6 },
  { name: 'only6', spec: { ipFamilies: ['IPv6'] }, families: ['IPv6'], v1: V6 },
];

for (const tc of cases) {
  test(`dual-stack Service ${tc.name}: ClusterIPs, slices and Endpoints follow its families`, () => {
    const c = dualStack();
    new ApiServer(c).create(service(tc.name, tc.spec));
    c.settle();
    const svc = c.store.get<Service>('Service', 'kube-system', tc.name)!;
    assert.deepEqual(svc.spec.ipFamilies, tc.families);
    assert.equal(svc.spec.clusterIPs?.length, tc.families.length);
    svc.spec.clusterIPs!.forEach((ip, i) => assert.equal(ip.includes(':'), tc.families[i] === 'IPv6', ip));
    assert.equal(svc.spec.clusterIP, svc.spec.clusterIPs![0]);
    const slices = c.store.list<EndpointSlice>('EndpointSlice', 'kube-system').filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === tc.name);
    assert.deepEqual(slices.map((s) => s.addressType).sort(), [...tc.families].sort());
    for (const s of slices) {
      assert.equal(s.endpoints?.length, 2);
      for (const e of s.endpoints ?? []) assert.equal(e.addresses[0]!.includes(':'), s.addressType === 'IPv6', e.addresses[0]);
    }
    const ep = c.store.get<Endpoints>('Endpoints', 'kube-system', tc.name)!;
    for (const a of ep.subsets?.[0]?.addresses ?? []) assert.match(a.ip, tc.v1);
  });
}

test('a dual-stack Service downgraded to SingleStack loses its IPv6 ClusterIP and slice', () => {
  const c = dualStack();
  const api = new ApiServer(c);
  api.create(service('web', { ipFamilyPolicy: 'PreferDualStack' }));
  c.settle();
  const svc = api.get<Service>('Service', 'kube-system', 'web');
  api.update({ ...svc, spec: { ...svc.spec, ipFamilyPolicy: 'SingleStack' } });
  c.settle();
  const after = c.store.get<Service>('Service', 'kube-system', 'web')!;
  assert.deepEqual(after.spec.ipFamilies, ['IPv4']);
  assert.deepEqual(after.spec.clusterIPs, [svc.spec.clusterIPs![0]]);
  const types = c.store.list<EndpointSlice>('EndpointSlice', 'kube-system').filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === 'web').map((s) => s.addressType);
  assert.deepEqual(types, ['IPv4']);
});

const flags: { name: string; flag: string; error?: string }[] = [
  { name: 'one IPv4 range', flag: '10.96.0.0/12' },
  { name: 'one IPv6 range', flag: 'fd00:10:96::/108' },
  { name: 'dual-stack', flag: '10.96.0.0/12,fd00:10:96::/108' },
  { name: 'not a CIDR', flag: '10.96.0.0', error: 'service-cluster-ip-range[0] is not a valid cidr' },
  { name: 'bad second range', flag: '10.96.0.0/12,fd00::/129', error: 'service-cluster-ip-range[1] is not an ip net' },
  { name: 'two IPv4 ranges', flag: '10.96.0.0/12,10.112.0.0/12', error: '--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family' },
  { name: 'three ranges', flag: '10.96.0.0/12,fd00::/108,10.112.0.0/12', error: '--service-cluster-ip-range must not contain more than two entries' },
];

for (const tc of flags) {
  test(`kube-apiserver --service-cluster-ip-range: ${tc.name}`, () => {
    assert.equal(serviceRangeError(tc.flag), tc.error);
  });
}

/** A PreferDualStack Service for the two CoreDNS pods on port 53/UDP and 9153/TCP (their metrics). */
function dnsService(c: Cluster): Service {
  new ApiServer(c).create(service('dual', { ipFamilyPolicy: 'PreferDualStack', ports: [{ name: 'metrics', port: 9153, protocol: 'TCP' }] }));
  c.settle();
  return c.store.get<Service>('Service', 'kube-system', 'dual')!;
}

test('a pod reaches a dual-stack Service on either ClusterIP, through iptables or ip6tables', () => {
  const c = dualStack();
  const [v4, v6] = dnsService(c).spec.clusterIPs!;
  const client = c.store.list<Pod>('Pod', 'kube-system').find((p) => p.metadata.name.startsWith('calico-kube-controllers'))!;
  const from = { kind: 'pod' as const, ns: 'kube-system', name: client.metadata.name };
  const six = connect(c, from, v6!, 9153, 'tcp');
  assert.ok(six.ok, six.trace.join('\n'));
  assert.match(six.to!.ip, V6);
  assert.match(six.to!.pod!.name, /^coredns-/);
  assert.equal(six.srcSeen, client.status!.podIPs![1]!.ip);
  assert.ok(six.trace.some((t) => t.includes(`DNAT ${v6}:9153 → ${six.to!.ip}:9153`)), six.trace.join('\n'));
  const four = connect(c, from, v4!, 9153, 'tcp');
  assert.ok(four.ok);
  assert.match(four.to!.ip, /^10\.244\./);
});

test('flushing kube-proxy\'s IPv6 Service chain breaks only the IPv6 ClusterIP', () => {
  const c = dualStack();
  const [v4, v6] = dnsService(c).spec.clusterIPs!;
  const node = c.host('cka-w1')!;
  findChain(nodeIp6tables(node).tables.nat!, 'KUBE-SERVICES')!.rules = [];
  assert.ok(findChain(nodeIptables(node).tables.nat!, 'KUBE-SERVICES')!.rules.length > 0, 'IPv4 rules untouched');
  const from = { kind: 'node' as const, host: 'cka-w1' };
  const six = connect(c, from, v6!, 9153, 'tcp');
  assert.equal(six.ok, false);
  assert.equal(six.error, 'timeout');
  assert.ok(connect(c, from, v4!, 9153, 'tcp').ok);
});

test('the workstation has no IPv6 route into the cluster; a node masquerades to a remote endpoint', () => {
  const c = dualStack();
  const [, v6] = dnsService(c).spec.clusterIPs!;
  const ws = connect(c, { kind: 'workstation' }, 'fd00:192:168:122::21', 22, 'tcp');
  assert.equal(ws.error, 'no-route');
  const r = connect(c, { kind: 'node', host: 'cka-cp1' }, v6!, 9153, 'tcp');
  assert.ok(r.ok, r.trace.join('\n'));
  assert.equal(r.srcSeen, 'fd00:192:168:122::11');
});

test('a NetworkPolicy ipBlock of IPv6 admits IPv6 peers in it and no others', () => {
  const c = dualStack();
  const [, v6] = dnsService(c).spec.clusterIPs!;
  new ApiServer(c).create({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'metrics-from-w2', namespace: 'kube-system' },
    spec: { podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } }, policyTypes: ['Ingress'], ingress: [{ from: [{ ipBlock: { cidr: 'fd00:10:244:3e::/64' } }], ports: [{ port: 9153 }] }] },
  } as KObject);
  c.settle();
  const pods = c.store.list<Pod>('Pod', 'kube-system');
  const onW2 = pods.find((p) => p.metadata.name.startsWith('calico-kube-controllers'))!;
  const onW1 = pods.find((p) => p.metadata.name.startsWith('coredns-') && p.spec.nodeName === 'cka-w1')!;
  const allowed = connect(c, { kind: 'pod', ns: 'kube-system', name: onW2.metadata.name }, v6!, 9153, 'tcp');
  assert.ok(allowed.ok, allowed.trace.join('\n'));
  const denied = connect(c, { kind: 'pod', ns: 'kube-system', name: onW1.metadata.name }, v6!, 9153, 'tcp');
  assert.equal(denied.error, 'timeout', denied.trace.join('\n'));
  assert.ok(denied.trace.some((t) => t.includes('denied by NetworkPolicy')));
});

test('in nftables mode the IPv6 proxier programs the IPv6 ClusterIP in `ip6 kube-proxy`', () => {
  const c = dualStackNftables();
  const [v4, v6] = dnsService(c).spec.clusterIPs!;
  const table = kubeProxyTable(nodeNftables(c.host('cka-cp1')!), 'ip6')!;
  const ips = table.sets.find((m) => m.name === 'service-ips')!;
  assert.ok(JSON.stringify(ips.elements).includes(v6!), JSON.stringify(ips.elements));
  const client = c.store.list<Pod>('Pod', 'kube-system').find((p) => p.metadata.name.startsWith('calico-kube-controllers'))!;
  const from = { kind: 'pod' as const, ns: 'kube-system', name: client.metadata.name };
  const six = connect(c, from, v6!, 9153, 'tcp');
  assert.ok(six.ok, six.trace.join('\n'));
  assert.ok(six.trace.some((t) => t.includes('nft nat-prerouting')), six.trace.join('\n'));
  assert.match(six.to!.ip, V6);
  assert.ok(connect(c, from, v4!, 9153, 'tcp').ok);
  // the IPv6 ClusterIP's port without endpoints is rejected by the ip6 table, as in the ip one
  assert.equal(connect(c, from, v6!, 9999, 'tcp').error, 'refused');
});

for (const family of ['IPv4', 'IPv6'] as const) {
  test(`the ${family} proxier syncs partially: a hand-flushed chain of an unchanged Service stays empty until the hourly full sync`, () => {
    const c = dualStack();
    const ips = dnsService(c).spec.clusterIPs!;
    const ip = family === 'IPv4' ? ips[0]! : ips[1]!;
    const node = c.host('cka-cp1')!;
    const from = { kind: 'node' as const, host: 'cka-cp1' };
    const rules = family === 'IPv4' ? nodeIptables(node) : nodeIp6tables(node);
    // the Service's KUBE-SVC chain flushed by hand (KUBE-SERVICES itself is rewritten at every sync)
    const nat = rules.tables.nat!;
    const jump = findChain(nat, 'KUBE-SERVICES')!.rules.find((r) => r.dst?.addr === ip)!;
    const svc = findChain(nat, jump.target!.name)!;
    assert.ok(svc.rules.length > 0);
    // (this node's own chain: the nodes share their kube-proxy chains, restore.ts ChainTemplate)
    ownChain(nat, svc).rules = [];
    rules.rev = (rules.rev ?? 0) + 1;
    c.touchHosts();
    assert.equal(connect(c, from, ip, 9153, 'tcp').ok, false);
    // another Service changes: a partial sync, which leaves the unchanged Service's chains as they are
    new ApiServer(c).create(service('other', { ipFamilyPolicy: 'PreferDualStack' }));
    c.settle();
    assert.equal(connect(c, from, ip, 9153, 'tcp').ok, false);
    c.advance(3_700_000);
    assert.ok(connect(c, from, ip, 9153, 'tcp').ok);
  });
}

test('in nftables mode the IPv6 proxier syncs partially: an element deleted by hand stays deleted until the hourly full sync', () => {
  const c = dualStackNftables();
  const [v4, v6] = dnsService(c).spec.clusterIPs!;
  const node = c.host('cka-cp1')!;
  const from = { kind: 'node' as const, host: 'cka-cp1' };
  assert.ok(connect(c, from, v6!, 9153, 'tcp').ok);
  // `nft delete element ip6 kube-proxy service-ips { <v6> . tcp . 9153 }`, as a user would
  const st = nodeNftables(node);
  assert.equal(runNftTransaction(st, [{ verb: 'delete', obj: 'element', set: 'service-ips', kind: 'map', elem: { key: [v6!, 'tcp', '9153'] } }], 'ip6'), undefined);
  c.touchHosts();
  assert.equal(connect(c, from, v6!, 9153, 'tcp').ok, false);
  // another Service changes: both proxiers sync partially (pkg/proxy/nftables/proxier.go: elements
  // are written from the proxier's own record, never read back), so the element stays missing
  new ApiServer(c).create(service('other', { ipFamilyPolicy: 'PreferDualStack' }));
  c.settle();
  const other = c.store.get<Service>('Service', 'kube-system', 'other')!.spec.clusterIPs!;
  assert.equal(other.length, 2);
  assert.ok(JSON.stringify(kubeProxyTable(st, 'ip6')!.sets.find((m) => m.name === 'cluster-ips')!.elements).includes(other[1]!), 'the IPv6 proxier programmed the new Service');
  assert.equal(connect(c, from, v6!, 9153, 'tcp').error, 'refused'); // cluster-ips-check
  assert.ok(connect(c, from, v4!, 9153, 'tcp').ok);
  // the hourly full sync reads the table's elements back (readOrReset) and writes the missing one
  c.advance(3_700_000);
  assert.ok(connect(c, from, v6!, 9153, 'tcp').ok);
});
