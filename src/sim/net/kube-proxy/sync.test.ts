import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EndpointSlice, Service, ServiceSpec } from '../../api/types.js';
import type { IptablesState } from '../iptables.js';
import { newIptablesState } from '../iptables.js';
import { renderList, renderListRules, renderSave } from '../render.js';
import { assertGolden, goldenPath } from '../../../testing/golden.js';
import type { KubeProxyConfig } from './sync.js';
import { computeProbability, syncProxyRules } from './sync.js';
import { ensureKubeletRules } from './kubelet-rules.js';
import { runIptables } from '../iptables-cmd.js';

const NOW = Date.UTC(2025, 2, 4, 10, 20, 30);

function svc(ns: string, name: string, spec: ServiceSpec, status?: Service['status']): Service {
  const s: Service = { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns }, spec };
  if (status) s.status = status;
  return s;
}

interface Ep {
  ip: string;
  node?: string;
  ready?: boolean;
  serving?: boolean;
  terminating?: boolean;
}

function slice(ns: string, svcName: string, ports: { name?: string; port: number; protocol?: 'TCP' | 'UDP' }[], eps: Ep[]): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: `${svcName}-abcde`, namespace: ns, labels: { 'kubernetes.io/service-name': svcName } },
    addressType: 'IPv4',
    endpoints: eps.map((e) => {
      const conditions: { ready?: boolean; serving?: boolean; terminating?: boolean } = { ready: e.ready ?? true };
      if (e.serving !== undefined) conditions.serving = e.serving;
      if (e.terminating !== undefined) conditions.terminating = e.terminating;
      const ep: EndpointSlice['endpoints'] extends (infer T)[] | null ? T : never = { addresses: [e.ip], conditions };
      if (e.node !== undefined) ep.nodeName = e.node;
      return ep;
    }),
    ports: ports.map((p) => ({ name: p.name ?? '', port: p.port, protocol: p.protocol ?? 'TCP' })),
  };
}

function node(services: Service[], slices: EndpointSlice[], config: KubeProxyConfig, nodeName = 'cka-w1', ips = ['192.168.122.21']): IptablesState {
  const st = newIptablesState();
  ensureKubeletRules(st);
  const r = syncProxyRules(st, { services, endpointSlices: slices, node: { name: nodeName, ips }, config });
  assert.equal(r.error, undefined, r.error);
  return st;
}

function lines(text: string, needle: string): string[] {
  return text.split('\n').filter((l) => l.includes(needle));
}

// Seed 000 (kubeadm v1.35.9, Calico, podSubnet 10.244.0.0/16): `sudo iptables -t nat -S | grep net/web`.
// The seed shows an excerpt of four lines; a v1.35 node also prints the masquerade, EXT and SEP
// lines that mention net/web, so each seed line must appear verbatim in the filtered output.
test('seed 000: net/web rules appear exactly as in the transcript', () => {
  const st = node(
    [svc('net', 'web', { type: 'NodePort', clusterIP: '10.111.80.136', ports: [{ port: 80, protocol: 'TCP', targetPort: 80, nodePort: 31777 }] })],
    [slice('net', 'web', [{ port: 80 }], [{ ip: '10.244.95.170', node: 'cka-w2' }, { ip: '10.244.62.167', node: 'cka-w1' }])],
    { clusterCIDR: '10.244.0.0/16' },
  );
  const got = lines(renderListRules(st.tables.nat!), 'net/web');
  const seed = [
    '-A KUBE-SERVICES -d 10.111.80.136/32 -p tcp -m comment --comment "net/web cluster IP" -m tcp --dport 80 -j KUBE-SVC-RTHZXQ2YZKSHM2PI',
    '-A KUBE-SVC-RTHZXQ2YZKSHM2PI -m comment --comment "net/web -> 10.244.62.167:80" -m statistic --mode random --probability 0.50000000000 -j KUBE-SEP-S3UT2MK4P7AJ67WG',
    '-A KUBE-SVC-RTHZXQ2YZKSHM2PI -m comment --comment "net/web -> 10.244.95.170:80" -j KUBE-SEP-JIQR6UIXHEWKPI63',
    '-A KUBE-NODEPORTS -p tcp -m comment --comment "net/web" -m tcp --dport 31777 -j KUBE-EXT-RTHZXQ2YZKSHM2PI',
  ];
  for (const l of seed) assert.ok(got.includes(l), `missing seed line:\n${l}\n--- got:\n${got.join('\n')}`);
  assert.deepEqual(got, [
    '-A KUBE-EXT-RTHZXQ2YZKSHM2PI -m comment --comment "masquerade traffic for net/web external destinations" -j KUBE-MARK-MASQ',
    seed[3],
    '-A KUBE-SEP-JIQR6UIXHEWKPI63 -s 10.244.95.170/32 -m comment --comment "net/web" -j KUBE-MARK-MASQ',
    '-A KUBE-SEP-JIQR6UIXHEWKPI63 -p tcp -m comment --comment "net/web" -m tcp -j DNAT --to-destination 10.244.95.170:80',
    '-A KUBE-SEP-S3UT2MK4P7AJ67WG -s 10.244.62.167/32 -m comment --comment "net/web" -j KUBE-MARK-MASQ',
    '-A KUBE-SEP-S3UT2MK4P7AJ67WG -p tcp -m comment --comment "net/web" -m tcp -j DNAT --to-destination 10.244.62.167:80',
    seed[0],
    '-A KUBE-SVC-RTHZXQ2YZKSHM2PI ! -s 10.244.0.0/16 -d 10.111.80.136/32 -p tcp -m comment --comment "net/web cluster IP" -m tcp --dport 80 -j KUBE-MARK-MASQ',
    seed[1],
    seed[2],
  ]);
});

