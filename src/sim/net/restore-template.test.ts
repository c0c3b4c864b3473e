/**
 * Chains shared between rulesets (restore.ts ChainTemplate): kube-proxy declares its per-service
 * chains through templates, so two nodes synced from the same Services hold the very same
 * (frozen) chain objects. Every writer makes such a chain its table's own first (iptables.ts
 * ownChain): an `iptables` edit, a flush, a rename, zeroed counters or a counted packet on one node
 * change that node alone, and the other's rules stay as they were. A restore that goes another way
 * than a template's lines (another line, fewer lines, a flush, -X) gives the chain it would have
 * made from the text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EndpointSlice, Service } from '../api/types.js';
import { findChain, newIptablesState, type IptablesState } from './iptables.js';
import { runIptables } from './iptables-cmd.js';
import { newRecentState, walkNat } from './packet.js';
import { renderSave } from './render.js';
import { ChainTemplate, applyRestore, applyRestoreLines } from './restore.js';
import { ensureKubeletRules } from './kube-proxy/kubelet-rules.js';
import { syncProxyRules } from './kube-proxy/sync.js';

function svc(i: number): Service {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name: `s${i}`, namespace: 'tpl' }, spec: { clusterIP: `10.96.7.${i + 1}`, ports: [{ name: 'p', port: 80, protocol: 'TCP', targetPort: 8080 }] } };
}

function slice(i: number): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: `s${i}-x`, namespace: 'tpl', labels: { 'kubernetes.io/service-name': `s${i}` } },
    addressType: 'IPv4',
    endpoints: [1, 2].map((j) => ({ addresses: [`10.244.7.${i * 4 + j}`], conditions: { ready: true }, nodeName: 'elsewhere' })),
    ports: [{ name: 'p', port: 8080, protocol: 'TCP' }],
  };
}

const SERVICES = [0, 1, 2].map(svc);
const SLICES = [0, 1, 2].map(slice);

/** Two nodes synced by kube-proxy from the same Services. */
function twoNodes(): [IptablesState, IptablesState] {
  return ['192.168.7.1', '192.168.7.2'].map((ip, n) => {
    const st = newIptablesState();
    ensureKubeletRules(st);
    const r = syncProxyRules(st, { services: SERVICES, endpointSlices: SLICES, node: { name: `node${n}`, ips: [ip] }, config: { clusterCIDR: '10.244.0.0/16', randomFully: true } });
    assert.equal(r.error, undefined);
    return st;
  }) as [IptablesState, IptablesState];
}

const save = (st: IptablesState): string => renderSave(st.tables, { now: 0, counters: true });

/** The first KUBE-SVC- and KUBE-SEP- chains of a node's nat table. */
function kubeChains(st: IptablesState): { svc: string; sep: string } {
  const names = (st.tables.nat?.chains ?? []).map((c) => c.name);
  return { svc: names.find((n) => n.startsWith('KUBE-SVC-')) as string, sep: names.find((n) => n.startsWith('KUBE-SEP-')) as string };
}

test('nodes synced from the same Services share their per-service chains, frozen', () => {
  const [a, b] = twoNodes();
  const { svc: name } = kubeChains(a);
  const ca = findChain(a.tables.nat!, name);
  assert.ok(ca && Object.isFrozen(ca) && Object.isFrozen(ca.rules));
  assert.equal(findChain(b.tables.nat!, name), ca);
});

const EDITS: { name: string; run: (st: IptablesState, c: { svc: string; sep: string }) => void }[] = [
  { name: '-A', run: (st, c) => runIptables(st, ['-t', 'nat', '-A', c.svc, '-j', 'RETURN']) },
  { name: '-I', run: (st, c) => runIptables(st, ['-t', 'nat', '-I', c.svc, '1', '-j', 'RETURN']) },
  { name: '-R', run: (st, c) => runIptables(st, ['-t', 'nat', '-R', c.svc, '1', '-j', 'RETURN']) },
  { name: '-D n', run: (st, c) => runIptables(st, ['-t', 'nat', '-D', c.svc, '1']) },
  { name: '-F chain', run: (st, c) => runIptables(st, ['-t', 'nat', '-F', c.sep]) },
  { name: '-F', run: (st) => runIptables(st, ['-t', 'nat', '-F']) },
  { name: '-Z chain', run: (st, c) => runIptables(st, ['-t', 'nat', '-Z', c.svc]) },
  { name: '-Z', run: (st) => runIptables(st, ['-t', 'nat', '-Z']) },
  { name: '-E', run: (st, c) => runIptables(st, ['-t', 'nat', '-E', c.sep, 'RENAMED']) },
  {
    name: 'a counted packet',
    run: (st) => walkNat(st, { src: '10.244.9.9', dst: '10.96.7.1', proto: 'tcp', sport: 40000, dport: 80 }, 'PREROUTING', { localAddrs: ['192.168.7.1'], rng: { float: () => 0.1 }, recent: newRecentState(), nowSeconds: 0, count: { bytes: 60 } }),
  },
  { name: 'a restore flushing the chain', run: (st, c) => assert.equal(applyRestore(st, `*nat\n:${c.svc} - [0:0]\n-A ${c.svc} -j RETURN\nCOMMIT\n`, { noflush: true }).exitCode, 0) },
];

