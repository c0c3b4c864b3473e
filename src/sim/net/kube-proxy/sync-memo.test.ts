/**
 * The per-node sync memo (sync.ts NodeMemo) and the caches under it (sorted ports replaced in
 * place, the endpoints change log, the rendered-port and parse memos, iptables-restore's chain
 * name interning) cannot go stale: random sequences of Service and EndpointSlice edits, synced on
 * two nodes with stored (frozen) objects, which use every cache, give the same restore payloads,
 * the same iptables-save and the same fingerprints as the same sequence replayed with unfrozen
 * copies, which no cache keeps (each is computed from scratch).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newIptablesState, type IptablesState } from '../iptables.js';
import { renderSave } from '../render.js';
import { ensureKubeletRules } from './kubelet-rules.js';
import { syncProxyRules, type KubeProxyConfig, type SyncResult } from './sync.js';
import { MEMO_NODES as NODES, deepFreeze, editSteps as steps, type EditStep as Step } from '../../../testing/proxy-steps.js';

const CONFIG: KubeProxyConfig = { clusterCIDR: '10.244.0.0/16', randomFully: true };
interface Observed {
  payload: string;
  error: string | undefined;
  save: string;
  fingerprints: [string, number][] | undefined;
  /** Whether the sync knew its changes from the memo (only the cached run has these). */
  incremental: boolean;
}

/** Runs the steps on fresh nodes; `stored` hands the syncs frozen objects (as the store does), else unfrozen copies. */
function run(all: readonly Step[], stored: boolean): Observed[][] {
  const states: IptablesState[] = NODES.map(() => {
    const st = newIptablesState();
    ensureKubeletRules(st);
    return st;
  });
  const last: (SyncResult | undefined)[] = NODES.map(() => undefined);
  const objects = new Map<object, unknown>();
  // the same object for the same stored object, as the store's lists give
  const give = <T extends object>(o: T): T => {
    if (stored) return deepFreeze(o);
    let copy = objects.get(o) as T | undefined;
    if (!copy) objects.set(o, (copy = structuredClone(o)));
    return copy;
  };
  return all.map((step) => {
    const services = step.services.map(give);
    const endpointSlices = step.slices.map(give);
    return NODES.map((node, n) => {
      const previous = step.full ? undefined : last[n]?.fingerprints;
      const r = syncProxyRules(states[n] as IptablesState, { services, endpointSlices, node, config: CONFIG, ...(previous ? { previous } : {}), staleCleanupDue: step.staleCleanupDue });
      if (r.error === undefined) last[n] = r;
      const changes = r.fingerprintChanges;
      if (changes && r.fingerprints) {
        // the changes say exactly how the fingerprints differ from `since`
        const applied = new Map(changes.since);
        for (const k of changes.names) applied.set(k, r.fingerprints.get(k) as number);
        assert.deepEqual([...applied], [...r.fingerprints], 'fingerprintChanges');
      }
      return {
        payload: r.payload,
        error: r.error,
        save: renderSave((states[n] as IptablesState).tables, { now: 0 }),
        fingerprints: r.fingerprints ? [...r.fingerprints] : undefined,
        incremental: changes !== undefined,
      };
    });
  });
}

for (const seed of [1, 2, 3]) {
  test(`sync memo: random edits (seed ${seed}) give what computing from scratch gives`, () => {
    const all = steps(seed, 80);
    const cached = run(all, true);
    const fresh = run(all, false);
    let incremental = 0;
    cached.forEach((nodes, s) =>
      nodes.forEach((got, n) => {
        const want = fresh[s]?.[n] as Observed;
        const at = `step ${s}, ${NODES[n]?.name}`;
        assert.equal(got.error, want.error, `${at}: error`);
        assert.equal(got.payload, want.payload, `${at}: restore payload`);
        assert.equal(got.save, want.save, `${at}: iptables-save`);
        assert.deepEqual(got.fingerprints, want.fingerprints, `${at}: fingerprints`);
        assert.equal(want.incremental, false, 'unfrozen objects are never cached');
        if (got.incremental) incremental++;
      }),
    );
    // most syncs of the cached run started from the memo (else this test would prove little)
    assert.ok(incremental > cached.length * NODES.length * 0.35, `${incremental} of ${cached.length * NODES.length} syncs incremental`);
  });
}
