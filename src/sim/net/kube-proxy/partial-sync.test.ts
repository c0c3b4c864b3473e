/**
 * Partial syncs (KEP-3453) against upstream's own expectations: TestSyncProxyRulesRepeated in
 * kubernetes pkg/proxy/iptables/proxier_test.go — the same nine syncs (two Services, then a third
 * added, one deleted, one added without and then with endpoints, endpoints changed and added, a
 * sync without changes, and a partial restore that fails and is retried as a full sync), each
 * restore payload compared chain by chain as the test's assertIPTablesRulesEqual does (rules keep
 * their order within a chain; chains, tables and deletions compare as sets).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterIPService, endpointSlice } from '../../../testing/proxy-objects.js';
import { newIptablesState } from '../iptables.js';
import { runIptables } from '../iptables-cmd.js';
import { syncProxyRules, type KubeProxyConfig, type SyncResult } from './sync.js';

const CONFIG: KubeProxyConfig = { clusterCIDR: '10.0.0.0/8', randomFully: false };

const service = clusterIPService;
const slice = endpointSlice;

/** The payload as the test compares it: per table, declared chains, each chain's rules in order, deletions. */
function canonical(payload: string): string {
  const out: string[] = [];
  let table = '';
  let chains: string[] = [];
  let rules = new Map<string, string[]>();
  let deletes: string[] = [];
  for (const line of payload.split('\n')) {
    if (line.startsWith('*')) {
      table = line;
      chains = [];
      rules = new Map();
      deletes = [];
    } else if (line.startsWith(':')) chains.push(line);
    else if (line.startsWith('-A ')) {
      const chain = line.split(' ')[1]!;
      rules.set(chain, [...(rules.get(chain) ?? []), line]);
    } else if (line.startsWith('-X ')) deletes.push(line);
    else if (line === 'COMMIT') {
      out.push(table, ...chains.sort(), ...[...rules.keys()].sort().flatMap((k) => rules.get(k)!), ...deletes.sort(), 'COMMIT');
    }
  }
  return out.join('\n');
}