for (const edit of EDITS) {
  test(`an edit of a shared chain on one node leaves the other's as it was (${edit.name})`, () => {
    const [a, b] = twoNodes();
    const before = save(b);
    const aBefore = save(a);
    edit.run(a, kubeChains(a));
    // (zeroing zero counters changes no text)
    if (!edit.name.startsWith('-Z')) assert.ok(save(a) !== aBefore, 'the edit changed the edited node');
    assert.ok(save(b) === before, "the other node's rules are as they were");
  });
}

test('a counted packet counts on its node only, and again on its own copy', () => {
  const [a, b] = twoNodes();
  const ctx = { localAddrs: ['192.168.7.1'], rng: { float: () => 0.1 }, recent: newRecentState(), nowSeconds: 0, count: { bytes: 60 } };
  const pkt = { src: '192.168.50.5', dst: '10.96.7.1', proto: 'tcp' as const, sport: 40000, dport: 80 };
  walkNat(a, pkt, 'PREROUTING', ctx);
  walkNat(a, pkt, 'PREROUTING', ctx);
  // the Service chain of 10.96.7.1, where the packet went
  const name = /-d 10\.96\.7\.1\/32 .* -j (KUBE-SVC-\w+)/.exec(renderSave(a.tables, { now: 0 }))?.[1] as string;
  const counted = findChain(a.tables.nat!, name)?.rules[0]?.counters;
  assert.deepEqual(counted, { packets: 2, bytes: 120 });
  assert.deepEqual(findChain(b.tables.nat!, name)?.rules[0]?.counters, { packets: 0, bytes: 0 });
});

/**
 * A payload declaring the node's first KUBE-SVC chain, then `body`, restored with what kube-proxy
 * knows of its lines (the chain's template, each line's built rule) and from the text alone.
 */
function both(body: string[]): [string, string] {
  const [a] = twoNodes();
  const { svc: name } = kubeChains(a);
  const shared = findChain(a.tables.nat!, name)!;
  const st = newIptablesState();
  const r = syncProxyRules(st, { services: SERVICES, endpointSlices: SLICES, node: { name: 'n', ips: ['192.168.7.3'] }, config: { clusterCIDR: '10.244.0.0/16', randomFully: true } });
  const payload = r.payload.split('\n');
  const knownOf = new Map(payload.map((l, i) => [l, r.known?.[i]]));
  const tpl = knownOf.get(`:${name} - [0:0]`);
  assert.ok(tpl instanceof ChainTemplate, `template of ${name}: ${String(tpl)}`);
  assert.ok(tpl.chain === shared);
  const lines = ['*nat', ':KUBE-MARK-MASQ - [0:0]', `:${name} - [0:0]`, ...payload.filter((l) => /^:KUBE-SEP-/.test(l)), ...body, 'COMMIT', ''];
  const out: string[] = [];
  for (const withTemplate of [true, false]) {
    const fresh = newIptablesState();
    const known = lines.map((l) => (withTemplate && !l.startsWith(':KUBE-SEP-') ? knownOf.get(l) : undefined));
    const res = applyRestoreLines(fresh, lines, { noflush: true }, known);
    out.push(`${res.exitCode} ${res.stderr}\n${save(fresh)}`);
  }
  return out as [string, string];
}

test('a restore going another way than the template gives what the text gives', () => {
  const [a] = twoNodes();
  const { svc: name } = kubeChains(a);
  const text = renderSave(a.tables, { now: 0 });
  const tplLines = text
    .split('\n')
    .filter((l) => l.startsWith(`-A ${name} `));
  assert.ok(tplLines.length >= 2);
  const sepLines = text
    .split('\n')
    .filter((l) => l.startsWith('-A KUBE-SEP-'));
  const bodies: string[][] = [
    tplLines,
    tplLines.slice(0, 1),
    [],
    [tplLines[0] as string, `-A ${name} -j RETURN`, ...tplLines.slice(1)],
    [...tplLines, `-A ${name} -j RETURN`],
    [...tplLines, `-F ${name}`],
    [...tplLines.slice(0, 1), `-I ${name} 1 -j RETURN`, ...tplLines.slice(1)],
    [`-X ${name}`],
    [...tplLines, `-X ${name}`],
    [`-D ${name} 1`],
    [...sepLines, ...tplLines],
    [...tplLines.slice(1), ...tplLines.slice(0, 1)],
    // the template's lines twice, and the chain declared again through the same template
    [...tplLines, ...tplLines],
    [`:${name} - [0:0]`, ...tplLines],
    [...tplLines, `:${name} - [0:0]`, ...tplLines.slice(0, 1)],
  ];
  for (const body of bodies) {
    const [withTpl, text] = both(body);
    assert.equal(withTpl, text, body.join('\n'));
  }
});
