/**
 * Connections through kube-proxy's rules against the real kernel, in both modes. A pod connected
 * to each destination of src/testing/nft-flows.ts through a node namespace holding the `overall`
 * nftables table, then the same Services' iptables rules; the node connected too
 * (scripts/record-nft-list.mjs; the node has a default route and no ICMP rate limit). Every answer
 * seen is in testdata/nft-list/flows-overall*.txt. The simulator's walk of the same packet
 * (pre-DNAT filter chain, nat prerouting or output, then the input, forward or output filter
 * chain on the translated packet; masquerade in postrouting when marked) gives the same answers,
 * over every choice the load-balancing rules can make.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FLOW_CASES, FLOW_NODE_IP, FLOW_POD_IP, NODE_FLOW_CASES, overallIptables } from '../../testing/nft-flows.js';
import { nftListCases } from '../../testing/nft-list-cases.js';
import { walkNftFilter, walkNftNat, type NftTable } from './kube-proxy/nftables.js';
import type { IptablesState } from './iptables.js';
import { newRecentState, walkFilter, walkNat } from './packet.js';

/**
 * What the client prints for one connection from the pod or (`fromNode`) the node itself, with
 * the load balancer choosing `pick`. The node's own connections take its address as their source.
 */
function answer(t: NftTable, dst: string, dport: number, pick: number, fromNode: boolean): string {
  const ctx = { localAddrs: [FLOW_NODE_IP], rng: { int: (n: number): number => pick % n } };
  const src = fromNode ? FLOW_NODE_IP : FLOW_POD_IP;
  const p = { src, dst, proto: 'tcp', dport };
  const verdict = (v: string): string | undefined => (v === 'DROP' ? 'TIMEOUT' : v === 'REJECT' ? 'REFUSED' : undefined);
  const pre = verdict(walkNftFilter(t, p, fromNode ? 'filter-output-pre-dnat' : 'filter-prerouting-pre-dnat', ctx).verdict);
  if (pre) return pre;
  const nat = walkNftNat(t, p, fromNode ? 'output' : 'prerouting', ctx);
  const out = nat.dnat ? { ...p, dst: nat.dnat.ip, dport: nat.dnat.port } : p;
  const local = out.dst === FLOW_NODE_IP;
  const post = verdict(walkNftFilter(t, out, fromNode ? 'filter-output' : local ? 'filter-input' : 'filter-forward', ctx).verdict);
  if (post) return post;
  // not translated: the node itself answers with a reset, anything else goes out the default route unanswered
  if (!nat.dnat) return local ? 'REFUSED' : 'TIMEOUT';
  return `${nat.dnat.ip}:${nat.dnat.port} from ${nat.masquerade ? FLOW_NODE_IP : src}`;
}

/** The same in iptables mode (nat PREROUTING with POSTROUTING's masquerade, then filter), the statistic match drawing `draw`. */
function iptablesAnswer(st: IptablesState, dst: string, dport: number, draw: number, fromNode: boolean): string {
  const ctx = { localAddrs: [FLOW_NODE_IP], rng: { float: (): number => draw }, recent: newRecentState(), nowSeconds: 0 };
  const src = fromNode ? FLOW_NODE_IP : FLOW_POD_IP;
  const p = { src, dst, proto: 'tcp' as const, dport };
  const nat = walkNat(st, p, fromNode ? 'OUTPUT' : 'PREROUTING', ctx);
  if (nat.verdict === 'DROP') return 'TIMEOUT';
  const out = nat.dnat ? { ...p, dst: nat.dnat.ip, ...(nat.dnat.port !== undefined ? { dport: nat.dnat.port } : {}) } : p;
  const local = out.dst === FLOW_NODE_IP;
  const f = walkFilter(st, { ...out, ctstates: nat.dnat ? ['NEW', 'DNAT'] : ['NEW'] }, fromNode ? 'OUTPUT' : local ? 'INPUT' : 'FORWARD', ctx);
  if (f.verdict === 'DROP') return 'TIMEOUT';
  if (f.verdict === 'REJECT') return 'REFUSED';
  if (!nat.dnat) return local ? 'REFUSED' : 'TIMEOUT';
  return `${out.dst}:${out.dport ?? ''} from ${nat.masquerade ? FLOW_NODE_IP : src}`;
}

function recorded(file: string): Map<string, string> {
  return new Map(
    readFileSync(new URL(`./testdata/nft-list/${file}`, import.meta.url), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split('\t'))
      .map(([k = '', v = '']) => [k, v]),
  );
}

/** Every case, from the pod and from the node: the set of answers `answers` gives equals the recorded one. */
function assertFlows(file: string, answers: (dst: string, port: number, fromNode: boolean) => string[]): void {
  const want = recorded(file);
  for (const [cases, fromNode] of [
    [FLOW_CASES, false],
    [NODE_FLOW_CASES, true],
  ] as const) {
    for (const [dst, port, what] of cases) {
      const got = [...new Set(answers(dst, port, fromNode))].sort().join(' | ');
      assert.equal(got, want.get(`${fromNode ? 'node ' : ''}${dst}:${port}`), `${dst}:${port} (${what})`);
    }
  }
}

test('pod connections through the nftables table give the real kernel’s answers', () => {
  const t = nftListCases().find((c) => c.name === 'overall')!.table;
  assertFlows('flows-overall.txt', (dst, port, fromNode) => [0, 1, 2, 3].map((k) => answer(t, dst, port, k, fromNode)));
});

test('the same connections through the iptables rules of the same Services give the real kernel’s answers', () => {
  const st = overallIptables();
  assertFlows('flows-overall-iptables.txt', (dst, port, fromNode) => [0.05, 0.45, 0.55, 0.95].map((d) => iptablesAnswer(st, dst, port, d, fromNode)));
});