const FILTER = `*filter
:KUBE-NODEPORTS - [0:0]
:KUBE-SERVICES - [0:0]
:KUBE-EXTERNAL-SERVICES - [0:0]
:KUBE-FIREWALL - [0:0]
:KUBE-FORWARD - [0:0]
:KUBE-PROXY-FIREWALL - [0:0]
-A KUBE-FIREWALL -m comment --comment "block incoming localnet connections" -d 127.0.0.0/8 ! -s 127.0.0.0/8 -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP
-A KUBE-FORWARD -m conntrack --ctstate INVALID -j DROP
-A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark 0x4000/0x4000 -j ACCEPT
-A KUBE-FORWARD -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
COMMIT
`;
const NAT_HEAD = `*nat
:KUBE-NODEPORTS - [0:0]
:KUBE-SERVICES - [0:0]
:KUBE-MARK-MASQ - [0:0]
:KUBE-POSTROUTING - [0:0]
`;
const NAT_STATIC = `-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS
-A KUBE-MARK-MASQ -j MARK --or-mark 0x4000
-A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN
-A KUBE-POSTROUTING -j MARK --xor-mark 0x4000
-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE
`;
const SVC1 = '-A KUBE-SERVICES -m comment --comment "ns1/svc1:p80 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 -j KUBE-SVC-XPGD46QRK7WJZT7O';
const SVC2 = '-A KUBE-SERVICES -m comment --comment "ns2/svc2:p8080 cluster IP" -m tcp -p tcp -d 172.30.0.42 --dport 8080 -j KUBE-SVC-2VJB64SDSIJUP5T6';
const SVC3 = '-A KUBE-SERVICES -m comment --comment "ns3/svc3:p80 cluster IP" -m tcp -p tcp -d 172.30.0.43 --dport 80 -j KUBE-SVC-X27LE4BHSL4DOUIK';
const SVC4 = '-A KUBE-SERVICES -m comment --comment "ns4/svc4:p80 cluster IP" -m tcp -p tcp -d 172.30.0.44 --dport 80 -j KUBE-SVC-4SW47YFZTEDKD3PK';
const SVC1_CHAINS = `-A KUBE-SEP-SNQ3ZNILQDEJNDQO -m comment --comment ns1/svc1:p80 -s 10.0.1.1 -j KUBE-MARK-MASQ
-A KUBE-SEP-SNQ3ZNILQDEJNDQO -m comment --comment ns1/svc1:p80 -m tcp -p tcp -j DNAT --to-destination 10.0.1.1:80
-A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ
-A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 -> 10.0.1.1:80" -j KUBE-SEP-SNQ3ZNILQDEJNDQO
`;
const SVC3_TWO_EPS = `-A KUBE-SEP-DKCFIS26GWF2WLWC -m comment --comment ns3/svc3:p80 -s 10.0.3.2 -j KUBE-MARK-MASQ
-A KUBE-SEP-DKCFIS26GWF2WLWC -m comment --comment ns3/svc3:p80 -m tcp -p tcp -j DNAT --to-destination 10.0.3.2:80
-A KUBE-SEP-JVVZVJ7BSEPPRNBS -m comment --comment ns3/svc3:p80 -s 10.0.3.3 -j KUBE-MARK-MASQ
-A KUBE-SEP-JVVZVJ7BSEPPRNBS -m comment --comment ns3/svc3:p80 -m tcp -p tcp -j DNAT --to-destination 10.0.3.3:80
-A KUBE-SVC-X27LE4BHSL4DOUIK -m comment --comment "ns3/svc3:p80 cluster IP" -m tcp -p tcp -d 172.30.0.43 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ
-A KUBE-SVC-X27LE4BHSL4DOUIK -m comment --comment "ns3/svc3:p80 -> 10.0.3.2:80" -m statistic --mode random --probability 0.5000000000 -j KUBE-SEP-DKCFIS26GWF2WLWC
-A KUBE-SVC-X27LE4BHSL4DOUIK -m comment --comment "ns3/svc3:p80 -> 10.0.3.3:80" -j KUBE-SEP-JVVZVJ7BSEPPRNBS
`;

function nat(chains: string[], rules: string): string {
  return `${NAT_HEAD}${chains.map((c) => `:${c} - [0:0]\n`).join('')}${rules}COMMIT\n`;
}

