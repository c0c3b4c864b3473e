import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EndpointSlice, Service } from '../api/types.js';
import { Random } from '../../util/random.js';
import { newIptablesState } from './iptables.js';
import type { IptablesState } from './iptables.js';
import { runIptables } from './iptables-cmd.js';
import { applyRestore } from './restore.js';
import { syncProxyRules } from './kube-proxy/sync.js';
import { ensureKubeletRules } from './kube-proxy/kubelet-rules.js';
import type { Packet, WalkContext } from './packet.js';
import { newRecentState, ruleCidrParses, ruleNatDestParses, ruleOptionSplits, summariseTrace, walkFilter, walkNat } from './packet.js';

const NODE_IP = '192.168.122.21';

function webNode(opts: { endpoints?: string[]; affinity?: boolean } = {}): IptablesState {
  const svc: Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'net' },
    spec: {
      type: 'NodePort',
      clusterIP: '10.111.80.136',
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80, nodePort: 31777 }],
      ...(opts.affinity ? { sessionAffinity: 'ClientIP' as const } : {}),
    },
  };
  const eps = opts.endpoints ?? ['10.244.62.167', '10.244.95.170'];
  const slice: EndpointSlice = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'web-x', namespace: 'net', labels: { 'kubernetes.io/service-name': 'web' } },
    addressType: 'IPv4',
    endpoints: eps.map((ip) => ({ addresses: [ip], conditions: { ready: true }, nodeName: 'cka-w2' })),
    ports: [{ name: '', port: 80, protocol: 'TCP' }],
  };
  const st = newIptablesState();
  ensureKubeletRules(st);
  syncProxyRules(st, { services: [svc], endpointSlices: [slice], node: { name: 'cka-w1', ips: [NODE_IP] }, config: { clusterCIDR: '10.244.0.0/16' } });
  return st;
}

function ctx(seed = 1): WalkContext {
  return { localAddrs: [NODE_IP], rng: new Random(seed), recent: newRecentState(), nowSeconds: 1000 };
}

const fromPod: Packet = { src: '10.244.1.9', dst: '10.111.80.136', proto: 'tcp', sport: 40000, dport: 80 };

test('pod → ClusterIP is DNATed to an endpoint, not masqueraded (source inside clusterCIDR)', () => {
  const r = walkNat(webNode(), fromPod, 'PREROUTING', ctx());
  assert.equal(r.verdict, 'ACCEPT');
  assert.ok(r.dnat && ['10.244.62.167', '10.244.95.170'].includes(r.dnat.ip));
  assert.equal(r.dnat?.port, 80);
  assert.equal(r.masquerade, false);
  assert.equal(r.trace[0], 'nat:PREROUTING:rule:1');
  assert.equal(r.trace[1], 'nat:KUBE-SERVICES:rule:1');
});

test('host → ClusterIP (source outside clusterCIDR) is masqueraded', () => {
  const r = walkNat(webNode(), { ...fromPod, src: NODE_IP }, 'OUTPUT', ctx());
  assert.ok(r.dnat);
  assert.equal(r.masquerade, true);
  assert.ok(r.trace.includes('nat:KUBE-POSTROUTING:rule:3'));
});

test('NodePort on the node IP goes through KUBE-NODEPORTS and KUBE-EXT, masqueraded', () => {
  const r = walkNat(webNode(), { src: '192.168.122.1', dst: NODE_IP, proto: 'tcp', sport: 5555, dport: 31777 }, 'PREROUTING', ctx());
  assert.ok(r.dnat);
  assert.equal(r.masquerade, true);
  assert.ok(r.trace.some((t) => t.startsWith('nat:KUBE-NODEPORTS:rule:')));
  assert.ok(r.trace.some((t) => t.startsWith('nat:KUBE-EXT-RTHZXQ2YZKSHM2PI:rule:')));
});