function kubeDnsNode(): IptablesState {
  return node(
    [
      svc('kube-system', 'kube-dns', {
        type: 'ClusterIP',
        clusterIP: '10.244.0.10',
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
          { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
          { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
        ],
      }),
    ],
    [
      slice(
        'kube-system',
        'kube-dns',
        [
          { name: 'dns', port: 53, protocol: 'UDP' },
          { name: 'dns-tcp', port: 53, protocol: 'TCP' },
          { name: 'metrics', port: 9153, protocol: 'TCP' },
        ],
        [{ ip: '192.128.0.51', node: 'ncss-i' }, { ip: '192.128.0.48', node: 'ncss-i' }],
      ),
    ],
    { clusterCIDR: '192.128.0.0/16' },
    'ncss-i',
    ['10.66.250.138'],
  );
}

// Seed 004 (single-node flannel, service CIDR 10.244.0.0/16, pods 192.128.0.0/16):
// `iptables -t nat -S | grep 10.244.0.10`. The seed's kube-proxy was old (pre-1.15): it wrote the
// masquerade rule into KUBE-SERVICES and no SVC→SEP comments. v1.35 writes the masquerade rule as
// the first rule of each KUBE-SVC chain (reference §3.3 item 6) — we follow the reference. The
// three KUBE-SERVICES jump lines are identical in both versions and must match the seed verbatim;
// the seed's service order (map order) differs from our deterministic sort by port name.
test('seed 004: grep 10.244.0.10 gives six lines, the three jumps verbatim', () => {
  const st = kubeDnsNode();
  const got = lines(renderListRules(st.tables.nat!), '10.244.0.10');
  assert.deepEqual(got, [
    '-A KUBE-SERVICES -d 10.244.0.10/32 -p udp -m comment --comment "kube-system/kube-dns:dns cluster IP" -m udp --dport 53 -j KUBE-SVC-TCOU7JCQXEZGVUNU',
    '-A KUBE-SERVICES -d 10.244.0.10/32 -p tcp -m comment --comment "kube-system/kube-dns:dns-tcp cluster IP" -m tcp --dport 53 -j KUBE-SVC-ERIFXISQEP7F7OF4',
    '-A KUBE-SERVICES -d 10.244.0.10/32 -p tcp -m comment --comment "kube-system/kube-dns:metrics cluster IP" -m tcp --dport 9153 -j KUBE-SVC-JD5MR3NA4I4DYORP',
    '-A KUBE-SVC-ERIFXISQEP7F7OF4 ! -s 192.128.0.0/16 -d 10.244.0.10/32 -p tcp -m comment --comment "kube-system/kube-dns:dns-tcp cluster IP" -m tcp --dport 53 -j KUBE-MARK-MASQ',
    '-A KUBE-SVC-JD5MR3NA4I4DYORP ! -s 192.128.0.0/16 -d 10.244.0.10/32 -p tcp -m comment --comment "kube-system/kube-dns:metrics cluster IP" -m tcp --dport 9153 -j KUBE-MARK-MASQ',
    '-A KUBE-SVC-TCOU7JCQXEZGVUNU ! -s 192.128.0.0/16 -d 10.244.0.10/32 -p udp -m comment --comment "kube-system/kube-dns:dns cluster IP" -m udp --dport 53 -j KUBE-MARK-MASQ',
  ]);
  // The seed's other two greps, in their v1.35 form (with the SVC→SEP and SEP comments).
  assert.deepEqual(lines(renderListRules(st.tables.nat!), 'KUBE-SEP-NZ4ZVJ6J3XCEJWKB'), [
    '-N KUBE-SEP-NZ4ZVJ6J3XCEJWKB',
    '-A KUBE-SEP-NZ4ZVJ6J3XCEJWKB -s 192.128.0.51/32 -m comment --comment "kube-system/kube-dns:dns" -j KUBE-MARK-MASQ',
    '-A KUBE-SEP-NZ4ZVJ6J3XCEJWKB -p udp -m comment --comment "kube-system/kube-dns:dns" -m udp -j DNAT --to-destination 192.128.0.51:53',
    '-A KUBE-SVC-TCOU7JCQXEZGVUNU -m comment --comment "kube-system/kube-dns:dns -> 192.128.0.51:53" -j KUBE-SEP-NZ4ZVJ6J3XCEJWKB',
  ]);
  assert.deepEqual(lines(renderListRules(st.tables.nat!), '-j KUBE-SEP-SAYSLAX2SI43IZRU'), [
    '-A KUBE-SVC-TCOU7JCQXEZGVUNU -m comment --comment "kube-system/kube-dns:dns -> 192.128.0.48:53" -m statistic --mode random --probability 0.50000000000 -j KUBE-SEP-SAYSLAX2SI43IZRU',
  ]);
});

interface Topology {
  name: string;
  services: Service[];
  slices: EndpointSlice[];
  config?: KubeProxyConfig;
}

const web = (spec: Partial<ServiceSpec>, status?: Service['status']): Service =>
  svc('default', 'web', { type: 'ClusterIP', clusterIP: '10.96.100.10', ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 }], ...spec }, status);
