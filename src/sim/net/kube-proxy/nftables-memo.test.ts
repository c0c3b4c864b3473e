/**
 * The nftables proxier's memos (nftables-plan.ts portPlanCached, nftables-sync.ts's fingerprint
 * memo and its SyncIndex, which lets a partial sync visit only the changed Services) cannot go
 * stale: the random edit sequences of the iptables memo test, synced on two nodes with stored
 * (frozen) objects, which use every memo, give the same transactions, tables and fingerprints as
 * the same sequence replayed with unfrozen copies, which no memo keeps, visiting every Service.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MEMO_NODES, deepFreeze, editSteps, type EditStep } from '../../../testing/proxy-steps.js';
import { kubeProxyTable, newNftState, type NftState } from './nftables.js';
import { dumpNftTable } from './nftables-tx.js';
import { syncNftablesRules, type NftProxierMemory } from './nftables-sync.js';

interface Observed {
  payload: string;
  error: string | undefined;
  table: string[];
  fingerprints: [string, number][];
}

function run(all: readonly EditStep[], stored: boolean): Observed[][] {
  const states: NftState[] = MEMO_NODES.map(() => newNftState());
  const last: ({ fps: ReadonlyMap<string, number>; mem: NftProxierMemory } | undefined)[] = MEMO_NODES.map(() => undefined);
  const copies = new Map<object, unknown>();
  const give = <T extends object>(o: T): T => {
    if (stored) return deepFreeze(o);
    let copy = copies.get(o) as T | undefined;
    if (!copy) copies.set(o, (copy = structuredClone(o)));
    return copy;
  };
  return all.map((step, s) => {
    const services = step.services.map(give);
    const endpointSlices = step.slices.map(give);
    return MEMO_NODES.map((node, n) => {
      const prev = last[n];
      const r = syncNftablesRules(
        states[n] as NftState,
        { services, endpointSlices, node, config: { mode: 'nftables', clusterCIDR: '10.244.0.0/16' }, serviceCIDRs: ['10.96.0.0/12'] },
        { now: s * 2000, ...(prev && !step.full ? { previous: prev.fps, memory: prev.mem } : {}), ...(stored ? {} : { visitAll: true }) },
      );
      if (r.error === undefined) last[n] = { fps: r.fingerprints, mem: r.nft };
      const t = kubeProxyTable(states[n] as NftState);
      return { payload: r.payload, error: r.error, table: t ? dumpNftTable(t) : [], fingerprints: [...r.fingerprints] };
    });
  });
}

for (const seed of [1, 2, 3]) {
  test(`nftables memos: seed ${seed}, 40 steps of random edits give what computing from scratch gives`, () => {
    const all = editSteps(seed, 40);
    const cached = run(all, true);
    const fresh = run(all, false);
    for (let s = 0; s < all.length; s++) {
      for (let n = 0; n < MEMO_NODES.length; n++) assert.deepEqual(cached[s]?.[n], fresh[s]?.[n], `step ${s}, node ${n}`);
    }
  });
}