test('statistic --probability 0.5 splits traffic about evenly with a seeded Random', () => {
  const st = webNode();
  const c = ctx(42);
  const counts = new Map<string, number>();
  for (let i = 0; i < 2000; i++) {
    const r = walkNat(st, fromPod, 'PREROUTING', c);
    const ip = r.dnat?.ip ?? 'none';
    counts.set(ip, (counts.get(ip) ?? 0) + 1);
  }
  const a = counts.get('10.244.62.167') ?? 0;
  const b = counts.get('10.244.95.170') ?? 0;
  assert.equal(a + b, 2000);
  assert.ok(a > 900 && a < 1100, `first endpoint got ${a}`);
  // same seed, same sequence
  const again = walkNat(webNode(), fromPod, 'PREROUTING', ctx(42)).dnat?.ip;
  assert.equal(again, walkNat(webNode(), fromPod, 'PREROUTING', ctx(42)).dnat?.ip);
});

test('a user rule inserted at the top of KUBE-SERVICES changes the outcome', () => {
  const st = webNode();
  assert.equal(runIptables(st, ['-t', 'nat', '-I', 'KUBE-SERVICES', '-d', '10.111.80.136', '-j', 'DROP']).exitCode, 0);
  const r = walkNat(st, fromPod, 'PREROUTING', ctx());
  assert.equal(r.verdict, 'DROP');
  assert.equal(r.dnat, undefined);
  assert.deepEqual(r.trace, ['nat:PREROUTING:rule:1', 'nat:KUBE-SERVICES:rule:1']);
});

test('deleting a KUBE-SEP DNAT rule leaves the packet untranslated when that endpoint is picked', () => {
  const st = webNode({ endpoints: ['10.244.62.167'] });
  assert.equal(runIptables(st, ['-t', 'nat', '-F', 'KUBE-SEP-S3UT2MK4P7AJ67WG']).exitCode, 0);
  const r = walkNat(st, fromPod, 'PREROUTING', ctx());
  assert.equal(r.verdict, 'ACCEPT');
  assert.equal(r.dnat, undefined);
  assert.ok(r.trace.includes('nat:KUBE-SEP-S3UT2MK4P7AJ67WG:return:1'));
});

test('session affinity pins a client to the endpoint it first got', () => {
  const st = webNode({ affinity: true });
  const c = ctx(7);
  const first = walkNat(st, fromPod, 'PREROUTING', c).dnat?.ip;
  for (let i = 0; i < 50; i++) assert.equal(walkNat(st, fromPod, 'PREROUTING', c).dnat?.ip, first);
  assert.ok(Object.keys(c.recent.lists).some((k) => k.startsWith('KUBE-SEP-')));
  // after the timeout the entry is reaped and load balancing resumes
  c.nowSeconds += 10801;
  const other = new Set<string>();
  for (let i = 0; i < 50; i++) {
    const fresh: WalkContext = { ...c, recent: newRecentState() };
    other.add(walkNat(st, fromPod, 'PREROUTING', fresh).dnat?.ip ?? '');
  }
  assert.equal(other.size, 2);
});

test('service without endpoints is rejected by filter KUBE-SERVICES', () => {
  const st = webNode({ endpoints: [] });
  const nat = walkNat(st, fromPod, 'PREROUTING', ctx());
  assert.equal(nat.dnat, undefined);
  const f = walkFilter(st, fromPod, 'FORWARD', ctx());
  assert.equal(f.verdict, 'REJECT');
  assert.equal(f.rejectWith, 'icmp-port-unreachable');
  assert.ok(f.trace.includes('filter:KUBE-SERVICES:rule:1'));
});

