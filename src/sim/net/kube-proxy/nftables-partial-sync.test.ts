/**
 * The nftables proxier's full and partial syncs against upstream's own expectations, from
 * kubernetes pkg/proxy/nftables/proxier_test.go:
 *  - TestSyncProxyRulesRepeated: the same syncs (two Services; a third added; one deleted, its
 *    chains flushed and deleted a sync later once aged past a second; one added without and then
 *    with endpoints; an endpoint changed and one added; endpoints emptied and restored, with and
 *    without the stale chains aging between; a sync without changes), each compared as the test's
 *    nft.Dump() (here: the service chains, their rules and the containers' elements, as sets of
 *    lines) and by the size of the transaction (nft.LastTransaction.NumOperations()).
 *  - TestSyncProxyRulesStartup: a new process finding most of its rules in place writes only the
 *    table setup plus what differs (existing endpoint chains are kept, epChainSkipUpdate).
 * The fixed part of the table (baseRules) is compared in nftables-overall.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EndpointSlice, Service } from '../../api/types.js';
import { clusterIPService, endpointSlice } from '../../../testing/proxy-objects.js';
import { kubeProxyTable, newNftState, type NftState } from './nftables.js';
import { dumpNftTable } from './nftables-tx.js';
import { syncNftablesRules, type NftProxierMemory, type NftSyncInput, type NftSyncResult } from './nftables-sync.js';

const service = clusterIPService;
const slice = endpointSlice;

/** A proxier as NewFakeProxier makes it: pod CIDR 10.0.0.0/8, service CIDR 172.30.0.0/16, node 192.168.0.2. */
class FakeProxier {
  st: NftState = newNftState();
  services: Service[] = [];
  slices: EndpointSlice[] = [];
  now = 1_000_000;
  memory: NftProxierMemory | undefined;
  previous: ReadonlyMap<string, number> | undefined;
  last?: NftSyncResult;

  sync(): NftSyncResult {
    const input: NftSyncInput = {
      services: this.services,
      endpointSlices: this.slices,
      node: { name: 'test-node', ips: ['192.168.0.2'] },
      config: { mode: 'nftables', clusterCIDR: '10.0.0.0/8' },
      serviceCIDRs: ['172.30.0.0/16'],
    };
    const r = syncNftablesRules(this.st, input, { now: this.now, ...(this.previous ? { previous: this.previous } : {}), ...(this.memory ? { memory: this.memory } : {}) });
    assert.equal(r.error, undefined, r.error);
    this.memory = r.nft;
    this.previous = r.fingerprints;
    this.last = r;
    return r;
  }

  /** ageStaleChains: make it look as if more than a second passed for the stale-chain code. */
  age(): void {
    this.now += 2000;
  }

  setSlice(s: EndpointSlice): void {
    this.slices = [...this.slices.filter((x) => x.metadata.namespace !== s.metadata.namespace || x.metadata.name !== s.metadata.name), s];
  }

