/**
 * A kube-proxy nftables proxier's life on one node, batch by batch: the random Service and
 * EndpointSlice edits of the memo tests (proxy-steps.ts), synced fully or partially as they say,
 * each sync's stale-chain batch and main batch kept as the text kube-proxy hands `nft -f`.
 * scripts/record-nft-list.mjs feeds the same batches to the real nft in a network namespace and
 * records whether each was accepted and what the table looks like at the end;
 * src/sim/net/nft-replay.test.ts checks the simulator against that.
 */
import { kubeProxyTable, newNftState, type NftTable } from '../sim/net/kube-proxy/nftables.js';
import { opText, runNftBatch, type NftOp } from '../sim/net/kube-proxy/nftables-tx.js';
import { syncNftablesRules, type NftProxierMemory } from '../sim/net/kube-proxy/nftables-sync.js';
import { MEMO_NODES, deepFreeze, editSteps } from './proxy-steps.js';

export interface Replay {
  /** Each batch's text and whether the simulator's kernel accepted it. */
  batches: { text: string; ok: boolean }[];
  /** The `ip kube-proxy` table after the last batch. */
  table: NftTable | undefined;
}

/**
 * `steps` syncs from `seed`; with `handEdits`, before every seventh sync someone deletes one
 * element of service-ips and flushes one service chain by hand, which the proxier does not know
 * about: later partial syncs that touch them fail as the kernel refuses them, and a full one mends.
 */
export function nftReplay(seed: number, steps: number, handEdits = false): Replay {
  const st = newNftState();
  const node = MEMO_NODES[0]!;
  let last: { fps: ReadonlyMap<string, number>; mem: NftProxierMemory } | undefined;
  const batches: Replay['batches'] = [];
  editSteps(seed, steps).forEach((step, s) => {
    const t = kubeProxyTable(st);
    if (handEdits && s % 7 === 6 && t) {
      const el = t.sets.find((x) => x.name === 'service-ips')?.elements[0];
      const chain = t.chains.find((c) => c.name.startsWith('service-') && c.rules.length > 0);
      const ops: NftOp[] = [];
      if (el) ops.push({ verb: 'delete', obj: 'element', set: 'service-ips', kind: 'map', elem: { key: el.key } });
      if (chain) ops.push({ verb: 'flush', obj: 'chain', name: chain.name });
      if (ops.length > 0) batches.push({ text: ops.map((op) => `${opText(op)}\n`).join(''), ok: runNftBatch(st, ops) === undefined });
    }
    const r = syncNftablesRules(
      st,
      { services: step.services.map(deepFreeze), endpointSlices: step.slices.map(deepFreeze), node, config: { mode: 'nftables', clusterCIDR: '10.244.0.0/16' }, serviceCIDRs: ['10.96.0.0/12'] },
      { now: s * 2000, ...(last && !step.full ? { previous: last.fps, memory: last.mem } : {}) },
    );
    // a failed stale-chain batch makes the sync a full one; it is not told apart here (the tests' edits never fail it)
    if (r.stalePayload !== '') batches.push({ text: r.stalePayload, ok: true });
    // a sync that failed is retried as a full one (proxier.go: needFullSync after a failed nft run)
    if (r.payload !== '') batches.push({ text: r.payload, ok: r.error === undefined });
    if (r.error !== undefined) {
      const retry = syncNftablesRules(st, { services: step.services.map(deepFreeze), endpointSlices: step.slices.map(deepFreeze), node, config: { mode: 'nftables', clusterCIDR: '10.244.0.0/16' }, serviceCIDRs: ['10.96.0.0/12'] }, { now: s * 2000 + 1000, memory: r.nft });
      if (retry.payload !== '') batches.push({ text: retry.payload, ok: retry.error === undefined });
      if (retry.error === undefined) last = { fps: retry.fingerprints, mem: retry.nft };
      return;
    }
    if (r.error === undefined) last = { fps: r.fingerprints, mem: r.nft };
  });
  return { batches, table: kubeProxyTable(st) };
}