test('filter OUTPUT with policy DROP and a user ACCEPT rule', () => {
  const st = newIptablesState();
  runIptables(st, ['-P', 'OUTPUT', 'DROP']);
  runIptables(st, ['-A', 'OUTPUT', '-p', 'udp', '--dport', '53', '-j', 'ACCEPT']);
  const dns: Packet = { src: '10.0.0.1', dst: '10.96.0.10', proto: 'udp', sport: 3333, dport: 53 };
  assert.equal(walkFilter(st, dns, 'OUTPUT', ctx()).verdict, 'ACCEPT');
  const web: Packet = { ...dns, proto: 'tcp', dport: 80 };
  const r = walkFilter(st, web, 'OUTPUT', ctx());
  assert.equal(r.verdict, 'DROP');
  assert.deepEqual(r.trace, ['filter:OUTPUT:policy:2']);
});

test('counters are incremented when asked', () => {
  const st = webNode();
  const c: WalkContext = { ...ctx(), count: { bytes: 60 } };
  walkNat(st, fromPod, 'PREROUTING', c);
  const out = runIptables(st, ['-t', 'nat', '-L', 'PREROUTING', '-v', '-n', '-x']).stdout;
  assert.equal(
    out,
    'Chain PREROUTING (policy ACCEPT 0 packets, 0 bytes)\n' +
      '    pkts      bytes target     prot opt in     out     source               destination         \n' +
      '       1       60 KUBE-SERVICES  all  --  *      *       0.0.0.0/0            0.0.0.0/0            /* kubernetes service portals */\n',
  );
});

test('counting a rule that another ruleset shares (restored from the same lines) counts only in this one', () => {
  const payload = ['*nat', ':KUBE-SERVICES - [0:0]', '-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES', 'COMMIT', ''].join('\n');
  const [a, b] = [newIptablesState(), newIptablesState()];
  for (const st of [a, b]) assert.equal(applyRestore(st, payload, { noflush: true }).exitCode, 0);
  walkNat(a, fromPod, 'PREROUTING', { ...ctx(), count: { bytes: 60 } });
  const listed = (st: IptablesState): string => runIptables(st, ['-t', 'nat', '-L', 'PREROUTING', '-v', '-n', '-x']).stdout.split('\n')[2] ?? '';
  assert.match(listed(a), /^ +1 +60 KUBE-SERVICES/);
  assert.match(listed(b), /^ +0 +0 KUBE-SERVICES/);
});

test("a rule's address match is parsed once, not for every packet that walks it", () => {
  const st = webNode();
  const first = walkNat(st, fromPod, 'PREROUTING', ctx());
  const before = ruleCidrParses();
  const again = walkNat(st, fromPod, 'PREROUTING', ctx());
  assert.equal(ruleCidrParses(), before, 'the second packet parsed the rules again');
  assert.deepEqual(again, first);
  // a rule inserted later is parsed when a packet first meets it, and decides as written
  runIptables(st, ['-t', 'nat', '-I', 'PREROUTING', '-s', '10.244.1.0/24', '-j', 'RETURN']);
  const skipped = walkNat(st, fromPod, 'PREROUTING', ctx());
  assert.equal(skipped.dnat, undefined);
  assert.equal(ruleCidrParses(), before + 1);
  assert.equal(walkNat(st, { ...fromPod, src: '10.244.2.9' }, 'PREROUTING', ctx()).dnat?.port, 80);
});