test('TestSyncProxyRulesRepeated: full, then partial syncs write only what changed', () => {
  const st = newIptablesState();
  const node = { name: 'test-hostname', ips: ['192.168.0.2'] };
  const svc1 = service('ns1', 'svc1', '172.30.0.41', 'p80', 80);
  const svc2 = service('ns2', 'svc2', '172.30.0.42', 'p8080', 8080);
  const svc3 = service('ns3', 'svc3', '172.30.0.43', 'p80', 80);
  const svc4 = service('ns4', 'svc4', '172.30.0.44', 'p80', 80);
  const eps1 = slice('ns1', 'svc1', 'p80', 80, ['10.0.1.1']);
  const eps2 = slice('ns2', 'svc2', 'p8080', 8080, ['10.0.2.1']);
  let services = [svc1, svc2];
  let slices = [eps1, eps2];
  let last: SyncResult | undefined;
  const sync = (full = false): SyncResult => {
    const prev = full ? undefined : last?.fingerprints;
    const r = syncProxyRules(st, { services, endpointSlices: slices, node, config: CONFIG, ...(prev ? { previous: prev } : {}) });
    if (r.error === undefined) last = r;
    return r;
  };
  const expect = (r: SyncResult, want: string, step: string): void => assert.equal(canonical(r.payload), canonical(want), step);

  expect(sync(true), `${FILTER}${nat(['KUBE-SEP-SNQ3ZNILQDEJNDQO', 'KUBE-SEP-UHEGFW77JX3KXTOV', 'KUBE-SVC-2VJB64SDSIJUP5T6', 'KUBE-SVC-XPGD46QRK7WJZT7O'], `${SVC1}\n${SVC2}\n${NAT_STATIC}${SVC1_CHAINS}-A KUBE-SEP-UHEGFW77JX3KXTOV -m comment --comment ns2/svc2:p8080 -s 10.0.2.1 -j KUBE-MARK-MASQ
-A KUBE-SEP-UHEGFW77JX3KXTOV -m comment --comment ns2/svc2:p8080 -m tcp -p tcp -j DNAT --to-destination 10.0.2.1:8080
-A KUBE-SVC-2VJB64SDSIJUP5T6 -m comment --comment "ns2/svc2:p8080 cluster IP" -m tcp -p tcp -d 172.30.0.42 --dport 8080 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ
-A KUBE-SVC-2VJB64SDSIJUP5T6 -m comment --comment "ns2/svc2:p8080 -> 10.0.2.1:8080" -j KUBE-SEP-UHEGFW77JX3KXTOV
`)}`, 'initial full sync');

  services = [svc1, svc2, svc3];
  slices = [eps1, eps2, slice('ns3', 'svc3', 'p80', 80, ['10.0.3.1'])];
  expect(sync(), `${FILTER}${nat(['KUBE-SEP-BSWRHOQ77KEXZLNL', 'KUBE-SVC-X27LE4BHSL4DOUIK'], `${SVC1}\n${SVC2}\n${SVC3}\n${NAT_STATIC}-A KUBE-SEP-BSWRHOQ77KEXZLNL -m comment --comment ns3/svc3:p80 -s 10.0.3.1 -j KUBE-MARK-MASQ
-A KUBE-SEP-BSWRHOQ77KEXZLNL -m comment --comment ns3/svc3:p80 -m tcp -p tcp -j DNAT --to-destination 10.0.3.1:80
-A KUBE-SVC-X27LE4BHSL4DOUIK -m comment --comment "ns3/svc3:p80 cluster IP" -m tcp -p tcp -d 172.30.0.43 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ
-A KUBE-SVC-X27LE4BHSL4DOUIK -m comment --comment "ns3/svc3:p80 -> 10.0.3.1:80" -j KUBE-SEP-BSWRHOQ77KEXZLNL
`)}`, 'a new Service: only its chains');

  // the Service is deleted (its EndpointSlice is still there, as in the test)
  services = [svc1, svc3];
  expect(sync(), `${FILTER}${nat(['KUBE-SEP-UHEGFW77JX3KXTOV', 'KUBE-SVC-2VJB64SDSIJUP5T6'], `${SVC1}\n${SVC3}\n${NAT_STATIC}-X KUBE-SEP-UHEGFW77JX3KXTOV\n-X KUBE-SVC-2VJB64SDSIJUP5T6\n`)}`, 'a deleted Service: its chains deleted');

  services = [svc1, svc3, svc4];
  expect(
    sync(),
    `${FILTER.replace(':KUBE-PROXY-FIREWALL - [0:0]\n', ':KUBE-PROXY-FIREWALL - [0:0]\n-A KUBE-SERVICES -m comment --comment "ns4/svc4:p80 has no endpoints" -m tcp -p tcp -d 172.30.0.44 --dport 80 -j REJECT\n')}${nat([], `${SVC1}\n${SVC3}\n${NAT_STATIC}`)}`,
    'a Service without endpoints: its REJECT rule only',
  );

  slices = [...slices, slice('ns4', 'svc4', 'p80', 80, ['10.0.4.1'])];
  expect(sync(), `${FILTER}${nat(['KUBE-SEP-AYCN5HPXMIRJNJXU', 'KUBE-SVC-4SW47YFZTEDKD3PK'], `${SVC1}\n${SVC3}\n${SVC4}\n${NAT_STATIC}-A KUBE-SEP-AYCN5HPXMIRJNJXU -m comment --comment ns4/svc4:p80 -s 10.0.4.1 -j KUBE-MARK-MASQ
-A KUBE-SEP-AYCN5HPXMIRJNJXU -m comment --comment ns4/svc4:p80 -m tcp -p tcp -j DNAT --to-destination 10.0.4.1:80
-A KUBE-SVC-4SW47YFZTEDKD3PK -m comment --comment "ns4/svc4:p80 cluster IP" -m tcp -p tcp -d 172.30.0.44 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ
-A KUBE-SVC-4SW47YFZTEDKD3PK -m comment --comment "ns4/svc4:p80 -> 10.0.4.1:80" -j KUBE-SEP-AYCN5HPXMIRJNJXU
`)}`, 'its endpoints arrive: its chains');

  slices = slices.map((s) => (s.metadata.namespace === 'ns3' ? slice('ns3', 'svc3', 'p80', 80, ['10.0.3.2']) : s));
  expect(sync(), `${FILTER}${nat(['KUBE-SEP-BSWRHOQ77KEXZLNL', 'KUBE-SEP-DKCFIS26GWF2WLWC', 'KUBE-SVC-X27LE4BHSL4DOUIK'], `${SVC1}\n${SVC3}\n${SVC4}\n${NAT_STATIC}-A KUBE-SEP-DKCFIS26GWF2WLWC -m comment --comment ns3/svc3:p80 -s 10.0.3.2 -j KUBE-MARK-MASQ
-A KUBE-SEP-DKCFIS26GWF2WLWC -m comment --comment ns3/svc3:p80 -m tcp -p tcp -j DNAT --to-destination 10.0.3.2:80
-A KUBE-SVC-X27LE4BHSL4DOUIK -m comment --comment "ns3/svc3:p80 cluster IP" -m tcp -p tcp -d 172.30.0.43 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ
-A KUBE-SVC-X27LE4BHSL4DOUIK -m comment --comment "ns3/svc3:p80 -> 10.0.3.2:80" -j KUBE-SEP-DKCFIS26GWF2WLWC
-X KUBE-SEP-BSWRHOQ77KEXZLNL
`)}`, 'an endpoint changed: that Service rewritten, the old endpoint chain deleted');

  slices = slices.map((s) => (s.metadata.namespace === 'ns3' ? slice('ns3', 'svc3', 'p80', 80, ['10.0.3.2', '10.0.3.3']) : s));
  expect(sync(), `${FILTER}${nat(['KUBE-SEP-DKCFIS26GWF2WLWC', 'KUBE-SEP-JVVZVJ7BSEPPRNBS', 'KUBE-SVC-X27LE4BHSL4DOUIK'], `${SVC1}\n${SVC3}\n${SVC4}\n${NAT_STATIC}${SVC3_TWO_EPS}`)}`, 'an endpoint added');

  expect(sync(), `${FILTER}${nat([], `${SVC1}\n${SVC3}\n${SVC4}\n${NAT_STATIC}`)}`, 'no changes: no per-service chain');

  // a jump from svc3's chain to svc4's endpoint: the partial restore cannot delete svc4's chains
  assert.equal(runIptables(st, ['-t', 'nat', '-A', 'KUBE-SVC-X27LE4BHSL4DOUIK', '-j', 'KUBE-SEP-AYCN5HPXMIRJNJXU']).exitCode, 0);
  services = [svc1, svc3];
  const failed = sync();
  assert.notEqual(failed.error, undefined, 'the partial restore fails');
  assert.ok(st.tables.nat!.chains.some((c) => c.name === 'KUBE-SEP-AYCN5HPXMIRJNJXU'), 'nothing was applied');
  // …and the retry is a full sync, which rewrites svc3's chain and deletes svc4's
  expect(sync(true), `${FILTER}${nat(['KUBE-SEP-AYCN5HPXMIRJNJXU', 'KUBE-SEP-DKCFIS26GWF2WLWC', 'KUBE-SEP-JVVZVJ7BSEPPRNBS', 'KUBE-SEP-SNQ3ZNILQDEJNDQO', 'KUBE-SVC-4SW47YFZTEDKD3PK', 'KUBE-SVC-X27LE4BHSL4DOUIK', 'KUBE-SVC-XPGD46QRK7WJZT7O'], `${SVC1}\n${SVC3}\n${NAT_STATIC}${SVC3_TWO_EPS}${SVC1_CHAINS}-X KUBE-SEP-AYCN5HPXMIRJNJXU\n-X KUBE-SVC-4SW47YFZTEDKD3PK\n`)}`, 'the full retry');
});