const webSlice = (eps: Ep[]): EndpointSlice => slice('default', 'web', [{ name: 'http', port: 8080 }], eps);
const twoEps = [{ ip: '10.244.1.5', node: 'cka-w1' }, { ip: '10.244.2.7', node: 'cka-w2' }];

const topologies: Topology[] = [
  { name: 'clusterip-2ep', services: [web({})], slices: [webSlice(twoEps)] },
  { name: 'nodeport', services: [web({ type: 'NodePort', ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080, nodePort: 30080 }] })], slices: [webSlice(twoEps)] },
  { name: 'loadbalancer-pending', services: [web({ type: 'LoadBalancer', ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080, nodePort: 30080 }] })], slices: [webSlice(twoEps)] },
  {
    name: 'loadbalancer-ingress-sourceranges',
    services: [web({ type: 'LoadBalancer', loadBalancerSourceRanges: ['203.0.113.0/25'], ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080, nodePort: 30080 }] }, { loadBalancer: { ingress: [{ ip: '198.51.100.7' }] } })],
    slices: [webSlice(twoEps)],
  },
  { name: 'headless', services: [web({ clusterIP: 'None' })], slices: [webSlice(twoEps)] },
  { name: 'no-endpoints', services: [web({ type: 'NodePort', ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080, nodePort: 30080 }] })], slices: [webSlice([])] },
  { name: 'externalips', services: [web({ externalIPs: ['192.168.122.100'] })], slices: [webSlice(twoEps)] },
  {
    name: 'etp-local',
    services: [web({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 32000, ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080, nodePort: 30080 }] }, { loadBalancer: { ingress: [{ ip: '198.51.100.7' }] } })],
    slices: [webSlice(twoEps)],
  },
  { name: 'etp-local-no-local-endpoint', services: [web({ type: 'NodePort', externalTrafficPolicy: 'Local', ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080, nodePort: 30080 }] })], slices: [webSlice([{ ip: '10.244.2.7', node: 'cka-w2' }])] },
  { name: 'itp-local-no-local-endpoint', services: [web({ internalTrafficPolicy: 'Local' })], slices: [webSlice([{ ip: '10.244.2.7', node: 'cka-w2' }])] },
  { name: 'session-affinity', services: [web({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } } })], slices: [webSlice(twoEps)] },
  { name: 'terminating-only', services: [web({})], slices: [webSlice([{ ip: '10.244.1.5', node: 'cka-w1', ready: false, serving: true, terminating: true }, { ip: '10.244.2.7', node: 'cka-w2', ready: false, serving: false, terminating: true }])] },
  { name: 'three-endpoints-masquerade-all', services: [web({})], slices: [webSlice([...twoEps, { ip: '10.244.3.9', node: 'cka-w3' }])], config: { masqueradeAll: true } },
];