test('a walk without trace lines gives the summary its trace lines would give', () => {
  const st = webNode();
  // a user chain whose name holds a colon: summariseTrace reads its lines by their colons
  for (const args of [['-t', 'nat', '-N', 'A:B'], ['-t', 'nat', '-I', 'PREROUTING', '-j', 'A:B'], ['-t', 'nat', '-A', 'A:B', '-j', 'MARK', '--set-xmark', '0x1/0x1'], ['-I', 'FORWARD', '-j', 'LOG']])
    assert.equal(runIptables(st, args).exitCode, 0, args.join(' '));
  const packets: Packet[] = [fromPod, { ...fromPod, dst: '10.244.62.167' }, { src: '192.168.122.1', dst: NODE_IP, proto: 'tcp', sport: 5555, dport: 31777 }];
  for (const p of packets) {
    for (const hook of ['PREROUTING', 'OUTPUT'] as const) {
      const full = walkNat(st, p, hook, ctx(7));
      const quiet = walkNat(st, p, hook, { ...ctx(7), trace: false });
      assert.ok(full.trace.length > 0);
      assert.deepEqual(quiet.trace, []);
      assert.equal(full.summary, summariseTrace(full.trace));
      assert.deepEqual({ ...quiet, trace: full.trace }, full);
    }
    for (const hook of ['INPUT', 'FORWARD', 'OUTPUT'] as const) {
      const full = walkFilter(st, p, hook, ctx(7));
      const quiet = walkFilter(st, p, hook, { ...ctx(7), trace: false });
      assert.deepEqual(quiet.trace, []);
      assert.equal(full.summary, summariseTrace(full.trace));
      assert.deepEqual({ ...quiet, trace: full.trace }, full);
    }
  }
  assert.equal(summariseTrace(['nat:A:B:rule:1', 'nat:PREROUTING:rule:2', 'nat:PREROUTING:rule:2', 'nat:X:return:3', 'filter:OUTPUT:policy:2']), 'PREROUTING#2 → OUTPUT(policy)');
  assert.equal(summariseTrace([]), '(no rule matched)');
});

test('a walk that counts nothing leaves the rules it matched in place (shared frozen rules stay shared)', () => {
  const st = webNode();
  const nat = st.tables.nat!;
  for (const ch of nat.chains) for (const r of ch.rules) Object.freeze(r.counters);
  const before = nat.chains.map((ch) => [ch, [...ch.rules]] as const);
  assert.ok(walkNat(st, fromPod, 'PREROUTING', ctx()).dnat);
  for (const [i, [ch, rules]] of before.entries()) {
    assert.equal(nat.chains[i], ch);
    assert.ok(rules.every((r, k) => ch.rules[k] === r), `${ch.name}: a rule was replaced`);
  }
  // a counting walk makes the rules it counts its own
  walkNat(st, fromPod, 'PREROUTING', { ...ctx(), count: { bytes: 60 } });
  assert.ok(nat.chains.some((ch, i) => ch !== before[i]![0] || ch.rules.some((r, k) => r !== before[i]![1][k])));
});

test("a DNAT's destination is parsed once per text, and each result is the walk's own", () => {
  const st = webNode({ endpoints: ['10.244.62.167'] });
  const first = walkNat(st, fromPod, 'PREROUTING', ctx());
  const before = ruleNatDestParses();
  const again = walkNat(st, fromPod, 'PREROUTING', ctx());
  assert.equal(ruleNatDestParses(), before, 'the second packet parsed the DNAT target again');
  assert.deepEqual(again.dnat, { ip: '10.244.62.167', port: 80 });
  assert.notEqual(again.dnat, first.dnat);
  first.dnat!.port = 1;
  assert.equal(walkNat(st, fromPod, 'PREROUTING', ctx()).dnat?.port, 80);
});

test("a match option's value (conntrack states, addrtype types, a mark) is split once per text", () => {
  const st = webNode();
  assert.equal(runIptables(st, ['-I', 'FORWARD', '-m', 'mark', '!', '--mark', '0x10/0x10', '-j', 'LOG']).exitCode, 0);
  const nodePort: Packet = { src: '192.168.122.1', dst: NODE_IP, proto: 'tcp', sport: 5555, dport: 31777 };
  const walk = (): unknown => [walkNat(st, nodePort, 'PREROUTING', ctx()), walkNat(st, fromPod, 'PREROUTING', ctx()), walkFilter(st, { ...fromPod, ctstates: ['NEW', 'DNAT'] }, 'FORWARD', ctx())];
  const first = walk();
  const before = ruleOptionSplits();
  assert.ok(before > 0);
  assert.deepEqual(walk(), first);
  assert.equal(ruleOptionSplits(), before, 'the second walk split the options again');
});
