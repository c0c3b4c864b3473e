/**
 * Connections through kube-proxy's nftables table against the real kernel: a pod connected to
 * each destination of src/testing/nft-flows.ts through a node namespace holding the `overall`
 * table (scripts/record-nft-list.mjs; the node has a default route and no ICMP rate limit), and
 * every answer it saw is in testdata/nft-list/flows-overall.txt. The simulator's walk of the same
 * packet (pre-DNAT filter chain, nat prerouting, then the input or forward filter chain on the
 * translated packet; masquerade in postrouting when marked) gives the same answers, over every
 * choice the load-balancing rules can make.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FLOW_CASES, FLOW_NODE_IP, FLOW_POD_IP } from '../../testing/nft-flows.js';
import { nftListCases } from '../../testing/nft-list-cases.js';
import { walkNftFilter, walkNftNat, type NftTable } from './kube-proxy/nftables.js';

/** What the pod's client prints for one connection, with the load balancer choosing `pick`. */
function answer(t: NftTable, dst: string, dport: number, pick: number): string {
  const ctx = { localAddrs: [FLOW_NODE_IP], rng: { int: (n: number): number => pick % n } };
  const p = { src: FLOW_POD_IP, dst, proto: 'tcp', dport };
  const verdict = (v: string): string | undefined => (v === 'DROP' ? 'TIMEOUT' : v === 'REJECT' ? 'REFUSED' : undefined);
  const pre = verdict(walkNftFilter(t, p, 'filter-prerouting-pre-dnat', ctx).verdict);
  if (pre) return pre;
  const nat = walkNftNat(t, p, 'prerouting', ctx);
  const out = nat.dnat ? { ...p, dst: nat.dnat.ip, dport: nat.dnat.port } : p;
  const local = out.dst === FLOW_NODE_IP;
  const post = verdict(walkNftFilter(t, out, local ? 'filter-input' : 'filter-forward', ctx).verdict);
  if (post) return post;
  // not translated: the node itself answers with a reset, anything else goes out the default route unanswered
  if (!nat.dnat) return local ? 'REFUSED' : 'TIMEOUT';
  return `${nat.dnat.ip}:${nat.dnat.port} from ${nat.masquerade ? FLOW_NODE_IP : FLOW_POD_IP}`;
}

test('pod connections through the nftables table give the real kernel’s answers', () => {
  const t = nftListCases().find((c) => c.name === 'overall')!.table;
  const recorded = new Map(
    readFileSync(new URL('./testdata/nft-list/flows-overall.txt', import.meta.url), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split('\t'))
      .map(([k = '', v = '']) => [k, v]),
  );
  for (const [dst, port, what] of FLOW_CASES) {
    const got = [...new Set([0, 1, 2, 3].map((k) => answer(t, dst, port, k)))].sort().join(' | ');
    assert.equal(got, recorded.get(`${dst}:${port}`), `${dst}:${port} (${what})`);
  }
});