for (const t of topologies) {
  test(`golden: ${t.name}`, () => {
    const st = node(t.services, t.slices, t.config ?? { clusterCIDR: '10.244.0.0/16' });
    const text = [
      '$ iptables-save',
      renderSave(st.tables, { now: NOW }),
      '$ iptables -t nat -S',
      renderListRules(st.tables.nat!),
      '$ iptables -t nat -L -n',
      renderList(st.tables.nat!, { numeric: true }),
    ].join('\n');
    assertGolden(goldenPath(import.meta.url, `${t.name}.txt`), text);
  });
}

test('headless service writes no per-service rules', () => {
  const st = node([web({ clusterIP: 'None' })], [webSlice(twoEps)], { clusterCIDR: '10.244.0.0/16' });
  assert.deepEqual(lines(renderListRules(st.tables.nat!), 'default/web'), []);
  assert.deepEqual(lines(renderListRules(st.tables.filter!), 'default/web'), []);
});

test('no endpoints: filter REJECT for ClusterIP and NodePort, no nat chains', () => {
  const st = node([web({ type: 'NodePort', ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080, nodePort: 30080 }] })], [], { clusterCIDR: '10.244.0.0/16' });
  assert.deepEqual(lines(renderListRules(st.tables.nat!), 'default/web'), []);
  assert.deepEqual(lines(renderListRules(st.tables.filter!), 'default/web'), [
    '-A KUBE-EXTERNAL-SERVICES -p tcp -m comment --comment "default/web:http has no endpoints" -m addrtype --dst-type LOCAL -m tcp --dport 30080 -j REJECT --reject-with icmp-port-unreachable',
    '-A KUBE-SERVICES -d 10.96.100.10/32 -p tcp -m comment --comment "default/web:http has no endpoints" -m tcp --dport 80 -j REJECT --reject-with icmp-port-unreachable',
  ]);
});

test('re-sync after endpoints vanish deletes stale chains and keeps user rules', () => {
  const st = node([web({})], [webSlice(twoEps)], { clusterCIDR: '10.244.0.0/16' });
  // a user's own rule in a built-in chain and a CNI chain must survive kube-proxy's restore
  assert.equal(runIptables(st, ['-t', 'nat', '-N', 'CNI-HOSTPORT-DNAT']).exitCode, 0);
  assert.equal(runIptables(st, ['-t', 'nat', '-A', 'PREROUTING', '-j', 'CNI-HOSTPORT-DNAT']).exitCode, 0);
  const before = st.tables.nat!.chains.find((c) => c.name === 'PREROUTING')!.rules.length;
  syncProxyRules(st, { services: [web({})], endpointSlices: [], node: { name: 'cka-w1', ips: ['192.168.122.21'] }, config: { clusterCIDR: '10.244.0.0/16' } });
  const nat = st.tables.nat!;
  assert.deepEqual(nat.chains.filter((c) => /^KUBE-(SVC|SEP)-/.test(c.name)).map((c) => c.name), []);
  assert.equal(nat.chains.find((c) => c.name === 'PREROUTING')!.rules.length, before, 'jump rules are not duplicated');
  assert.deepEqual(lines(renderListRules(nat), 'CNI-HOSTPORT-DNAT'), ['-N CNI-HOSTPORT-DNAT', '-A PREROUTING -j CNI-HOSTPORT-DNAT']);
});

test('computeProbability matches TestComputeProbability', () => {
  assert.equal(computeProbability(1), '1.0000000000');
  assert.equal(computeProbability(3), '0.3333333333');
  assert.equal(computeProbability(100001), '0.0000099999');
});