  /** The service part of nft.Dump(): service chains, their rules and the containers' elements. */
  dump(): string[] {
    const t = kubeProxyTable(this.st);
    if (!t) return [];
    return dumpNftTable(t)
      .filter((l) => (/^add (chain|rule) ip kube-proxy \S*\//.test(l) || l.startsWith('add element ')) && !l.startsWith('add element ip kube-proxy nodeport-ips'))
      .sort();
  }
}

/** A ClusterIP service port's chains with one chain per endpoint, as the simulator writes them. */
function svcLines(base: string, ip: string, port: number, eps: { chain: string; ip: string; port: number }[]): string[] {
  const svcChain = `service-${base}`;
  const vmap = eps.map((e, i) => `${i} : goto endpoint-${e.chain}`).join(' , ');
  return [
    `add chain ip kube-proxy ${svcChain}`,
    `add rule ip kube-proxy ${svcChain} ip daddr ${ip} ip saddr != 10.0.0.0/8 jump mark-for-masquerade`,
    `add rule ip kube-proxy ${svcChain} numgen random mod ${eps.length} vmap { ${vmap} }`,
    ...eps.flatMap((e) => [
      `add chain ip kube-proxy endpoint-${e.chain}`,
      `add rule ip kube-proxy endpoint-${e.chain} ip saddr ${e.ip} jump mark-for-masquerade`,
      `add rule ip kube-proxy endpoint-${e.chain} meta l4proto tcp dnat to ${e.ip}:${e.port}`,
    ]),
  ];
}

const SVC1 = svcLines('ULMVA6XW-ns1/svc1/tcp/p80', '172.30.0.41', 80, [{ chain: '5TPGNJF2-ns1/svc1/tcp/p80__10.0.1.1/80', ip: '10.0.1.1', port: 80 }]);
const SVC2 = svcLines('MHHHYRWA-ns2/svc2/tcp/p8080', '172.30.0.42', 8080, [{ chain: '7RVP4LUQ-ns2/svc2/tcp/p8080__10.0.2.1/8080', ip: '10.0.2.1', port: 8080 }]);
const SVC3 = svcLines('4AT6LBPK-ns3/svc3/tcp/p80', '172.30.0.43', 80, [{ chain: '2OCDJSZQ-ns3/svc3/tcp/p80__10.0.3.1/80', ip: '10.0.3.1', port: 80 }]);
const SVC4 = svcLines('LAUZTJTB-ns4/svc4/tcp/p80', '172.30.0.44', 80, [{ chain: 'WAHRBT2B-ns4/svc4/tcp/p80__10.0.4.1/80', ip: '10.0.4.1', port: 80 }]);
const SVC3_2 = svcLines('4AT6LBPK-ns3/svc3/tcp/p80', '172.30.0.43', 80, [{ chain: 'SWWHDC7X-ns3/svc3/tcp/p80__10.0.3.2/80', ip: '10.0.3.2', port: 80 }]);
const SVC3_23 = svcLines('4AT6LBPK-ns3/svc3/tcp/p80', '172.30.0.43', 80, [
  { chain: 'SWWHDC7X-ns3/svc3/tcp/p80__10.0.3.2/80', ip: '10.0.3.2', port: 80 },
  { chain: 'TQ2QKHCZ-ns3/svc3/tcp/p80__10.0.3.3/80', ip: '10.0.3.3', port: 80 },
]);
const clusterIPs = (...ips: string[]): string[] => ips.map((ip) => `add element ip kube-proxy cluster-ips { ${ip} }`);
const svcIP = (ip: string, port: number, chain: string): string => `add element ip kube-proxy service-ips { ${ip} . tcp . ${port} : goto service-${chain} }`;
const E41 = svcIP('172.30.0.41', 80, 'ULMVA6XW-ns1/svc1/tcp/p80');
const E42 = svcIP('172.30.0.42', 8080, 'MHHHYRWA-ns2/svc2/tcp/p8080');
const E43 = svcIP('172.30.0.43', 80, '4AT6LBPK-ns3/svc3/tcp/p80');
const E44 = svcIP('172.30.0.44', 80, 'LAUZTJTB-ns4/svc4/tcp/p80');

interface Step {
  name: string;
  act: (fp: FakeProxier) => void;
  /** The service part of the dump after the sync. */
  want: string[];
  /** LastTransaction.NumOperations(), where upstream checks it. */
  ops?: number;
  /** Stale chains the proxier remembers afterwards, where upstream checks them. */
  stale?: string[];
}

const eps3 = slice('ns3', 'svc3', 'p80', 80, ['10.0.3.1']);
const eps3b = slice('ns3', 'svc3', 'p80', 80, ['10.0.3.2']);
const eps3c = slice('ns3', 'svc3', 'p80', 80, ['10.0.3.2', '10.0.3.3']);
const eps3empty = slice('ns3', 'svc3', 'p80', 80, []);
const REST = [...clusterIPs('172.30.0.41', '172.30.0.43', '172.30.0.44'), E41, E44, ...SVC1, ...SVC4];

const STEPS: Step[] = [
  {
    name: 'initial state: two Services with endpoints (full sync)',
    act: (fp) => {
      fp.services.push(service('ns1', 'svc1', '172.30.0.41', 'p80', 80), service('ns2', 'svc2', '172.30.0.42', 'p8080', 8080));
      fp.slices.push(slice('ns1', 'svc1', 'p80', 80, ['10.0.1.1']), slice('ns2', 'svc2', 'p8080', 8080, ['10.0.2.1']));
    },
    want: [...clusterIPs('172.30.0.41', '172.30.0.42'), E41, E42, ...SVC1, ...SVC2],
  },
  {
    name: 'add a Service and its endpoints: 2 elements + 2 chains (add, flush, 2 rules)',
    act: (fp) => {
      fp.services.push(service('ns3', 'svc3', '172.30.0.43', 'p80', 80));
      fp.setSlice(eps3);
    },
    want: [...clusterIPs('172.30.0.41', '172.30.0.42', '172.30.0.43'), E41, E42, E43, ...SVC1, ...SVC2, ...SVC3],
    ops: 10,
  },
  {
    name: 'delete a Service: its elements deleted, its chains flushed but not deleted yet',
    act: (fp) => {
      fp.services = fp.services.filter((s) => s.metadata.name !== 'svc2');
    },
    want: [
      ...clusterIPs('172.30.0.41', '172.30.0.43'),
      E41,
      E43,
      ...SVC1,
      ...SVC3,
      'add chain ip kube-proxy service-MHHHYRWA-ns2/svc2/tcp/p8080',
      'add chain ip kube-proxy endpoint-7RVP4LUQ-ns2/svc2/tcp/p8080__10.0.2.1/8080',
    ],
    ops: 4,
  },
  {
    name: 'a second later the stale chains are deleted in their own transaction; nothing else to do',
    act: (fp) => fp.age(),
    want: [...clusterIPs('172.30.0.41', '172.30.0.43'), E41, E43, ...SVC1, ...SVC3],
    ops: 0,
  },
  {
    name: 'add a Service without endpoints: cluster-ips and no-endpoint-services elements',
    act: (fp) => {
      fp.services.push(service('ns4', 'svc4', '172.30.0.44', 'p80', 80));
    },
    want: [
      ...clusterIPs('172.30.0.41', '172.30.0.43', '172.30.0.44'),
      E41,
      E43,
      ...SVC1,
      ...SVC3,
      'add element ip kube-proxy no-endpoint-services { 172.30.0.44 . tcp . 80 comment "ns4/svc4:p80" : goto reject-chain }',
    ],
    ops: 2,
  },
  {
    name: 'its endpoints arrive: element moves to service-ips, 2 chains written',
    act: (fp) => fp.setSlice(slice('ns4', 'svc4', 'p80', 80, ['10.0.4.1'])),
    want: [...REST, E43, ...SVC3],
    ops: 10,
  },
  {
    name: 'an endpoint changes: service and new endpoint chain written, the old one flushed',
    act: (fp) => fp.setSlice(eps3b),
    want: [...REST, E43, ...SVC3_2, 'add chain ip kube-proxy endpoint-2OCDJSZQ-ns3/svc3/tcp/p80__10.0.3.1/80'],
    ops: 9,
  },
  {
    name: 'an endpoint is added (after the old chain aged: deleted first): 3 chains written',
    act: (fp) => {
      fp.age();
      fp.setSlice(eps3c);
    },
    want: [...REST, E43, ...SVC3_23],
    ops: 12,
  },
  {
    name: 'endpoints emptied: service-ips → no-endpoint-services, 3 chains flushed and stale',
    act: (fp) => fp.setSlice(eps3empty),
    want: [
      ...REST,
      'add element ip kube-proxy no-endpoint-services { 172.30.0.43 . tcp . 80 comment "ns3/svc3:p80" : goto reject-chain }',
      'add chain ip kube-proxy service-4AT6LBPK-ns3/svc3/tcp/p80',
      'add chain ip kube-proxy endpoint-SWWHDC7X-ns3/svc3/tcp/p80__10.0.3.2/80',
      'add chain ip kube-proxy endpoint-TQ2QKHCZ-ns3/svc3/tcp/p80__10.0.3.3/80',
    ],
    ops: 5,
    stale: ['endpoint-SWWHDC7X-ns3/svc3/tcp/p80__10.0.3.2/80', 'endpoint-TQ2QKHCZ-ns3/svc3/tcp/p80__10.0.3.3/80', 'service-4AT6LBPK-ns3/svc3/tcp/p80'],
  },
  {
    name: 'endpoints restored at once: chains rewritten and no longer stale',
    act: (fp) => fp.setSlice(eps3c),
    want: [...REST, E43, ...SVC3_23],
    ops: 14,
    stale: [],
  },
  {
    name: 'emptied, synced, aged, restored: the chains are deleted and re-created in the second sync',
    act: (fp) => {
      fp.setSlice(eps3empty);
      fp.sync();
      fp.age();
      fp.setSlice(eps3c);
    },
    want: [...REST, E43, ...SVC3_23],
  },
  {
    name: 'a sync without changes writes nothing',
    act: () => {},
    want: [...REST, E43, ...SVC3_23],
    ops: 0,
  },
];

test('nftables syncs follow TestSyncProxyRulesRepeated (pkg/proxy/nftables/proxier_test.go)', () => {
  const fp = new FakeProxier();
  for (const step of STEPS) {
    step.act(fp);
    const r = fp.sync();
    assert.deepEqual(fp.dump(), [...step.want].sort(), `${step.name}\n${r.payload}`);
    if (step.ops !== undefined) assert.equal(r.operations, step.ops, `${step.name}: operations\n${r.payload}`);
    if (step.stale !== undefined) assert.deepEqual(Object.keys(fp.memory?.staleChains ?? {}).sort(), step.stale, `${step.name}: staleChains`);
  }
});

test('a new process finding its rules in place: setup + only what differs (TestSyncProxyRulesStartup)', () => {
  const setup = new FakeProxier();
  const setupOps = setup.sync().operations;

  // the state a previous process left (upstream loads it with nft.ParseDump)
  const fp = new FakeProxier();
  fp.services.push(service('ns1', 'svc1', '172.30.0.41', 'p80', 80), service('ns2', 'svc2', '172.30.0.42', 'p8080', 8080));
  fp.slices.push(slice('ns1', 'svc1', 'p80', 80, ['10.0.1.1']), slice('ns2', 'svc2', 'p8080', 8080, ['10.0.2.1']));
  fp.sync();
  // a new process: no memory, so a full sync; svc1 has a second endpoint, svc3 is new
  fp.memory = undefined;
  fp.previous = undefined;
  fp.services.push(service('ns3', 'svc3', '172.30.0.43', 'p80', 80));
  fp.setSlice(slice('ns1', 'svc1', 'p80', 80, ['10.0.1.1', '10.0.1.2']));
  const r = fp.sync();
  const svc1 = svcLines('ULMVA6XW-ns1/svc1/tcp/p80', '172.30.0.41', 80, [
    { chain: '5TPGNJF2-ns1/svc1/tcp/p80__10.0.1.1/80', ip: '10.0.1.1', port: 80 },
    { chain: 'ZCZBVNAZ-ns1/svc1/tcp/p80__10.0.1.2/80', ip: '10.0.1.2', port: 80 },
  ]);
  const want = [
    ...clusterIPs('172.30.0.41', '172.30.0.42', '172.30.0.43'),
    E41,
    E42,
    'add element ip kube-proxy no-endpoint-services { 172.30.0.43 . tcp . 80 comment "ns3/svc3:p80" : goto reject-chain }',
    ...svc1,
    ...SVC2,
  ];
  assert.deepEqual(fp.dump(), want.sort(), r.payload);
  // svc3's 2 elements; 2 service chains (add, flush, 2 rules); svc1's new endpoint chain (add, flush, 2 rules)
  assert.equal(r.operations, setupOps + 14, r.payload);
});
